import AudioCore
import AudioEngine
import AudioFile
import CLISupport
import Foundation

/// `enso render [plan options] -o FILE [--format ...]`: the whole session, offline, streamed to a file.
enum RenderCommand {
    static let command = Command(
        name: "render",
        abstract: "Render a whole session offline to an audio file, as fast as the machine allows.",
        discussion: """
            The session streams to the file block by block (an hour needs a few megabytes of memory), written
            under a temporary name and renamed into place when complete. A progress bar shows on a terminal.
            The format comes from --format, else from the file extension (.wav 16-bit, .flac, .ogg, .opus).
            16-bit output (wav16, flac) is TPDF-dithered (digital silence stays exactly 0).
            Each --theme-at change crossfades to its theme starting on exactly its frame; every theme is
            decoded and resampled before rendering starts.
            Exit codes: 0 success, 1 an asset file could not be read, no asset pack was found or the output
            could not be written, 64 bad usage or a bad plan (a value out of range, a sitting shorter than its strike group, an until-time too close,
            an unknown asset id, a --theme-at time outside the session, --repeat forever).
            """,
        options: PlanOptions.specs + PlanOptions.themeSpecs + [
            .value("output", short: "o", valueName: "FILE", help: "The audio file to write (required)."),
            .value("format", valueName: "FORMAT", help: "wav16, wav24, wavf, flac, ogg or opus (default from the extension, else wav16)."),
        ],
        run: { args, _ in try run(args) })

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        guard let output = args.value("output") else { throw UsageError("missing -o FILE", help: "-o, --output <file>") }
        let formats = ["wav16", "wav24", "wavf", "flac", "ogg", "opus"]
        let format = try args.choice("format", from: formats).flatMap(EncodeFormat.init(rawValue:))
            ?? EncodeFormat.inferred(fromPath: output) ?? .wav16
        let parsed = try PlanOptions.parse(args)
        if case .untilStopped = parsed.plan.repeatMode {
            throw UsageError("--repeat: forever runs until stopped and cannot be rendered; give a count or until=HH:MM")
        }
        let assets = try PlanOptions.loadAssets(parsed)
        let timeline = try PlanOptions.timeline(parsed, bell: assets.bell)
        let changes = try PlanOptions.themeChanges(args, rate: parsed.rate, timeline: timeline)
        let crossfade = try PlanOptions.themeCrossfadeFrames(args, rate: parsed.rate)
        let themes = try PlanOptions.loadThemes(changes, parsed: parsed, decode: true)
        let engine: SessionEngine
        do {
            engine = try SessionEngine(plan: parsed.plan, timeline: timeline, assets: assets)
        } catch {
            throw CommandFailure(error.message)
        }
        let renderer = OfflineRenderer(engine: engine, blockFrames: 4096)
        for (change, theme) in zip(changes, themes) {
            renderer.scheduleTheme(theme, atFrame: change.frame, crossfadeFrames: crossfade)
        }
        let total = try renderer.totalFrames()
        let writer: StreamingFileWriter
        do {
            writer = try StreamingFileWriter(
                path: output, format: format, sampleRate: parsed.rate, channels: .stereo, dither: true)
        } catch {
            throw CommandFailure(error.message)
        }
        let bar = ProgressBar(total: Int(total / 4096) + 1 + changes.count, label: "render")
        let started = Date()
        do {
            try renderer.run { block, _ in
                try writer.write(interleaved: block)
                bar.advance()
            }
            try writer.finish()
        } catch let e as AudioFileError {
            bar.finish()
            writer.cancel()
            throw CommandFailure(e.message)
        }
        bar.finish()
        let elapsed = Date().timeIntervalSince(started)
        let seconds = parsed.rate.seconds(frames: total)
        Terminal.out(
            "\(output): \(PlanCommand.offsetText(seconds)) (\(total) frames, \(parsed.rate.hertz) Hz stereo, \(format.rawValue)) "
                + "in \(String(format: "%.2f", elapsed)) s (\(String(format: "%.0f", seconds / max(elapsed, 1e-9)))x real time)")
        return .success
    }
}
