import AssetPipeline
import AudioCore
import AudioFile
import CLISupport
import FileBatch
import Foundation

/// `enso info FILE...`: format, rate, channels, duration, peak and loop points of audio files.
enum InfoCommand {
    static let json = Flag("json", help: "Print a JSON array with one object per file.")

    static let command = Command(
        name: "info",
        abstract: "Show format, rate, channels, duration, peak and loop points of audio files.",
        discussion: """
            Loop points come from the WAV smpl chunk or AIFF instrument loops, as start..<end in frames
            (end exclusive: the frame after the loop's last frame); a loop sidecar FILE.loop.json (written by
            `loops find --write` for other formats) is shown on its own line, or why it is ignored. --json
            prints an array with one object per file: file, format, subtype, sampleRate, channels, frames,
            duration (seconds), peak (linear, over the finite samples; absent when not measured, or when no
            sample is finite), loopWarnings (loops in the header
            that were ignored or do not fit in the file, and why: also printed to stderr), nonFiniteSamples (NaN or infinite
            samples, when there are any), loops [{start, end}], cues (frames), sidecarLoop {start, end}
            or sidecarProblem when there is a sidecar, and truncated (true when the stream ends or breaks
            before its end: frames, duration and peak describe what decodes, and a warning goes to stderr);
            error null; a file that cannot be read gives {file, error: {code, message, file}} (docs/cli.md).
            The file is read from its header; the peak is measured by streaming (memory stays under 1 MiB a job),
            and not at all for a file over the decode limit (2^27 samples, 23 min of stereo at 48 kHz). Files are
            read on --jobs threads and shown in the order given.
            """,
        arguments: [
            ArgumentSpec(
                "file", help: "Audio files (any format libsndfile reads); - reads standard input.", variadic: true)
        ],
        options: [
            json.spec,
            BatchOptions.jobs.spec, BatchOptions.progress.spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Every file was read (a truncated one included)."),
            ExitCodeMeaning(.inputError, "Some file could not be read (the rest are still shown)."), .usage,
        ],
        run: { args, _ in try run(args) })

    struct Report: Codable, Sendable {
        var file: String
        var format: String
        var subtype: String
        var sampleRate: Int
        var channels: Int
        var frames: Int64
        var duration: Double
        var peak: Float?
        /// NaN or infinite samples (absent when there are none or the peak was not measured).
        var nonFiniteSamples: Int?
        var loops: [LoopRegion]
        /// Cue point positions in frames.
        var cues: [Int64]
        /// Loops in the header that were ignored, and why.
        var loopWarnings: [String]?
        /// The loop in `FILE.loop.json`, when there is a valid one.
        var sidecarLoop: LoopRegion?
        /// Why a sidecar next to the file is ignored (malformed, another version, stale, out of range).
        var sidecarProblem: String?
        /// The stream ends or breaks before its declared end (an Ogg without its last page, a cut FLAC or WAV):
        /// `frames`, `duration` and `peak` describe what decodes.
        var truncated: Bool
    }

    /// The row of a file that cannot be read.
    struct ErrorReport: Codable {
        var file: String
        var error: ErrorObject
    }

    /// One element of the `--json` array: a report with `"error": null`, or `{file, error}` (docs/cli.md).
    enum Row: Encodable {
        case report(Report)
        case failure(ErrorReport)

        enum CodingKeys: String, CodingKey { case error }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .report(let r):
                try r.encode(to: encoder)
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encodeNil(forKey: .error)
            case .failure(let e):
                try e.encode(to: encoder)
            }
        }
    }

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        let jobs = try BatchOptions.jobs(args)
        let progressMode = try BatchOptions.progress(args)
        var failed = false
        var rows: [Row] = []
        let stdin = try StdioInput(args.positionals)
        let given = args.positionals
        let read = given.map(stdin.path(for:))
        let json = args[Self.json]
        let bar = ProgressBar(total: given.count, label: "reading", mode: progressMode)
        // Files are read on `--jobs` threads; what each shows is printed in the order given.
        BatchRunner.run(
            count: given.count, jobs: jobs, ordered: true,
            work: { i in Result { () throws(EnsoError) in try describe(given[i], reading: read[i]) } }
        ) { i, outcome in
            let path = given[i]
            switch outcome {
            case .success(let r):
                for w in r.loopWarnings ?? [] { Terminal.err("Warning: \(path): \(w)") }
                if r.truncated {
                    Terminal.err(
                        "Warning: \(path): truncated: the stream is cut short (damaged file); \(r.frames) frames decode"
                    )
                }
                if json { rows.append(.report(r)) } else { Terminal.out(text(r)) }
            case .failure(let error):
                let e = stdin.renamed(error)
                failed = true
                Terminal.err("Error: \(e.message)")
                let object = ErrorObject(code: e.name, message: e.message, file: path)
                rows.append(.failure(ErrorReport(file: path, error: object)))
            }
            bar.advance(item: (path as NSString).lastPathComponent)
        }
        bar.finish()
        if json { try JSONOutput.print(rows) }
        return failed ? .inputError : .success
    }

    /// The report on the file `path` names, read from `file` (the spooled copy for `-`).
    static func describe(_ path: String, reading file: String) throws(EnsoError) -> Report {
        let reader = try SoundFileReader(path: file, toleratingTruncation: true)
        defer { reader.close() }
        let i = reader.info
        let measured = try measurePeak(reader)
        // A damaged stream is described as far as it decodes.
        let frames = reader.truncated ? (measured?.frames ?? i.frames) : i.frames
        // A loop past the end is kept by the reader; the commands that use it refuse it, so say so here.
        let loopWarnings =
            i.loopWarnings
            + i.loops.enumerated().filter { $0.element.end > frames }.map {
                "loop \($0.offset + 1) (\($0.element.start)..<\($0.element.end)) does not fit in \(frames) frames"
            }
        var r = Report(
            file: path, format: i.format, subtype: i.subtype, sampleRate: i.sampleRate.hertz,
            channels: i.channels.count, frames: frames, duration: i.sampleRate.seconds(frames: frames),
            peak: measured.flatMap { $0.nonFinite < Int($0.frames) * i.channels.count ? $0.peak : nil },
            nonFiniteSamples: measured.flatMap { $0.nonFinite > 0 ? $0.nonFinite : nil },
            loops: i.loops, cues: i.cues.map(\.position),
            loopWarnings: loopWarnings.isEmpty ? nil : loopWarnings,
            truncated: reader.truncated)
        do {
            r.sidecarLoop = try LoopSidecar.read(for: path, sampleRate: i.sampleRate.hertz, frames: i.frames)?
                .loop
        } catch {
            r.sidecarProblem = error.message
        }
        return r
    }

    /// The text `info` prints for a file (without `--json`).
    static func text(_ r: Report) -> String {
        let path = r.file
        let loops = r.loops.isEmpty ? "none" : r.loops.map { "\($0.start)..<\($0.end)" }.joined(separator: ", ")
        var out =
            """
            \(path)
              format    \(r.format) \(r.subtype)
              rate      \(r.sampleRate) Hz
              channels  \(r.channels)
              frames    \(r.frames) (\(r.duration < 60 ? String(format: "%.3f s", r.duration) : DurationParser.format(r.duration)))
              peak      \(peakText(r))
              loops     \(loops)
            """
            + (r.truncated ? "\n  damaged   truncated: the stream ends early; the figures above are what decodes" : "")
        if !r.cues.isEmpty { out += "\n  cues      " + r.cues.map(String.init).joined(separator: ", ") }
        if let l = r.sidecarLoop {
            out +=
                "\n  sidecar   \(l.start)..<\(l.end) (\((LoopSidecar.path(for: path) as NSString).lastPathComponent))"
        }
        if let problem = r.sidecarProblem { out += "\n  sidecar   ignored: \(problem)" }
        return out
    }

    /// The largest finite sample magnitude and the count of NaN or infinite samples, streamed in 16 Ki-sample
    /// chunks; `nil` for a file over the decode limit (only its header is read).
    static func measurePeak(_ reader: SoundFileReader) throws(EnsoError) -> (
        peak: Float, nonFinite: Int, frames: Int64
    )? {
        let c = reader.info.channels.count
        guard reader.info.frames <= Int64(DecodeLimits.maxDecodedSamples / c) else { return nil }
        let chunk = max(1, 16_384 / c)
        var scratch = [Float](repeating: 0, count: chunk * c)
        var peak: Float = 0
        var nonFinite = 0
        var frames: Int64 = 0
        while true {
            let n = try scratch.withUnsafeMutableBufferPointer { (p) throws(EnsoError) -> Int in
                try reader.readFrames(into: p.baseAddress!, maxFrames: chunk)
            }
            if n == 0 { break }
            frames += Int64(n)
            for s in scratch[0..<(n * c)] {
                if s.isFinite { peak = max(peak, abs(s)) } else { nonFinite += 1 }
            }
        }
        return (peak, nonFinite, frames)
    }

    static func peakText(_ r: Report) -> String {
        guard let peak = r.peak else {
            // No finite sample: a peak of 0 (-inf dBFS) would read as digital silence.
            if let bad = r.nonFiniteSamples { return "none: all \(bad) samples are NaN or infinite" }
            return "not measured (over the decode limit of \(DecodeLimits.maxDecodedSamples) samples; header read only)"
        }
        // Digital silence has no level in decibels: -inf, as sox and ffmpeg print it.
        // A peak a hair under full scale reads 0.0, not "-0.0".
        let dB = peak > 0 ? RuleFigure.fixed(20 * log10(Double(peak)), decimals: 1) : "-inf"
        let level = "\(String(format: "%.4f", peak)) (\(dB) dBFS)"
        guard let bad = r.nonFiniteSamples else { return level }
        return "\(level) over the finite samples; \(bad == 1 ? "1 sample is" : "\(bad) samples are") NaN or infinite"
    }
}
