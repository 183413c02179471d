import AudioCore
import AudioFile
import CLISupport

/// The one rule for the format every command that writes a file writes: `render -o OUT`, `convert IN OUT`,
/// `bells trim|normalize IN OUT` and `loops bake IN OUT`.
///
/// - `--format F` (render and convert) names it (every ``EncodeFormat``: wav16, wav24, wavf, flac, flac24, ogg,
///   opus, mp3). An OUT whose extension names another container (`x.flac --format wav16`) is refused.
/// - Otherwise OUT's extension picks it: `.wav`, `.flac`, `.ogg`/`.oga`, `.opus`, `.mp3`. `convert` and
///   `loops bake` keep the input's bit depth for `.wav` and `.flac` (24-bit and float input give wav24/flac24,
///   float WAV stays float).
/// - An unknown or missing extension, or `-` (stdout) without `--format`, is bad usage (exit 64).
/// - A combination the format cannot hold (Opus at 44.1 kHz, MP3 with six channels) is bad usage too, checked
///   before any rendering or processing (``check(_:output:sampleRate:channels:keeping:)``).
enum OutputFormat {
    static let names = EncodeFormat.allCases.map(\.rawValue)
    static let extensions = ".wav, .flac, .ogg, .opus or .mp3"

    // MARK: - Encoder quality

    /// The lossy encoders' quality when `--quality` is not given: Vorbis q6 and about 160 kb/s MP3, where a
    /// listener no longer tells a bell or an ambient bed from its source.
    static let defaultQuality = 0.6

    /// `--quality Q`, declared once for every command that encodes (`convert`, `render`).
    static let qualityOption = Option<Double>(
        "quality", valueName: "Q", range: 0...1, default: defaultQuality,
        help: "Ogg/Opus/MP3 encoder quality, 0 the smallest, 1 the best.")

    /// `--quality`, when given.
    ///
    /// - Throws: `UsageError` (exit 64) for a value that is not a number in 0...1.
    static func quality(_ args: ParsedArguments) throws -> Double? { try args.value(of: qualityOption) }

    /// Warns on stderr that `quality` is ignored, when it was given for a lossless `format`.
    static func warnIfIgnored(quality: Double?, format: EncodeFormat) {
        if quality != nil && !format.isLossy {
            Terminal.err("Warning: --quality applies to ogg, opus and mp3 only; ignored for \(format.rawValue)")
        }
    }

    /// `--format F` (render and convert): one of the encoders, checked while the line is parsed.
    static let formatOption = Option<EncodeFormat>(
        .value("format", valueName: "FORMAT", help: "The format to write.", choices: names),
        convert: { raw in
            guard let format = EncodeFormat(rawValue: raw) else {
                throw UsageError("--format: '\(raw)' is not one of \(names.joined(separator: ", "))", help: formatHelp)
            }
            return format
        })

    /// The `Help:` line of a usage error about the format.
    static let formatHelp = "--format <format>  \(names.joined(separator: "|"))"

    /// The format to write `output` in.
    ///
    /// - Parameters:
    ///   - explicit: the `--format` value, if given.
    ///   - input: the file being converted, whose bit depth `.wav` and `.flac` keep (`nil` for a render).
    /// - Throws: `UsageError` (exit 64) naming OUT and the formats.
    static func choose(output: String, explicit: EncodeFormat?, input: AudioFileInfo? = nil) throws -> EncodeFormat {
        let help = formatHelp
        let named = StandardStream.isStandard(output) ? nil : EncodeFormat.inferred(fromPath: output)
        if let format = explicit {
            if let named, named.container != format.container {
                throw UsageError(
                    "\(output) is a .\(named.container) name but --format is \(format.rawValue); rename OUT or drop --format"
                )
            }
            return format
        }
        if StandardStream.isStandard(output) {
            throw UsageError(
                "writing to standard output ('-') needs --format: there is no extension to go by", help: help)
        }
        guard let named else {
            throw UsageError(
                "cannot tell the format from '\(output)'; use a \(extensions) name or --format", help: help)
        }
        return input.map { named.keepingDepth(of: $0) } ?? named
    }

    /// The format OUT's extension names, for the commands without `--format` (`bells trim|normalize`,
    /// `loops bake`), keeping `input`'s bit depth when it is given.
    ///
    /// - Throws: `UsageError` (exit 64) naming OUT and the extensions.
    static func inferred(output: String, input: AudioFileInfo? = nil) throws -> EncodeFormat {
        guard let named = EncodeFormat.inferred(fromPath: output) else {
            throw UsageError("\(output): unknown extension; use a \(extensions) name")
        }
        return input.map { named.keepingDepth(of: $0) } ?? named
    }

    /// Refuses (exit 64) a format that cannot hold `sampleRate` and `channels`, naming OUT and what to change.
    ///
    /// - Parameter keeping: the input, for a command that keeps its rate and channels (`bells trim`,
    ///   `loops bake`): the advice is then to convert it first, since the command has no `--rate`. `nil` for
    ///   `render` and `convert`, whose `--rate` and `--channels` change them.
    static func check(
        _ format: EncodeFormat, output: String, sampleRate: SampleRate, channels: Int, keeping input: String? = nil
    ) throws {
        guard let limit = format.limit(sampleRate: sampleRate, channels: channels) else { return }
        let change =
            limit.sampleRate.map { (option: "--rate \($0)", to: "to \($0) Hz") }
            ?? limit.channels.map { (option: "--channels \($0)", to: "to \($0) channels") }
        guard let change else { throw UsageError("\(output): \(limit.reason)") }
        guard let input else { throw UsageError("\(output): \(limit.reason); add \(change.option)") }
        throw UsageError(
            "\(output): \(limit.reason); write another format, or convert \(input) \(change.to) first "
                + "(enso convert \(input) OUT \(change.option))")
    }
}

extension EncodeFormat {
    /// This format at `input`'s bit depth, for `.wav` and `.flac`: 24-bit and float input give wav24/flac24,
    /// float WAV stays float; 16-bit input and the lossy formats are unchanged.
    func keepingDepth(of input: AudioFileInfo) -> EncodeFormat {
        let deep = ["PCM_24", "PCM_32", "FLOAT", "DOUBLE"].contains(input.subtype)
        let float = ["FLOAT", "DOUBLE"].contains(input.subtype)
        switch self {
        case .wav16: return float ? .wavf : deep ? .wav24 : .wav16
        case .flac: return deep ? .flac24 : .flac
        default: return self
        }
    }
}

extension EncodeFormat {
    /// The container, as its usual extension (`wav24` → `wav`): what OUT's name must agree with.
    var container: String {
        switch self {
        case .wav16, .wav24, .wavf: "wav"
        case .flac, .flac24: "flac"
        case .ogg: "ogg"
        case .opus: "opus"
        case .mp3: "mp3"
        }
    }
}
