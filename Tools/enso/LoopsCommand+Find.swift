import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import CLISupport
import Foundation

extension LoopsCommand {
    static let find = Command(
        name: "find",
        abstract: "Find the best loop points in an audio file.",
        discussion: """
            First checks whether the file's own loop (embedded, sidecar or whole file) already loops cleanly.
            Otherwise searches for the best loops: coarse FFT cross-correlation on a decimated mono mix, then
            refinement to the exact frame. Material with an attack is looped in its sustain.
            --write stores the best loop and says whether it passes 'verify' played as it is; a joint that
            needs a crossfade (rain, drones) is made seamless by 'enso loops bake'.
            """,
        arguments: [ArgumentSpec("file", help: "The audio file.")],
        options: [
            LoopsOptions.minLength.spec, LoopsOptions.maxLength.spec, LoopsOptions.crossfade.spec,
            LoopsOptions.keepStart.spec, LoopsOptions.freeStart.spec, LoopsOptions.candidates.spec,
            LoopsOptions.json.help(
                "Print {file, wholeFileLoops, candidates: [{start, end, score, reasons}], written, writtenVerdict}."
            ).spec,
            LoopsOptions.write.spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Candidates found."),
            ExitCodeMeaning(.failure, "None found, or a write failed."),
            ExitCodeMeaning(.inputError, "The file could not be read."), .usage,
        ],
        run: { args, _ in try runFind(args) })
    struct FindJSON: Codable {
        var file: String
        var wholeFileLoops: Bool
        var candidates: [CandidateJSON]
        var written: String?
        /// What `verify` says of the written loop played as it is (no crossfade).
        var writtenVerdict: String?
    }

    struct CandidateJSON: Codable {
        var start: Int64
        var end: Int64
        var score: Double
        var reasons: [String]
    }

    static func runFind(_ args: ParsedArguments) throws -> ExitCode {
        AllocatorTuning.forBatchWork()
        guard args.positionals.count == 1 else { throw UsageError("give exactly one audio file") }
        if args[LoopsOptions.keepStart] && args[LoopsOptions.freeStart] {
            throw UsageError("--keep-start and --free-start cannot be combined")
        }
        let top = try args.valueOrDefault(of: LoopsOptions.candidates)
        try checkLoopOptions(args)
        let path = args.positionals[0]
        if StandardStream.isStandard(path) && args[LoopsOptions.write] {
            throw UsageError("--write stores the loop in the file read; '-' (standard input) is no file to write to")
        }
        let stdin = try StdioInput([path])
        let decoded = try stdin.decodeInput(path)
        let rate = decoded.buffer.sampleRate.hertz
        let existing: LoopRegion?
        let source: LoopVerifier.LoopSource
        do {
            let found = try LoopVerifier.loopRegion(of: decoded, path: path)
            (existing, source) = (found.source == .wholeFile ? nil : found.region, found.source)
        } catch {
            throw CommandFailure(error, file: path, exitCode: .inputError)
        }
        let options = LoopFinder.Options(
            minLength: try frames(args, LoopsOptions.minLength, rate: rate),
            maxLength: try frames(args, LoopsOptions.maxLength, rate: rate),
            crossfade: try frames(args, LoopsOptions.crossfade, rate: rate) ?? 0,
            startMode: args[LoopsOptions.freeStart] ? .free : .keep,
            count: top)
        let result: LoopFinder.Result
        do {
            result = try LoopFinder.find(decoded.buffer, existing: existing, source: source, options: options)
        } catch {
            throw CommandFailure("\(path): \(error.message)", code: error.kind.rawValue, file: path)
        }
        var written: String?
        var writtenCheck: SeamRules.Report?
        if args[LoopsOptions.write], let best = result.candidates.first {
            written = try write(best.region, to: path, decoded: decoded)
            writtenCheck =
                result.wholeFileLoops
                ? result.existingReport : SeamRules.judge(decoded.buffer, loop: Int(best.start)..<Int(best.end))
        }
        if args[LoopsOptions.json] {
            let json = FindJSON(
                file: path, wholeFileLoops: result.wholeFileLoops,
                candidates: result.candidates.map {
                    CandidateJSON(start: $0.start, end: $0.end, score: $0.score, reasons: $0.reasons)
                },
                written: written, writtenVerdict: writtenCheck?.verdict.rawValue)
            try JSONOutput.print(json)
        } else {
            if result.wholeFileLoops {
                Terminal.out("\(path): \(result.candidates.first?.reasons.first ?? "loops cleanly")")
            }
            // The rank does not always follow SCORE (a texture that never repeats ranks its longest matching loop
            // first; a pulse, whole numbers of beats): WHY THIS RANK says what each place rests on.
            var t = TextTable(
                headers: ["#", "START", "END", "LENGTH", "SCORE", "WHY THIS RANK"],
                alignments: [.right, .right, .right, .right, .right, .left])
            for (i, c) in result.candidates.enumerated() {
                t.append([
                    "\(i + 1)", "\(c.start)", "\(c.end)",
                    String(format: "%.3f s", Double(c.end - c.start) / Double(rate)),
                    String(format: "%.3f", c.score),
                    c.reasons.last(where: { $0.hasPrefix("ranks ") }) ?? c.reasons.first ?? "",
                ])
            }
            Terminal.out(t.render())
            if let written { Terminal.out("Wrote the best loop to \(written)") }
            if let check = writtenCheck, check.verdict != .pass {
                Terminal.out(
                    "Played as it is, that loop does not pass verify (\(check.reasons.first ?? check.verdict.rawValue)); "
                        + "'enso loops bake \(path) OUT' crossfades its joint.")
            }
        }
        return result.candidates.isEmpty ? .failure : .success
    }

    /// Stores `loop` with the file: rewrites a WAV, plain or WAVE_FORMAT_EXTENSIBLE (sox's 24-bit files), with its
    /// `smpl` chunk (same header kind and encoding, atomically), or writes the sidecar `FILE.loop.json` for other
    /// formats.
    ///
    /// - Returns: the path written.
    static func write(_ loop: LoopRegion, to path: String, decoded: DecodedAudio) throws -> String {
        let wavFormats: [String: EncodeFormat] = ["PCM_16": .wav16, "PCM_24": .wav24, "FLOAT": .wavf]
        if ["WAV", "WAVEX"].contains(decoded.info.format), let format = wavFormats[decoded.info.subtype] {
            let options = EncodeOptions(format: format, loops: [loop], extensible: decoded.info.format == "WAVEX")
            do {
                try AudioFileEncoder.write(decoded.buffer, to: path, options: options)
            } catch {
                throw CommandFailure(error, exitCode: .failure)
            }
            return path
        }
        let sidecar = LoopSidecar(
            file: (path as NSString).lastPathComponent, sampleRate: decoded.buffer.sampleRate.hertz,
            frames: FrameCount(decoded.buffer.frameCount), loop: loop)
        do {
            try sidecar.write(for: path)
        } catch {
            throw CommandFailure(error, file: LoopSidecar.path(for: path))
        }
        return LoopSidecar.path(for: path)
    }
}
