import AudioEngine
import CLISupport

/// A session as the plan and theme options describe it, loaded: its engine and its timed theme changes.
///
/// What `play` and `render` both build before they play the session or write it; `plan` checks the same options
/// without decoding anything.
struct PlannedSession {
    /// One `--theme-at` change and the theme it switches to (`nil` for none), decoded at the session's rate.
    struct TimedTheme {
        var change: PlanOptions.ThemeChange
        var theme: LoadedAsset?
    }

    /// The engine, built from the plan, its timeline and its assets; not yet prepared.
    var engine: SessionEngine
    /// The `--theme-at` changes in session order.
    var themes: [TimedTheme]
    /// `--theme-crossfade` in frames at the session's rate.
    var crossfadeFrames: Int

    /// Loads the assets and the timed themes of `parsed` and builds the engine.
    ///
    /// - Parameters:
    ///   - parsed: the parsed plan options, with the rate the session runs at.
    ///   - args: the command's arguments, for `--theme-at` and `--theme-crossfade`.
    ///   - maximumThemeChanges: how many `--theme-at` changes the caller can hold (a live engine holds a fixed
    ///     number; an offline render schedules any number).
    /// - Throws: `UsageError` (exit 64) for a bad `--theme-at`, `--theme-crossfade` or too many changes;
    ///   `CommandFailure` (exit 1) for an asset that cannot be loaded or a plan the engine refuses.
    init(_ parsed: PlanOptions.Parsed, args: ParsedArguments, maximumThemeChanges: Int = .max) throws {
        let assets = try PlanOptions.loadAssets(parsed)
        let timeline = try PlanOptions.timeline(parsed, bell: assets.bell)
        let changes = try PlanOptions.themeChanges(args, rate: parsed.rate, timeline: timeline)
        guard changes.count <= maximumThemeChanges else {
            throw UsageError(
                "--theme-at: \(changes.count) changes; a live session holds at most \(maximumThemeChanges)")
        }
        crossfadeFrames = try PlanOptions.themeCrossfadeFrames(args, rate: parsed.rate)
        let loaded = try PlanOptions.loadThemes(changes, parsed: parsed, decode: true)
        themes = zip(changes, loaded).map { TimedTheme(change: $0, theme: $1) }
        do {
            engine = try SessionEngine(plan: parsed.plan, timeline: timeline, assets: assets)
        } catch {
            throw CommandFailure(error.message)
        }
    }
}
