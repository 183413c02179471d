import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import CLISupport
import Foundation
import SystemIO

/// `enso convert IN OUT`: change format, sample rate or channel count, keeping loop points.
enum ConvertCommand {
    static let formats = OutputFormat.names

    static let command = Command(
        name: "convert",
        abstract: "Convert an audio file to another format, sample rate or channel count, keeping loop points.",
        discussion: """
            The format comes from --format, else from OUT's extension: .wav and .flac keep the input's
            bit depth (24-bit and float input give wav24/flac24, float WAV stays float), .ogg/.oga is Ogg
            Vorbis, .opus is Opus, .mp3 is MP3; another extension is bad usage, and so is a rate or channel
            count the format cannot hold (Opus at 44.1 kHz: add --rate 48000), refused before any work.
            IN - reads standard input; OUT - writes standard output (--format required), the result line
            going to stderr. The loop is IN's
            embedded loop (WAV smpl, AIFF) or its sidecar IN.loop.json. WAV stores loops in its smpl
            chunk; other formats get the first loop in a sidecar OUT.loop.json (other loops are reported
            as dropped). Resampling uses libsamplerate; the loop is converted on its own in periodic mode,
            so a seamless loop stays seamless at the new rate (its length becomes round(L x ratio) frames),
            and --loop does the same for a file without loop points that loops as a whole (without it, a warning
            says when resampling such a file as a one-shot cost it its seam). A loop written to
            ogg or opus is verified, with a warning when lossy coding cost it its seam. 16-bit output is
            TPDF-dithered (digital silence stays exactly 0). --gain changes the level last, after any
            resampling and channel mapping. Samples beyond full scale (a resampler's overshoot at a full-scale
            peak, a 5.1 fold, a float IN over 1.0) are clipped by 16- and 24-bit formats: a warning says how many
            and the gain that would keep them; wavf keeps them as they are. The output is written atomically: a
            failed conversion leaves no partial file.

            --use-channel and --invert-channel mend what `enso bells audition` calls a `channel` defect (its
            `fix` names the one to use): they act on IN's channels before any --channels mapping, and a
            channel IN does not have is bad usage.

            A damaged IN (an Ogg without its last page, a FLAC, WAV or tagged MP3 cut short) is refused;
            --salvage keeps what decodes, as sox and ffmpeg do, with a warning naming IN and the frames kept.
            """,
        arguments: [
            ArgumentSpec("in", help: "The audio file to read (any format libsndfile reads); - for standard input."),
            ArgumentSpec("out", help: "The file to write; - for standard output (with --format)."),
        ],
        options: [
            rate.spec, channels.spec, useChannel.spec, invertChannel.spec, gain.spec,
            format.spec,
            OutputFormat.qualityOption.spec,
            resampler.spec, loop.spec, salvage.spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Converted."), ExitCodeMeaning(.failure, "The output could not be written."),
            ExitCodeMeaning(
                .inputError,
                "The input could not be read (or is damaged without --salvage, holds a NaN or infinite sample, or a loop that does not fit)."
            ),
            ExitCodeMeaning(
                .usage,
                "Bad usage (OUT is IN itself, an unknown extension, a format that cannot hold the rate or channels included)."
            ),
        ] + WriteInterruption.exitCodes,
        run: { args, _ in try run(args) })

    /// The rates libsndfile and the resampler take, 1 kHz to 768 kHz.
    static let rate = Option<Int>("rate", valueName: "HZ", range: 1000...768_000, help: "Resample to this rate.")
    static let channels = Option<Int>(
        "channels", range: ChannelCount.validRange, help: "Output channel count; 5.1 folds by ITU-R BS.775.")
    static let useChannel = Option<Int>(
        "use-channel", range: ChannelCount.validRange,
        help: "Copy IN's channel N (1 = left) to every channel: the live channel replaces a dead one.")
    static let invertChannel = Option<Int>(
        "invert-channel", range: ChannelCount.validRange,
        help: "Invert the polarity of IN's channel N (1 = left): out-of-phase channels come back in phase.")
    /// 96 dB is 16 bits' whole range; past +24 dB every file with sound clips.
    static let gain = Option<Double>(
        "gain", valueName: "DB", range: -96...24, help: "Change the level by DB decibels (-6 halves it), applied last.")
    static let resampler = Option<String>(
        "resampler", valueName: "QUALITY", choices: ResamplerQuality.allCases.map(\.rawValue),
        help: "Resampler quality: best (default), medium or fastest.")
    static let format = OutputFormat.formatOption.help("Output format: \(formats.joined(separator: "|")).")
    static let loop = Flag("loop", help: "IN loops as a whole (no loop points): keep its seam when resampling.")
    static let salvage = Flag(
        "salvage", help: "Keep what decodes of a damaged IN (a stream cut short), with a warning.")

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        WriteInterruption.install()
        guard args.positionals.count == 2 else {
            throw UsageError("convert takes exactly two files, IN and OUT (got \(args.positionals.count))")
        }
        let input = args.positionals[0]
        let output = args.positionals[1]
        if !StandardStream.isStandard(input) && !StandardStream.isStandard(output) {
            try DistinctOutput.check(input: input, output: output)
        }
        let rate = try args.value(of: Self.rate).map { SampleRate(checked: $0) }
        let channels = try args.value(of: Self.channels).map { ChannelCount(checked: $0) }
        let useChannel = try args.value(of: Self.useChannel)
        let invertChannel = try args.value(of: Self.invertChannel)
        let gain = try args.value(of: Self.gain)
        let quality = try OutputFormat.quality(args)
        let resampler =
            try args.value(of: resampler).flatMap(ResamplerQuality.init(rawValue:)) ?? .best
        // Usage first (before standard input is read), then the format with IN's depth and what it must hold.
        _ = try OutputFormat.choose(output: output, explicit: args.value(of: Self.format))
        let stdin = try StdioInput([input])
        let header: AudioFileInfo
        do {
            // A damaged stream's header may already say so (an Ogg without its end): --salvage reads it anyway.
            let file = stdin.path(for: input)
            header =
                try args[salvage]
                ? SoundFileReader(path: file, toleratingTruncation: true).info : AudioFileDecoder.info(path: file)
        } catch {
            throw CommandFailure(stdin.renamed(error).message, exitCode: .inputError)
        }
        for (name, n) in [("use-channel", useChannel), ("invert-channel", invertChannel)] {
            if let n, n > header.channels.count {
                throw UsageError("--\(name) \(n): \(input) has \(header.channels.count) channel(s)")
            }
        }
        let format = try OutputFormat.choose(output: output, explicit: args.value(of: Self.format), input: header)
        try OutputFormat.check(
            format, output: output, sampleRate: rate ?? header.sampleRate, channels: (channels ?? header.channels).count
        )

        let decoded: DecodedAudio
        do {
            decoded = try stdin.decode(input, salvaging: args[salvage])
        } catch {
            throw CommandFailure(error.message, exitCode: .inputError)
        }
        if let note = decoded.salvageNote(file: input) { Terminal.err("Warning: \(note)") }
        OutputFormat.warnIfIgnored(quality: quality, format: format)
        // The loops to keep: the embedded ones, else the sidecar's (the first is the one players loop). A file with
        // neither is a one-shot, whatever its length: only --loop asks for the whole file as a loop.
        var loops: [LoopRegion]
        var seamless: LoopRegion?
        do {
            let path = stdin.path(for: input)
            let found = try LoopVerifier.fileLoop(of: decoded, path: path)
            loops = found?.source == .embedded ? decoded.info.loops : found.map { [$0.region] } ?? []
            seamless = loops.first
            if seamless == nil && args[loop] {
                seamless = try LoopVerifier.wholeFileLoop(frames: FrameCount(decoded.buffer.frameCount), path: path)
            }
        } catch {
            throw CommandFailure(error.message, exitCode: .inputError)
        }
        // Cue points and their labels go with the audio, moved to the new rate's frames.
        var cues = decoded.info.cues
        do {
            var buffer = decoded.buffer
            // Repairs first, on IN's own channels (the numbers the audition's fix names).
            if let n = invertChannel { buffer = ChannelMapper.invertChannel(buffer, n - 1) }
            if let n = useChannel { buffer = ChannelMapper.useChannel(buffer, n - 1) }
            // Map channels on the side where there are fewer of them, so the resampler does less work.
            if let channels, channels.count < buffer.channels { buffer = ChannelMapper.map(buffer, to: channels) }
            if let rate, rate != buffer.sampleRate {
                let ratio = rate.double / buffer.sampleRate.double
                var first: LoopRegion?
                if let seamless {
                    (buffer, first) = try Resampler.resample(
                        buffer, to: rate, quality: resampler, keepingSeamless: seamless)
                } else {
                    let whole = buffer
                    buffer = try Resampler.resample(buffer, to: rate, quality: resampler)
                    warnIfTheWholeFileSeamIsLost(whole, converted: buffer, input: input, output: output)
                }
                let frames = FramePosition(buffer.frameCount)
                loops = loops.map { $0.scaled(by: ratio) }.map {
                    LoopRegion(start: min($0.start, frames), end: min($0.end, frames))
                }.filter { $0.end > $0.start }
                if let first, !loops.isEmpty { loops[0] = first }
                cues = cues.map { $0.scaled(by: ratio) }.map {
                    var c = $0
                    c.position = min(c.position, frames)
                    return c
                }
            }
            if let channels, channels.count > buffer.channels { buffer = ChannelMapper.map(buffer, to: channels) }
            if let gain { buffer.scale(by: Float(pow(10, gain / 20))) }
            let clipped = ClippedSamples(buffer, format: format)
            var sidecar: LoopRegion?
            let destination = try StdioOutput(output, format: format)
            defer { destination.discard() }
            if !loops.isEmpty && !format.carriesLoops {
                if destination.isStandard {
                    Terminal.err(
                        "Warning: \(format.rawValue) cannot store loop points and standard output has no sidecar; the loop is dropped (wav keeps it)"
                    )
                } else {
                    sidecar = loops[0]
                    if loops.count > 1 {
                        Terminal.err(
                            "Warning: \(format.rawValue) cannot store loop points; the first goes to a sidecar, \(loops.count - 1) dropped"
                        )
                    }
                }
                loops = []
            }
            if !cues.isEmpty && !format.carriesCues {
                Terminal.err(
                    "Warning: \(format.rawValue) cannot store cue points; \(cues.count) dropped (wav keeps them)")
                cues = []
            }
            // Both or neither: the audio is written under a temporary name, the sidecar next, and only then is the
            // audio moved into place; a sidecar that cannot be written leaves OUT (and any old sidecar) as it was.
            let options = EncodeOptions(
                format: format, quality: quality ?? OutputFormat.defaultQuality, loops: loops, dither: true,
                cues: cues)
            if let sidecar {
                let staged = AtomicFile.temporaryPath(for: output)
                do { try AudioFileEncoder.write(buffer, to: staged, options: options) } catch {
                    // Name OUT, not the temporary name, in what the user reads.
                    var named = error
                    (named.path, named.message) = (output, error.message.replacingOccurrences(of: staged, with: output))
                    throw named
                }
                do {
                    try LoopSidecar(
                        file: (output as NSString).lastPathComponent, sampleRate: buffer.sampleRate.hertz,
                        frames: FrameCount(buffer.frameCount), loop: sidecar
                    ).write(for: output)
                } catch {
                    AtomicFile.abandon(staged, fd: nil)
                    throw CommandFailure("\(error.message); \(output) was not written", exitCode: .failure)
                }
                try AtomicFile.commit(staged, to: output)
            } else {
                try AudioFileEncoder.write(buffer, to: destination.path, options: options)
            }
            // A lossy codec smears a stream's first and last milliseconds (Vorbis starts from an empty overlap), so a
            // loop on the stream's edges can lose its seam in pure tones: say so rather than let it pass unseen.
            if format.isLossy, sidecar != nil || !loops.isEmpty {
                let check = LoopVerifier.verify(path: output)
                if check.verdict != .pass {
                    Terminal.err(
                        "Warning: \(output): after \(format.rawValue) encoding the loop's seam does not pass verify (\(check.verdict.rawValue)): "
                            + (check.reasons.first ?? "") + "; flac keeps it exactly")
                }
            }
            try destination.finish()
            // Said once OUT is written (a write that fails clips nothing).
            if let clipped {
                Terminal.err(
                    "Warning: " + clipped.describe(output: output, format: format)
                        + String(format: "; --gain %.1f keeps \(clipped.them)", clipped.keepingGain(given: gain ?? 0))
                        + ", wavf stores \(clipped.them) as \(clipped.count == 1 ? "it is" : "they are")")
            }
            let stored =
                (loops.isEmpty ? "" : ", loops " + loops.map { "\($0.start)..<\($0.end)" }.joined(separator: ", "))
                + (cues.isEmpty ? "" : ", \(cues.count) cue point\(cues.count == 1 ? "" : "s")")
            let side = sidecar.map { ", loop \($0.start)..<\($0.end) in \(LoopSidecar.path(for: output))" } ?? ""
            destination.report(
                "\(output): \(format.rawValue), \(buffer.sampleRate.hertz) Hz, \(buffer.channelCount), \(buffer.frameCount) frame\(buffer.frameCount == 1 ? "" : "s")\(stored)\(side)"
            )
            return .success
        } catch let e as EnsoError {
            throw CommandFailure(e.message, exitCode: .failure)
        }
    }

    /// Without loop points or `--loop`, a file is resampled as a one-shot: the filter meets silence past both
    /// ends, which costs a file that loops as a whole its seam (a dip, or a step where it carries DC). When IN's
    /// whole-file seam passes and OUT's no longer does, says so and names `--loop`, which keeps it.
    static func warnIfTheWholeFileSeamIsLost(
        _ original: AudioBuffer, converted: AudioBuffer, input: String, output: String
    ) {
        guard original.frameCount >= 2, converted.frameCount >= 2,
            SeamRules.passes(original, loop: 0..<original.frameCount).seamPasses
        else { return }
        let after = SeamRules.passes(converted, loop: 0..<converted.frameCount)
        guard
            let fault = after.metrics.first(where: {
                $0.name != .dcOffset && ($0.status == .fail || $0.status == .warn)
            })
        else { return }
        Terminal.err(
            "Warning: \(input) loops seamlessly as a whole, but resampled as a one-shot \(output)'s seam does not pass "
                + "(\(fault.note)); add --loop to keep it")
    }
}
