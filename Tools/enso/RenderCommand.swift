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
            under a temporary name and renamed into place when complete. A progress bar shows on a terminal
            (session time rendered / total, and the speed); --progress json prints JSON lines on stderr instead.
            The format comes from --format, else from the file extension (.wav 16-bit, .flac, .ogg, .opus,
            .mp3); another extension, or a rate the format cannot hold (Opus at 44.1 kHz), is bad usage,
            refused before any work. -o - writes standard output (--format required).
            16-bit output (wav16, flac) is TPDF-dithered (digital silence stays exactly 0). --quality sets the
            Ogg, Opus and MP3 encoders' quality as in convert (default 0.6).
            Each --theme-at change crossfades to its theme starting on exactly its frame; every theme is
            decoded and resampled before rendering starts, except one over 2 min, which streams from disk.
            """,
        options: PlanOptions.specs + PlanOptions.themeSpecs + [
            output.spec, format.spec, OutputFormat.qualityOption.spec, progress.spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "The session was rendered."),
            ExitCodeMeaning(
                .failure, "An asset file could not be read, no asset pack was found or the output could not be written."
            ),
            ExitCodeMeaning(.usage, "Bad usage or a bad plan (\(PlanOptions.badPlanCases), --repeat forever)."),
        ] + WriteInterruption.exitCodes,
        run: { args, _ in try run(args) })

    static let output = Option<String>(
        "output", short: "o", valueName: "FILE", help: "The audio file to write (required); - for standard output.")
    static let format = OutputFormat.formatOption.help(
        "\(OutputFormat.names.joined(separator: ", ")) (default from the extension).")
    static let progress = BatchOptions.progress.help(
        "bar (default: on a terminal, session time done / total and the speed), json (lines on stderr), none.")

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        WriteInterruption.install()
        guard let output = try args.value(of: Self.output) else {
            throw UsageError("missing -o FILE", help: "-o, --output <file>")
        }
        let format = try OutputFormat.choose(output: output, explicit: args.value(of: Self.format))
        let quality = try OutputFormat.quality(args)
        OutputFormat.warnIfIgnored(quality: quality, format: format)
        let progressMode = try args.value(of: Self.progress).flatMap(TimeProgress.Mode.init(rawValue:)) ?? .bar
        let parsed = try PlanOptions.parse(args)
        try OutputFormat.check(format, output: output, sampleRate: parsed.rate, channels: 2)
        if case .untilStopped = parsed.plan.repeatMode {
            throw UsageError("--repeat: forever runs until stopped and cannot be rendered; give a count or until=HH:MM")
        }
        let planned = try PlannedSession(parsed, args: args)
        let renderer = OfflineRenderer(engine: planned.engine, blockFrames: 4096)
        for timed in planned.themes {
            renderer.scheduleTheme(timed.theme, atFrame: timed.change.frame, crossfadeFrames: planned.crossfadeFrames)
        }
        let total = try renderer.totalFrames()
        let destination = try StdioOutput(output, format: format)
        defer { destination.discard() }
        let writer: StreamingFileWriter
        do {
            writer = try StreamingFileWriter(
                path: destination.path, format: format, sampleRate: parsed.rate, channels: .stereo,
                quality: quality ?? OutputFormat.defaultQuality, dither: true)
        } catch {
            throw CommandFailure(error.message)
        }
        let bar = TimeProgress(mode: progressMode, label: "render", totalSeconds: parsed.rate.seconds(frames: total))
        let started = Date()
        do {
            try renderer.run { block, position in
                try writer.write(interleaved: block)
                bar.update(doneSeconds: parsed.rate.seconds(frames: FrameCount(position) + FrameCount(block.count / 2)))
            }
            try writer.finish()
        } catch let e as EnsoError {
            bar.abandon()
            writer.cancel()
            throw CommandFailure(e.message)
        }
        bar.finish()
        try destination.finish()
        let elapsed = Date().timeIntervalSince(started)
        let seconds = parsed.rate.seconds(frames: total)
        destination.report(
            "\(output): \(PlanCommand.offsetText(seconds)) (\(total) frames, \(parsed.rate.hertz) Hz stereo, \(format.rawValue)) "
                + "in \(String(format: "%.2f", elapsed)) s (\(String(format: "%.0f", seconds / max(elapsed, 1e-9)))x real time)"
        )
        return .success
    }
}
