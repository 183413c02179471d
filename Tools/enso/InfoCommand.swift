import AssetPipeline
import AudioFile
import CLISupport
import Foundation

/// `enso info FILE...`: format, rate, channels, duration, peak and loop points of audio files.
enum InfoCommand {
    static let command = Command(
        name: "info",
        abstract: "Show format, rate, channels, duration, peak and loop points of audio files.",
        discussion: """
            Loop points come from the WAV smpl chunk or AIFF instrument loops, as start..<end in frames
            (end exclusive: the frame after the loop's last frame); a loop sidecar FILE.loop.json (written by
            `loops find --write` for other formats) is shown on its own line, or why it is ignored. --json
            prints an array with one object per file: file, format, subtype, sampleRate, channels, frames,
            duration (seconds), peak (linear), loops [{start, end}], cues (frames), and sidecarLoop
            {start, end} or sidecarProblem when there is a sidecar; a file that cannot be read gives
            {file, error, kind}.

            Exit codes: 0 every file was read, 2 some file could not be read (the rest are still shown),
            64 bad usage.
            """,
        arguments: [ArgumentSpec("file", help: "Audio files (any format libsndfile reads); - reads standard input.", variadic: true)],
        options: [.flag("json", help: "Print a JSON array with one object per file.")],
        run: { args, _ in try run(args) })

    struct Report: Codable {
        var file: String
        var format: String
        var subtype: String
        var sampleRate: Int
        var channels: Int
        var frames: Int64
        var duration: Double
        var peak: Float
        var loops: [LoopRegion]
        /// Cue point positions in frames.
        var cues: [Int64]
        /// The loop in `FILE.loop.json`, when there is a valid one.
        var sidecarLoop: LoopRegion?
        /// Why a sidecar next to the file is ignored (malformed, another version, stale, out of range).
        var sidecarProblem: String?
    }

    struct ErrorReport: Codable {
        var file: String
        var error: String
        var kind: String
    }

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        var failed = false
        var json: [String] = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let stdin = try StdioInput(args.positionals)
        for path in args.positionals {
            do {
                let decoded = try stdin.decode(path)
                let i = decoded.info
                var r = Report(
                    file: path, format: i.format, subtype: i.subtype, sampleRate: i.sampleRate.hertz,
                    channels: i.channels.count, frames: i.frames, duration: i.duration, peak: decoded.buffer.peak,
                    loops: i.loops, cues: i.cues.map(\.position))
                do {
                    r.sidecarLoop = try LoopSidecar.read(for: path, sampleRate: i.sampleRate.hertz, frames: i.frames)?.loop
                } catch {
                    r.sidecarProblem = error.message
                }
                if args.flag("json") {
                    json.append(String(decoding: try encoder.encode(r), as: UTF8.self))
                } else {
                    let loops = r.loops.isEmpty ? "none" : r.loops.map { "\($0.start)..<\($0.end)" }.joined(separator: ", ")
                    Terminal.out(
                        """
                        \(path)
                          format    \(r.format) \(r.subtype)
                          rate      \(r.sampleRate) Hz
                          channels  \(r.channels)
                          frames    \(r.frames) (\(r.duration < 60 ? String(format: "%.3f s", r.duration) : DurationParser.format(r.duration)))
                          peak      \(String(format: "%.4f", r.peak)) (\(String(format: "%.1f", 20 * log10(max(Double(r.peak), 1e-10)))) dBFS)
                          loops     \(loops)
                        """)
                    if !r.cues.isEmpty { Terminal.out("  cues      " + r.cues.map(String.init).joined(separator: ", ")) }
                    if let l = r.sidecarLoop {
                        Terminal.out("  sidecar   \(l.start)..<\(l.end) (\((LoopSidecar.path(for: path) as NSString).lastPathComponent))")
                    }
                    if let problem = r.sidecarProblem { Terminal.out("  sidecar   ignored: \(problem)") }
                }
            } catch let e as AudioFileError {
                failed = true
                Terminal.err("Error: \(e.message)")
                if args.flag("json") {
                    let r = ErrorReport(file: path, error: e.message, kind: e.kind.rawValue)
                    json.append(String(decoding: try encoder.encode(r), as: UTF8.self))
                }
            }
        }
        if args.flag("json") { Terminal.out("[" + json.joined(separator: ",\n") + "]") }
        return failed ? .inputError : .success
    }
}
