import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import CLISupport
import Foundation

extension LoopsCommand {
    /// `--curve`: one of the crossfade curves, else chosen from the material.
    static let curve = Option<String>(
        "curve", valueName: "CURVE", choices: CrossfadeCurve.allCases.map(\.rawValue),
        help:
            "equal-power or equal-gain, used as given (default: from the correlation, gains scaled to keep the level)."
    )

    static let bake = Command(
        name: "bake",
        abstract: "Make a file that loops seamlessly by itself.",
        discussion: """
            Trims IN to its loop (embedded or sidecar, mended as `loops find` mends it when its seam fails and a small
            move of its end makes it pass; or the first of the five best `loops find` finds whose baked seam does not
            fail) and crossfades the material after the loop end into the head, equal-power for uncorrelated
            material, equal-gain for correlated.
            A file that already loops cleanly as a whole (no --crossfade given, its length within the limits) is
            written unchanged, whole; one that fails only for a stray frame or two at its ends is written without
            them, with no crossfade.
            --min-length and --max-length constrain the search (as in `loops find`); they do not apply to an
            embedded or sidecar loop.
            OUT's extension picks the format (.wav and .flac at IN's bit depth, .ogg, .opus, .mp3); loop points go into
            the WAV smpl chunk or OUT.loop.json. The result is verified. Where the crossfade lifts samples over full
            scale and OUT is 16 or 24 bits, they are clipped and a warning says how many, and the `enso convert
            --gain` that keeps them.
            """,
        arguments: [
            ArgumentSpec("in", help: "The source audio file."), ArgumentSpec("out", help: "The loop to write."),
        ],
        options: [
            LoopsOptions.crossfade.help("Crossfade length (default: from the material).").spec,
            curve.spec,
            LoopsOptions.freeStart.help("When searching for the loop, let it start anywhere in the sustain.").spec,
            LoopsOptions.minLength.help("When searching, the shortest loop (default 1 s, or half of --max-length).")
                .spec,
            LoopsOptions.maxLength.help("When searching, the longest loop (default: the file).").spec,
            LoopsOptions.json.help("Print what was done as JSON.").spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Baked, and the seam passes or warns (as `loops verify` without --strict)."),
            ExitCodeMeaning(.failure, "The baked seam fails, no loop meets the limits or writing failed."),
            ExitCodeMeaning(.inputError, "IN could not be read."),
            ExitCodeMeaning(
                .usage, "Bad usage (OUT is IN itself included, or a format that cannot hold IN's rate or channels)."),
        ] + WriteInterruption.exitCodes,
        run: { args, _ in try runBake(args) })

    struct BakeJSON: Codable {
        var file: String
        var output: String
        var source: LoopRegion
        var loop: LoopRegion
        var crossfade: Int
        var curve: String
        var curveChosen: Bool
        var correlation: Double
        var verdict: LoopVerifier.Verdict
        var reasons: [String]
        /// The DC offset removed from each channel (full scale = 1).
        var dcRemoved: [Double]
    }

    /// A removed DC offset as `--json` reports it: to 10⁻⁵ of full scale, and a negative zero as 0 (it printed "-0").
    static func offsetForJSON(_ offset: Double) -> Double { (offset * 100_000).rounded() / 100_000 + 0 }

    /// How many of the search's candidates `bake` tries, best first, until one bakes into a seam that does not fail.
    static let bakeCandidates = 5

    static func runBake(_ args: ParsedArguments) throws -> ExitCode {
        WriteInterruption.install()
        guard args.positionals.count == 2 else { throw UsageError("give IN and OUT") }
        let (input, output) = (args.positionals[0], args.positionals[1])
        try refuseStandardOutput(output, command: "loops bake")
        try DistinctOutput.check(input: input, output: output)
        _ = try OutputFormat.inferred(output: output)
        let curve = try args.value(of: curve).flatMap(
            CrossfadeCurve.init(rawValue:))
        try checkLoopOptions(args)
        let stdin = try StdioInput([input])
        let decoded = try stdin.decodeInput(input)
        let format = try OutputFormat.inferred(output: output, input: decoded.info)
        try OutputFormat.check(
            format, output: output, sampleRate: decoded.buffer.sampleRate, channels: decoded.buffer.channels,
            keeping: input)
        let rate = decoded.buffer.sampleRate.hertz
        let crossfade = try frames(args, LoopsOptions.crossfade, rate: rate)
        if let crossfade, crossfade < 1 { throw UsageError("--crossfade must be at least one frame") }
        let minLength = try frames(args, LoopsOptions.minLength, rate: rate)
        let maxLength = try frames(args, LoopsOptions.maxLength, rate: rate)
        let found: (region: LoopRegion, source: LoopVerifier.LoopSource)
        do {
            found = try LoopVerifier.loopRegion(of: decoded, path: input)
        } catch {
            throw CommandFailure(error, file: input, exitCode: .inputError)
        }
        // A file that already loops cleanly as a whole is kept whole: a search would shorten it for nothing.
        let frameCount = decoded.buffer.frameCount
        if found.source == .wholeFile, crossfade == nil, (minLength ?? 0) <= frameCount,
            (maxLength ?? frameCount) >= frameCount,
            SeamRules.passes(decoded.buffer, loop: 0..<frameCount).seamPasses
        {
            return try writeUnchanged(
                decoded.buffer, cues: decoded.info.cues, input: input, output: output, format: format,
                json: args[LoopsOptions.json])
        }
        // The loops to bake, best first: the embedded or sidecar loop (the designer's, the only one), or the search's
        // candidates (up to 5).
        var regions = [found.region]
        // A designer's loop that fails and that a small move of its end mends (see `loops find`) is baked mended. One
        // that only warns is baked as the designer set it, as `find` ranks it and `verify` leaves it.
        let mend = LoopFinder.mended(decoded.buffer, region: found.region, source: found.source)
        // A whole file that fails only for stray frames at its ends is written without them, as it is: a crossfade
        // would take a tenth of a second or more off it for a sample's click.
        if let mend, found.source == .wholeFile, crossfade == nil, (minLength ?? 0) <= Int(mend.end - mend.start),
            (maxLength ?? frameCount) >= Int(mend.end - mend.start)
        {
            return try writeUnchanged(
                decoded.buffer, cues: decoded.info.cues, input: input, output: output, format: format,
                json: args[LoopsOptions.json], stray: mend)
        }
        let mended = found.source == .wholeFile ? nil : mend?.region
        if let mended { regions = [mended, found.region] }
        do {
            if found.source == .wholeFile {
                let options = LoopFinder.Options(
                    minLength: minLength, maxLength: maxLength, crossfade: crossfade ?? rate / 10,
                    startMode: args[LoopsOptions.freeStart] ? .free : .keep, count: bakeCandidates)
                let result = try LoopFinder.find(decoded.buffer, existing: nil, options: options)
                if !result.wholeFileLoops, !result.candidates.isEmpty {
                    regions = result.candidates.map(\.region)
                }
            }
        } catch {
            // The file was read; no loop meets the constraints in it.
            throw CommandFailure("\(input): \(error.message)", code: error.name, file: input)
        }
        // The first whose baked seam does not fail (checked in memory; the written file is verified below).
        let baked: LoopBaker.Result
        let used: Int
        do {
            (baked, used) = try LoopBaker.bakeFirst(
                decoded.buffer, regions: regions, crossfade: crossfade, curve: curve)
        } catch {
            throw CommandFailure("\(input): \(error.message)", code: error.name, file: input)
        }
        // The cue points inside the baked loop keep their place in it; those outside it are gone with the audio.
        let inside = decoded.info.cues.filter { $0.position >= baked.source.start && $0.position < baked.source.end }
        if inside.count < decoded.info.cues.count {
            Terminal.err(
                "Warning: \(input): \(decoded.info.cues.count - inside.count) cue point(s) outside the baked loop "
                    + "\(baked.source.start)..<\(baked.source.end) dropped")
        }
        let cues = inside.map { CuePoint(id: $0.id, position: $0.position - baked.source.start, name: $0.name) }
        try writeLoop(baked.buffer, loop: baked.loop, cues: cues, to: output, format: format)
        if let clipped = ClippedSamples(baked.buffer, format: format) {
            // Parts that do not cancel add up in a crossfade: an equal-power one lifts them by up to 3 dB.
            Terminal.err(
                "Warning: " + clipped.describe(output: output, format: format)
                    + " (the crossfade adds two parts of \(input) that do not cancel); lowering \(input) first keeps "
                    + clipped.them + ": enso convert \(input) QUIETER.wav"
                    + String(format: " --gain %.1f", clipped.keepingGain()))
        }
        let check = LoopVerifier.verify(path: output)
        let json = BakeJSON(
            file: input, output: output, source: baked.source,
            loop: baked.loop, crossfade: baked.crossfade,
            curve: baked.curve.rawValue, curveChosen: baked.curveChosen,
            correlation: (baked.correlation * 10_000).rounded() / 10_000, verdict: check.verdict,
            reasons: check.reasons,
            dcRemoved: baked.dcRemoved.map(offsetForJSON))
        let text =
            String(
                format: "%@: loop %lld..<%lld (%.3f s), %@ crossfade of %d frames (%@, correlation %.2f) -> %@: %@",
                input, baked.source.start, baked.source.end, Double(baked.loop.length) / Double(rate),
                baked.curve.rawValue, baked.crossfade, baked.curveChosen ? "chosen" : "as asked", baked.correlation,
                output, check.verdict.rawValue)
            + bakeNote(used: used, mended: mended, own: found)
        return try report(json, text: text, asJSON: args[LoopsOptions.json])
    }

    /// What the text says after the verdict about the loop baked when it is not simply the first one: the designer's
    /// loop mended (or as it is, when mended it baked into a seam that fails), or a later search candidate.
    static func bakeNote(used: Int, mended: LoopRegion?, own: (region: LoopRegion, source: LoopVerifier.LoopSource))
        -> String
    {
        let loop = "the \(own.source.rawValue) loop \(own.region.start)..<\(own.region.end)"
        if let mended {
            let moved = mended.end - own.region.end
            return used == 0
                ? " (\(loop) fails; its end moved \(String(format: "%+lld", moved)) frames mends it)"
                : " (\(loop) as it is: mended, it baked into a seam that fails)"
        }
        guard used > 0 else { return "" }
        let before = used == 1 ? "candidate 1 baked" : "candidates 1–\(used) baked"
        return " (baked from the search's candidate \(used + 1): \(before) into a seam that fails)"
    }

    /// Prints what was baked (the JSON, or `text` and the verdict's reasons) and returns the verdict's exit code.
    static func report(_ json: BakeJSON, text: String, asJSON: Bool) throws -> ExitCode {
        if asJSON {
            try JSONOutput.print(json)
        } else {
            Terminal.out(text)
            for reason in json.reasons { Terminal.out("  \(reason)") }
        }
        return json.verdict == .pass || json.verdict == .warn ? .success : .failure
    }

    /// Writes `buffer` to `output` (atomically, by the encoder) with `loop` in the WAV smpl chunk or a sidecar, and
    /// `cues` in the WAV cue chunk (a warning says a format without one drops them).
    static func writeLoop(
        _ buffer: AudioBuffer, loop: LoopRegion, cues: [CuePoint], to output: String, format: EncodeFormat
    ) throws {
        if !cues.isEmpty && !format.carriesCues {
            Terminal.err("Warning: \(format.rawValue) cannot store cue points; \(cues.count) dropped (wav keeps them)")
        }
        do {
            let options = EncodeOptions(
                format: format, loops: format.carriesLoops ? [loop] : [], cues: format.carriesCues ? cues : [])
            try AudioFileEncoder.write(buffer, to: output, options: options)
            if !format.carriesLoops {
                try LoopSidecar(
                    file: (output as NSString).lastPathComponent, sampleRate: buffer.sampleRate.hertz, frames: loop.end,
                    loop: loop
                ).write(for: output)
            }
        } catch {
            // A file error names its own path; a pipeline error (the sidecar) concerns OUT.
            throw CommandFailure(error, file: error.detail != nil ? nil : output, exitCode: .failure)
        }
    }

    /// The whole of IN already passes `verify`: OUT gets it unchanged (in OUT's format) with the loop `0..<frames`,
    /// no crossfade (`"crossfade": 0, "curve": "none"` in the JSON), and is verified like any baked loop.
    /// Writes the whole file, or (`stray`) the whole file less the stray frames at its ends that `LoopFinder`'s mend
    /// names, as it is: no crossfade, only a DC offset removed; the cues inside it keep their place in it.
    static func writeUnchanged(
        _ buffer: AudioBuffer, cues: [CuePoint], input: String, output: String, format: EncodeFormat, json: Bool,
        stray: LoopFinder.Candidate? = nil
    ) throws -> ExitCode {
        let source = stray?.region ?? LoopRegion(start: 0, end: FramePosition(buffer.frameCount))
        let kept = Int(source.start)..<Int(source.end)
        let whole = LoopRegion(start: 0, end: FramePosition(kept.count))
        let (centred, offsets) = LoopBaker.removingDC(stray == nil ? buffer : buffer.slice(frames: kept))
        let inside = cues.filter { kept.contains(Int($0.position)) }
        try writeLoop(
            centred, loop: whole,
            cues: inside.map { CuePoint(id: $0.id, position: $0.position - source.start, name: $0.name) },
            to: output, format: format)
        let check = LoopVerifier.verify(path: output)
        let record = BakeJSON(
            file: input, output: output, source: source, loop: whole, crossfade: 0, curve: "none", curveChosen: false,
            correlation: 1, verdict: check.verdict, reasons: check.reasons,
            dcRemoved: offsets.map(offsetForJSON))
        let removed = DCOffsetText.removed(offsets).map { " but for " + $0 + ", removed," } ?? ""
        let text =
            stray.map {
                String(
                    format: "%@: %@ (%.3f s): written so%@ with loop 0..<%lld -> %@: %@", input, $0.reasons[0],
                    Double(kept.count) / Double(buffer.sampleRate.hertz), removed, whole.end, output,
                    check.verdict.rawValue)
            }
            ?? String(
                format:
                    "%@: the whole file already loops cleanly (%.3f s): written unchanged%@ with loop 0..<%lld -> %@: %@",
                input, buffer.duration, removed, whole.end, output, check.verdict.rawValue)
        return try report(record, text: text, asJSON: json)
    }
}
