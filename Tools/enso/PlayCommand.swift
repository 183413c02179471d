import AssetPipeline
import AudioCore
import AudioDevice
import AudioEngine
import CLISupport
import Foundation
import PlaybackService

/// `enso play [plan options] [--output alsa[:DEVICE]|null|file:PATH] [--period N --buffer N] [--journal FILE]`:
/// plays a session live and records it in the journal, as `enso serve` does.
enum PlayCommand {
    static let command = Command(
        name: "play",
        abstract: "Play a session live on an ALSA device (or the paced null output, or a raw file).",
        discussion: """
            The engine runs at the device's rate (assets are resampled once, at load). Bells are scheduled
            ahead in the stream, so the buffer never moves a bell; after a stall (an xrun) the session skips
            the lost time, so later bells keep their clock times.
            On a terminal a status line shows phase, elapsed and remaining time, the next bell's clock time,
            theme and volume, and keys act at once: space pause/resume, t next theme, + and - volume,
            b strike a bell, q stop (closing bell, then fade). Otherwise one line per event is printed when
            it is heard: its clock time, what happened and its frame.
            SIGINT or SIGTERM stops gracefully with a fade; a second SIGINT exits at once (code 130).
            Each --theme-at change (up to 32) crossfades to its theme on exactly its session frame: sat time,
            so a pause before it moves it later, as it moves the bells.
            --output file:PATH writes raw float32 stereo, unpaced (the same samples 'enso render' writes).
            The sitting is recorded in the session journal exactly as 'enso serve' records one (--journal,
            default $XDG_DATA_HOME/enso/sessions.jsonl; --no-journal records nothing; with --output file: only a
            --journal named records it, since a file is written faster than it plays): a checkpoint while it
            plays, its record when it ends ('completed', or 'stopped' by q or a signal before the closing
            bell); a sitting cut off by a second Ctrl-C is recovered as 'interrupted' by the next play, serve
            or sessions. A journal that cannot be written stops the sitting before it starts.
            """,
        options: PlanOptions.specs + PlanOptions.themeSpecs + DeviceOptions.specs + JournalOptions.specs,
        exitCodes: [
            ExitCodeMeaning(.success, "The session ended or was stopped."),
            ExitCodeMeaning(
                .failure,
                "The device could not be opened or failed while playing (the message names it and what to try), an asset could not be loaded or the journal cannot be written."
            ),
            JournalOptions.missingFolder, PlanOptions.badPlan,
            ExitCodeMeaning(.interrupted, "Interrupted twice (a second Ctrl-C)."),
        ],
        run: { args, _ in try run(args) })

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        var parsed = try PlanOptions.parse(args)
        var journal = try JournalOptions.journal(args)
        // A file is written unpaced, in a fraction of the time it plays: nobody sat, so the default journal (a health
        // app's record of minutes sat) is not written unless asked by name.
        if journal != nil, case .file = try DeviceOptions.choice(args), !args.has(SessionsCommand.journalFile) {
            journal = nil
            Terminal.err(
                "Note: --output file: is written faster than it plays, not sat: nothing is recorded in the journal "
                    + "(--journal FILE records it there)")
        }
        let output = try DeviceOptions.open(args, rate: parsed.rate)
        if output.format.sampleRate != parsed.rate {
            Terminal.err(
                "Note: device '\(output.deviceName)' plays at \(output.format.sampleRate.hertz) Hz; the session runs at that rate."
            )
            parsed.rate = output.format.sampleRate
        }
        let isFile = DeviceOptions.isFile(output)
        if isFile, case .untilStopped = parsed.plan.repeatMode {
            throw UsageError(
                "--repeat: forever runs until stopped and cannot be written to a file; give a count or until=HH:MM")
        }
        let planned = try PlannedSession(parsed, args: args, maximumThemeChanges: SessionEngine.maximumTimedThemes)
        let engine = planned.engine
        engine.prepare(maxFrames: output.format.periodFrames)
        // Held by the render thread until their session frame: a pause moves them later, as it moves the bells.
        for timed in planned.themes {
            engine.setTheme(timed.theme, atSessionFrame: timed.change.frame, crossfadeFrames: planned.crossfadeFrames)
        }
        // A sitting the journal cannot keep is refused before it starts, not lost at its end (as 'serve' refuses).
        do { try journal?.checkWritable() } catch {
            throw CommandFailure("\(error.message) (--no-journal plays without recording the sitting)")
        }
        let session = RunningSession(
            plan: parsed.plan, engine: engine, output: output, unpaced: isFile, journal: journal)
        return try PlayConsole(session: session, parsed: parsed, isFile: isFile).run()
    }
}
