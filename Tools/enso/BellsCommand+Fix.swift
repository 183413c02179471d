import AssetPipeline
import AudioCore
import AudioFile
import CLISupport
import FileBatch
import Foundation

/// `enso bells fix PATH... --out DIR`: each candidate's own fixable defects mended in one go, written into DIR.
extension BellsCommand {
    static let fix = Command(
        name: "fix",
        abstract: "Mend each candidate's fixable defects (channels, trim, DC, loudness) and write it into a folder.",
        discussion: """
            Each file is auditioned; a fix candidate gets the mends its own defects name: the channel mend of a
            channel defect first (invert-channel or use-channel, as 'enso convert'), then trim (pre-roll cut to
            10 ms and DC removed) for leading-silence and dc-offset, normalize (trim, then the loudness target,
            true peak at most -1 dBTP; a bell too peaky for the target is made as loud as it can be under that
            peak, and says so) for too-quiet, too-loud and true-peak, or when the sound the other mends leave
            shows one of them (removing DC can lift the true peak over -1 dBTP). The target is --target, else the
            pack's (--pack DIR, or the pack whose folder holds the current one), else -20 LUFS. Each file is
            written atomically to DIR under its own name (WAV and FLAC at 24 bits); a file with nothing to fix,
            or a rejected one, is not written and says why. --json prints one row per file with the command
            that does the same to that file alone.
            """,
        arguments: [ArgumentSpec("path", help: "Bell files or directories.", variadic: true)],
        options: [
            BellsOptions.out.spec,
            BellsOptions.target.help("Loudness target of a normalize.", defaultDescription: "see above").spec,
            BellsOptions.pack.help("Normalise to the target of the pack in DIR.").spec,
            BellsOptions.noPack.help("Ignore the pack whose folder holds the current one.").spec,
            BellsOptions.json.help("Print one JSON row per file.").spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Every fixable file written."),
            ExitCodeMeaning(.failure, "A file could not be fixed (a reject, or a mend failed)."),
            ExitCodeMeaning(.inputError, "A file could not be read or written."),
            ExitCodeMeaning(
                .usage, "Bad usage (no --out, two inputs with one name, an input that is its own output)."),
        ] + WriteInterruption.exitCodes,
        run: { args, _ in try runFix(args) })

    /// One file's outcome (`--json`).
    struct FixRow: Encodable {
        enum Status: String, Encodable {
            /// Mended and written to `output`.
            case fixed
            /// Nothing to mend (a keep or a listen): not written.
            case unchanged
            /// A reject (its defects spoil the recording) or a mend that failed: not written.
            case notFixed = "not-fixed"
            /// It could not be read, or its output could not be written.
            case error
        }
        var file: String
        @Nullable var output: String?
        var status: Status
        /// The verdict of its audition before the mends.
        var verdict: String
        /// The mends applied (`invert-channel`, `use-channel`, `trim`, `normalize`), in the order done.
        var mends: [String]
        /// What was done, or why not, in words.
        var message: String
        /// The single-file command that does the same to this file (`null` when nothing was written).
        @Nullable var command: String?
        @Nullable var error: RowError?
    }

    /// The mend a fixable defect asks for: `normalize` (which trims first) for the loudness defects, `trim` for
    /// pre-roll and DC. One command per file: a normalize covers a trim.
    static func mend(for defects: [BellDefect]) -> String? {
        let fixes = Set(defects.compactMap(\.fixVerb))
        if fixes.contains("normalize") { return "normalize" }
        return fixes.contains("trim") ? "trim" : nil
    }

    /// The channel mend a `channel` defect's own `fix` names (``BellDefectRules``: `--invert-channel N` or
    /// `--use-channel N`, 1-based), as the `enso convert` option and its 0-based channel; nil when there is none.
    static func channelMend(for defects: [BellDefect]) -> (option: String, channel: Int)? {
        for d in defects where d.kind == .channel && d.severity == .fixable {
            let words = (d.fix ?? "").split(separator: " ").map(String.init)
            for option in ["--invert-channel", "--use-channel"] {
                if let i = words.firstIndex(of: option), i + 1 < words.count, let n = Int(words[i + 1]), n >= 1 {
                    return (option, n - 1)
                }
            }
        }
        return nil
    }

    static func runFix(_ args: ParsedArguments) throws -> ExitCode {
        WriteInterruption.install()
        guard !args.positionals.isEmpty else { throw UsageError("give at least one file or directory") }
        guard let given = try args.value(of: BellsOptions.out) else {
            throw UsageError("give the folder to write into with --out DIR")
        }
        // `fx/` and `fx` are one folder: the paths written under it have one slash (`fx/NAME`, not `fx//NAME`).
        var out = given
        while out.count > 1 && out.hasSuffix("/") { out.removeLast() }
        if args.positionals.contains("-") {
            throw UsageError("bells fix reads files, not standard input ('-'): each result is written under its name")
        }
        let (target, targetWhy) = try fixTarget(args)
        let files = BatchFile.expand(args.positionals).map(\.path)
        var names: [String: String] = [:]
        for f in files {
            let name = (f as NSString).lastPathComponent
            if let other = names[name], other != f {
                throw UsageError("\(other) and \(f) would both be written to \(out)/\(name): fix them in two runs")
            }
            names[name] = f
            try DistinctOutput.check(input: f, output: out + "/" + name)
        }
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw CommandFailure(
                "\(out): cannot make the folder: \(error.localizedDescription)", exitCode: .inputError,
                code: ErrorKind.failure.rawValue, file: out)
        }
        let bar = ProgressBar(total: files.count, label: "fixing")
        let rows = files.map { file -> FixRow in
            defer { bar.advance(item: (file as NSString).lastPathComponent) }
            return fixOne(file, into: out, target: target)
        }
        bar.finish()
        if args[BellsOptions.json] {
            try JSONOutput.print(rows)
        } else {
            if rows.contains(where: { $0.mends.contains("normalize") }) { Terminal.err(targetWhy) }
            var t = TextTable(headers: ["FILE", "RESULT", "MENDS", "WHY"], alignments: [.left, .left, .left, .left])
            for r in rows {
                t.append([r.file, r.status.rawValue, r.mends.isEmpty ? "-" : r.mends.joined(separator: ","), r.message])
            }
            let fixed = rows.filter { $0.status == .fixed }.count
            Terminal.out(t.render() + "\n\(fixed) of \(rows.count) written to \(out)")
        }
        if rows.contains(where: { $0.status == .error }) { return .inputError }
        return rows.contains(where: { $0.status == .notFixed }) ? .failure : .success
    }

    /// The loudness target of a normalize, and where it came from in words.
    static func fixTarget(_ args: ParsedArguments) throws -> (Double, String) {
        if let t = try args.value(of: BellsOptions.target) {
            return (t, "Normalised to --target \(String(format: "%g", t)) LUFS")
        }
        if let pack = try AuditionPack.chosen(args) {
            let t = AssetPack.Kind.bell.loudnessTarget
            return (t, "Normalised to the pack's \(String(format: "%g", t)) LUFS (\(pack.directory))")
        }
        let t = BellTrim.defaultTarget
        return (
            t,
            "Normalised to the default \(String(format: "%g", t)) LUFS: no pack here (--pack DIR for a pack's \(String(format: "%g", AssetPack.Kind.bell.loudnessTarget)) LUFS, or --target)"
        )
    }

    /// The loudness defects (their mend: normalize) that `mended`, the sound as the mends it asked for leave it (its
    /// channel mended, then trimmed when `trimmed`), shows, in words; nil when it shows none. Removing a DC offset
    /// moves the peaks (the offset held the louder side of a lopsided waveform down: its true peak can rise over the
    /// limit), and taking the live channel of a stereo file with a dead one doubles the level of its mix.
    static func revealedByMends(_ mended: AudioBuffer, trimmed trim: Bool, file: String) -> String? {
        let again = BellAudition.audition(mended, file: file, profile: .temple)
        let loudness = again.defectDetails.filter { mend(for: [$0]) == "normalize" }
        guard !loudness.isEmpty else { return nil }
        let what = loudness.map(\.kind.rawValue).joined(separator: ", ")
        return "\(what) once \(trim ? "trimmed (DC removed)" : "the channel was mended"): \(loudness[0].evidence)"
    }

    /// Auditions `file`, applies its mend and writes it to `out`/its name.
    static func fixOne(_ file: String, into out: String, target: Double) -> FixRow {
        let output = out + "/" + (file as NSString).lastPathComponent
        var row = FixRow(
            file: file, output: nil, status: .unchanged, verdict: "error", mends: [], message: "", command: nil,
            error: nil)
        let decoded: DecodedAudio
        do {
            try BellAudition.checkLength(file)
            decoded = try AudioFileDecoder.decodeTolerant(path: file)
        } catch {
            row.status = .error
            row.message = error.message
            row.error = RowError(code: error.kind.rawValue, message: error.message, file: file)
            return row
        }
        let result = BellAudition.audition(
            decoded.buffer, file: file, profile: .temple, truncatedStream: decoded.truncated, normalizeTarget: target)
        row.verdict = result.verdict.rawValue
        switch result.verdict {
        case .error:
            row.status = .error
            row.message = result.reasons.first ?? "cannot audition"
            row.error = result.error
            return row
        case .reject:
            row.status = .notFixed
            // The first reason of a reject by a defect already says so ("reject truncated-tail: …").
            let why = result.reasons.first ?? ""
            row.message = (why.hasPrefix("reject") ? why : "reject: " + why) + " (no command mends this)"
            return row
        case .keep, .listen:
            row.message = "nothing to mend (\(result.verdict.rawValue))"
            return row
        case .fix: break
        }
        let channel = channelMend(for: result.defectDetails)
        var mend = mend(for: result.defectDetails)
        guard mend != nil || channel != nil else {
            row.message = "nothing to mend"
            return row
        }
        do {
            var format = try OutputFormat.inferred(output: output)
            if format == .wav16 { format = .wav24 }
            if format == .flac { format = .flac24 }
            // The channel first (as `enso convert` would), so the loudness is measured on the mended mix.
            var buffer = decoded.buffer
            var words: [String] = []
            if let channel {
                buffer =
                    channel.option == "--invert-channel"
                    ? ChannelMapper.invertChannel(buffer, channel.channel)
                    : ChannelMapper.useChannel(buffer, channel.channel)
                row.mends.append(String(channel.option.dropFirst(2)))
                words.append("\(channel.option.dropFirst(2)) \(channel.channel + 1)")
            }
            // Trimmed once: what the audition below reads is what is written when nothing more is revealed.
            let trimmed = mend == "trim" ? try BellTrim.trim(buffer) : nil
            if mend != "normalize",
                let revealed = revealedByMends(trimmed?.0 ?? buffer, trimmed: trimmed != nil, file: file)
            {
                mend = "normalize"
                words.append("normalized: \(revealed)")
            }
            var commands: [[String]] = []
            if let channel {
                commands.append(
                    [
                        "enso", "convert", file, mend == nil ? output : output + ".channel.wav", channel.option,
                        String(channel.channel + 1),
                    ])
            }
            if let mend {
                // A trim was done above; a normalize (asked for, or revealed) trims the channel-mended sound itself.
                let (mended, report) =
                    if let trimmed, mend == "trim" {
                        trimmed
                    } else {
                        try BellTrim.normalize(
                            buffer, target: target, maxTruePeak: BellTrim.defaultMaxTruePeak, loudestUnderPeak: true)
                    }
                buffer = mended
                row.mends += mend == "normalize" ? ["trim", "normalize"] : ["trim"]
                // A peaky bell stops at the loudest level under the true-peak limit: its command says that level.
                let reached = BellTrim.commandTarget(report, target: target)
                let capped = mend == "normalize" && reached != target
                let args = mend == "normalize" ? ["--target", String(format: "%g", reached)] : []
                commands.append(
                    ["enso", "bells", mend] + args + [channel == nil ? file : output + ".channel.wav", output])
                // What the trim took off: the pre-roll, the DC offset the audition found; neither when it found none.
                let removed =
                    (report.removedSeconds > 0 ? [String(format: "%.3f s of pre-roll", report.removedSeconds)] : [])
                    + (result.defects.contains(.dcOffset)
                        ? DCOffsetText.removed(report.dcRemoved).map { [$0] } ?? [] : [])
                if !removed.isEmpty { words.append("removed " + removed.joined(separator: " and ")) }
                if mend == "normalize" {
                    words.append(String(format: "gain %+.2f dB to %.2f LUFS", report.gain, report.loudness ?? .nan))
                    if capped {
                        words.append(
                            String(
                                format: "the loudest under %.0f dBTP (the target %g LUFS would clip)",
                                BellTrim.defaultMaxTruePeak, target))
                    }
                }
            }
            if channel != nil && mend != nil { commands.append(["rm", output + ".channel.wav"]) }
            try AudioFileEncoder.write(buffer, to: output, options: EncodeOptions(format: format))
            row.status = .fixed
            row.output = output
            row.command = commands.map { $0.map(BellDefect.shellWord).joined(separator: " ") }.joined(separator: " && ")
            row.message =
                words.joined(separator: ", ") + " (" + result.defects.map(\.rawValue).joined(separator: ", ") + ")"
        } catch let error as EnsoError {
            let writing = error.kind == .failure || error.kind == .permission
            row.status = writing ? .error : .notFixed
            row.message = error.message
            if writing { row.error = RowError(code: error.kind.rawValue, message: error.message, file: output) }
        } catch {
            row.status = .error
            row.message = "\(error)"
            row.error = RowError(code: ErrorKind.failure.rawValue, message: "\(error)", file: output)
        }
        return row
    }
}
