import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import CLISupport
import FileBatch
import Foundation

extension LoopsCommand {
    static let find = Command(
        name: "find",
        abstract: "Find the best loop points in audio files (directories are searched recursively).",
        discussion: """
            First checks whether the file's own loop (embedded, sidecar or whole file) already loops cleanly.
            Otherwise searches for the best loops: coarse FFT cross-correlation on a decimated mono mix, then
            refinement to the exact frame. Material with an attack is looped in its sustain.
            --write stores the best loop and says whether it passes 'verify' played as it is; a joint that
            needs a crossfade (rain, drones) is made seamless by 'enso loops bake'.
            Several files (or folders) are searched on --jobs threads and shown in input order, each under its
            name; --json prints an array of the objects one file prints, --jsonl one row per file as it
            finishes. Batches, shards and resuming: docs/scale.md.
            """,
        arguments: [ArgumentSpec("path", help: "Audio files or directories.", variadic: true)],
        options: [
            LoopsOptions.minLength.spec, LoopsOptions.maxLength.spec, LoopsOptions.crossfade.spec,
            LoopsOptions.keepStart.spec, LoopsOptions.freeStart.spec, LoopsOptions.candidates.spec,
            LoopsOptions.json.help(
                "Print {file, wholeFileLoops, candidates: [{start, end, score, reasons}], written, writtenVerdict}; for several files, an array of them."
            ).spec,
            LoopsOptions.write.spec,
        ] + BatchOptions.specs,
        exitCodes: [
            ExitCodeMeaning(.success, "Candidates found for every file; with --jsonl, every row written."),
            ExitCodeMeaning(.failure, "None found for some file, or a write failed."),
            ExitCodeMeaning(
                .inputError, "Some file could not be read (the rest are still searched; takes precedence over 1)."),
            .usage,
        ],
        run: { args, _ in try runFind(args) })

    /// One file's `--json` object, and its `--jsonl` row.
    struct FindJSON: Codable, Sendable {
        var file: String
        var wholeFileLoops: Bool
        var candidates: [CandidateJSON]
        /// Where `--write` put the best loop; `null` without `--write` (the key is always there, docs/cli.md).
        @Nullable var written: String? = nil
        /// What `verify` says of the written loop played as it is (no crossfade); `null` when nothing was written.
        @Nullable var writtenVerdict: String? = nil
    }

    /// One file's row in a batch (the `--json` array, a `--jsonl` line): its object and `error`, `null` or why the
    /// file has no candidates (it could not be read, or its loop written), as every per-file row has (docs/cli.md).
    struct FindRow: Encodable, Sendable {
        var json: FindJSON
        var error: ErrorObject?

        enum CodingKeys: String, CodingKey { case error }

        func encode(to encoder: any Encoder) throws {
            try json.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let error {
                try container.encode(error, forKey: .error)
            } else {
                try container.encodeNil(forKey: .error)
            }
        }
    }

    struct CandidateJSON: Codable, Sendable {
        var start: Int64
        var end: Int64
        var score: Double
        var reasons: [String]
    }

    /// What `find` made of one file: its object, its lines for the terminal and its exit code.
    struct FindOutcome: Sendable {
        var row: FindRow
        var lines: [String]
        var exitCode: ExitCode

        /// The outcome of a file whose search failed as a whole (unreadable, or its loop could not be written).
        init(_ failure: CommandFailure, file: String) {
            row = FindRow(
                json: FindJSON(file: file, wholeFileLoops: false, candidates: []), error: failure.errorObject)
            lines = []
            exitCode = failure.exitCode
        }

        init(json: FindJSON, lines: [String], exitCode: ExitCode) {
            (row, self.lines, self.exitCode) = (FindRow(json: json), lines, exitCode)
        }
    }

    static func runFind(_ args: ParsedArguments) throws -> ExitCode {
        AllocatorTuning.forBatchWork()
        if args[LoopsOptions.keepStart] && args[LoopsOptions.freeStart] {
            throw UsageError("--keep-start and --free-start cannot be combined")
        }
        _ = try args.valueOrDefault(of: LoopsOptions.candidates)
        try checkLoopOptions(args)
        let paths = args.positionals
        if paths.contains(where: StandardStream.isStandard) && args[LoopsOptions.write] {
            throw UsageError("--write stores the loop in the file read; '-' (standard input) is no file to write to")
        }
        let plan = try BatchOptions.parse(
            args, command: "loops find", settings: findSettings(args), positionals: paths,
            reader: "a JSON Lines reader (jq)", views: [LoopsOptions.json.spec])
        var isFolder: ObjCBool = false
        let single =
            paths.count == 1 && !plan.jsonl && plan.shard == nil
            && !(FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder) && isFolder.boolValue)
        if single {
            // One file: its object or its table alone, a failure as the command's error (as before batches).
            let stdin = try StdioInput(paths)
            let outcome = try findOne(paths[0], named: paths[0], args: args) { try stdin.decodeInput($0) }
            try show([outcome], asJSON: args[LoopsOptions.json], single: true)
            return outcome.exitCode
        }
        let stdin = try StdioInput(paths)
        let files = plan.selecting(BatchFile.expand(stdin.paths(paths)))
        let decode: @Sendable (String) throws -> DecodedAudio = { path in
            do throws(EnsoError) {
                return try AudioFileDecoder.decode(path: path)
            } catch {
                throw CommandFailure(error)
            }
        }
        if plan.jsonl {
            return try plan.writeRows(files, label: "finding") { file in
                let outcome = Self.outcome(file.path, named: file.path, args: args, decode: decode)
                return (outcome.row, outcome.row.error?.message)
            }
        }
        let bar = ProgressBar(total: files.count, label: "finding", mode: plan.progress)
        var outcomes: [FindOutcome] = []
        BatchRunner.run(
            count: files.count, jobs: plan.jobs, ordered: true,
            work: { i in Self.outcome(files[i].path, named: files[i].path, args: args, decode: decode) },
            deliver: { i, outcome in
                var outcome = outcome
                outcome.row.json.file = stdin.named(outcome.row.json.file)
                if var error = outcome.row.error {
                    (error.message, error.file) = (stdin.named(error.message), error.file.map(stdin.named))
                    outcome.row.error = error
                }
                outcomes.append(outcome)
                bar.advance(item: (files[i].path as NSString).lastPathComponent)
            })
        bar.finish()
        try show(outcomes, asJSON: args[LoopsOptions.json], single: false)
        let codes = Set(outcomes.map(\.exitCode))
        return codes.contains(.inputError) ? .inputError : codes.contains(.failure) ? .failure : .success
    }

    /// The settings that change `find`'s result, for each `--jsonl` row (`--resume` refuses rows made with others).
    static func findSettings(_ args: ParsedArguments) -> [String: String] {
        var settings: [String: String] = [:]
        for option in [LoopsOptions.minLength, LoopsOptions.maxLength, LoopsOptions.crossfade] {
            if let text = args.text(of: option) { settings[option.spec.name] = text }
        }
        if let text = args.text(of: LoopsOptions.candidates) { settings[LoopsOptions.candidates.spec.name] = text }
        for flag in [LoopsOptions.freeStart, LoopsOptions.write] where args[flag] {
            settings[flag.spec.name] = "true"
        }
        return settings
    }

    /// ``findOne(_:named:args:decode:)`` of one file of a batch, a failure kept as the file's outcome.
    static func outcome(
        _ path: String, named name: String, args: ParsedArguments,
        decode: @Sendable (String) throws -> DecodedAudio
    ) -> FindOutcome {
        do {
            return try findOne(path, named: name, args: args, decode: decode)
        } catch let failure as CommandFailure {
            return FindOutcome(failure, file: name)
        } catch {
            return FindOutcome(CommandFailure("\(name): \(error)"), file: name)
        }
    }

    /// Prints `outcomes`: one file's object or table as it is; several as a JSON array, or each file's table under
    /// its name (a failure as `Error:` on stderr).
    static func show(_ outcomes: [FindOutcome], asJSON: Bool, single: Bool) throws {
        if asJSON {
            if single { try JSONOutput.print(outcomes[0].row.json) } else { try JSONOutput.print(outcomes.map(\.row)) }
            for o in outcomes where !single { if let e = o.row.error { Terminal.err("Error: \(e.message)") } }
            return
        }
        for (i, o) in outcomes.enumerated() {
            if let e = o.row.error {
                Terminal.err("Error: \(e.message)")
                continue
            }
            if !single { Terminal.out((i > 0 ? "\n" : "") + "\(o.row.json.file):") }
            for line in o.lines { Terminal.out(line) }
        }
    }

    /// Finds the loops of one file: its object, its lines and its exit code (1 when there is no candidate).
    ///
    /// - Throws: `CommandFailure`: exit 2 when the file cannot be read or its loop is unreadable, 1 when the
    ///   search or `--write` fails.
    static func findOne(
        _ path: String, named name: String, args: ParsedArguments,
        decode: (String) throws -> DecodedAudio
    ) throws -> FindOutcome {
        let top = try args.valueOrDefault(of: LoopsOptions.candidates)
        let decoded = try decode(path)
        let rate = decoded.buffer.sampleRate.hertz
        let existing: LoopRegion?
        let source: LoopVerifier.LoopSource
        do {
            let found = try LoopVerifier.loopRegion(of: decoded, path: path)
            (existing, source) = (found.source == .wholeFile ? nil : found.region, found.source)
        } catch {
            throw CommandFailure(error, file: name, exitCode: .inputError)
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
            throw CommandFailure("\(name): \(error.message)", code: error.name, file: name)
        }
        var written: String?
        var sidecarReason: String?
        var writtenCheck: SeamRules.Report?
        if args[LoopsOptions.write], let best = result.candidates.first {
            (written, sidecarReason) = try write(best.region, to: path, decoded: decoded)
            writtenCheck =
                result.wholeFileLoops
                ? result.existingReport : SeamRules.judge(decoded.buffer, loop: Int(best.start)..<Int(best.end))
        }
        let json = FindJSON(
            file: name, wholeFileLoops: result.wholeFileLoops,
            candidates: result.candidates.map {
                CandidateJSON(start: $0.start, end: $0.end, score: $0.score, reasons: $0.reasons)
            },
            written: written, writtenVerdict: writtenCheck?.verdict.rawValue)
        var lines: [String] = []
        if result.wholeFileLoops {
            lines.append("\(name): \(result.candidates.first?.reasons.first ?? "loops cleanly")")
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
        lines.append(t.render())
        if let written {
            lines.append(
                "Wrote the best loop to \(written)"
                    + (sidecarReason.map {
                        " rather than to a smpl chunk: \($0); every enso command reads the sidecar, and 'enso convert "
                            + "\(name) OUT.wav' writes a copy with the loop in its smpl chunk"
                    } ?? ""))
        }
        if let check = writtenCheck, check.verdict != .pass {
            lines.append(
                "Played as it is, that loop does not pass verify (\(check.reasons.first ?? check.verdict.rawValue)); "
                    + "'enso loops bake \(name) OUT' crossfades its joint.")
        }
        return FindOutcome(json: json, lines: lines, exitCode: result.candidates.isEmpty ? .failure : .success)
    }

    /// Stores `loop` with the file: rewrites a WAV, plain or WAVE_FORMAT_EXTENSIBLE (sox's 24-bit files), with its
    /// `smpl` chunk (same header kind and encoding, atomically), or writes the sidecar `FILE.loop.json` for other
    /// formats, and for a WAV whose samples a rewrite would not keep bit for bit (``smplRefusal(subtype:)``).
    ///
    /// - Returns: the path written, and why a WAV got a sidecar (nil otherwise).
    static func write(
        _ loop: LoopRegion, to path: String, decoded: DecodedAudio
    ) throws -> (path: String, sidecarReason: String?) {
        let wav = ["WAV", "WAVEX"].contains(decoded.info.format)
        if wav, let format = rewritableWAV[decoded.info.subtype] {
            let options = EncodeOptions(format: format, loops: [loop], extensible: decoded.info.format == "WAVEX")
            do {
                try AudioFileEncoder.write(decoded.buffer, to: path, options: options)
            } catch {
                throw CommandFailure(error, exitCode: .failure)
            }
            return (path, nil)
        }
        let sidecar = LoopSidecar(
            file: (path as NSString).lastPathComponent, sampleRate: decoded.buffer.sampleRate.hertz,
            frames: FrameCount(decoded.buffer.frameCount), loop: loop)
        do {
            try sidecar.write(for: path)
        } catch {
            throw CommandFailure(error, file: LoopSidecar.path(for: path))
        }
        return (LoopSidecar.path(for: path), wav ? smplRefusal(subtype: decoded.info.subtype) : nil)
    }

    /// The WAV encodings `--write` rewrites with a `smpl` chunk, each as the format that keeps its samples bit for bit:
    /// the samples are decoded to 32-bit floats, which hold 16- and 24-bit PCM and 32-bit float exactly.
    static let rewritableWAV: [String: EncodeFormat] = ["PCM_16": .wav16, "PCM_24": .wav24, "FLOAT": .wavf]

    /// Why a WAV of `subtype` (not in ``rewritableWAV``) is not rewritten with a `smpl` chunk, in words: rewritten
    /// from its decoded samples, it would lose bits or change its encoding.
    static func smplRefusal(subtype: String) -> String {
        switch subtype {
        case "PCM_32":
            return "a 32-bit integer WAV is not rewritten, as enso reads samples as 32-bit floats, "
                + "which hold 24 of its 32 bits"
        case "DOUBLE":
            return "a 64-bit float WAV is not rewritten, as enso reads samples as 32-bit floats and would round them"
        case "PCM_U8", "PCM_S8":
            return "an 8-bit WAV is not rewritten, as enso writes WAV at 16 or 24 bits or float only"
        default:
            return "a \(subtype) WAV is not rewritten, as enso writes WAV as 16- or 24-bit PCM or float only"
        }
    }
}
