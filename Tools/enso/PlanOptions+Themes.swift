import AssetLoading
import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import CLISupport
import Foundation

extension PlanOptions {
    /// The scheduled theme change options of `enso plan`, `enso render` and `enso play`.
    static let themeSpecs: [OptionSpec] = [themeAt.spec, themeCrossfadeOption.spec]

    static let themeAt = Option<String>(
        "theme-at", valueName: "TIME=ID|FILE|none", repeatable: true,
        valuesFrom: AssetsCommand.idsArguments(.soundscape),
        help: "Switch the ambient theme TIME after the start (e.g. 1m10s=stream); repeatable.")

    /// `--theme-crossfade`: the theme change's crossfade, its range and default shared with the protocol's `set`.
    static let themeCrossfade = SessionPlan.themeCrossfade

    /// `--theme-crossfade`, declared from ``themeCrossfade``.
    static let themeCrossfadeOption = Option<Double>(
        themeCrossfade.option!, valueName: "SECONDS", range: themeCrossfade.range,
        default: themeCrossfade.defaultValue, help: "Crossfade of each --theme-at change.")

    /// One `--theme-at` change.
    struct ThemeChange: Equatable {
        /// The session frame the crossfade starts on.
        var frame: FramePosition
        /// The soundscape id or file switched to, `nil` for none.
        var theme: String?
    }

    /// The `--theme-at` changes, sorted by frame (equal frames keep their order on the command line).
    ///
    /// - Throws: `UsageError` (exit 64) naming `--theme-at` for a value that is not `TIME=ID`, a time that
    ///   is not a duration, negative, or at or after the session end.
    static func themeChanges(_ args: ParsedArguments, rate: SampleRate, timeline: SessionTimeline) throws
        -> [ThemeChange]
    {
        var changes: [ThemeChange] = []
        for text in try args.allValues(of: themeAt) {
            guard let eq = text.firstIndex(of: "="), !text[text.index(after: eq)...].isEmpty else {
                throw UsageError("--theme-at: '\(text)' is not TIME=ID (e.g. 1m10s=stream)")
            }
            let timeText = String(text[..<eq])
            let id = String(text[text.index(after: eq)...])
            guard let seconds = DurationParser.seconds(timeText) else {
                throw UsageError("--theme-at: '\(timeText)' in '\(text)' is not a duration (try 1m10s, 90s or seconds)")
            }
            guard seconds >= 0 else {
                throw UsageError(
                    "--theme-at: '\(text)' is before the start; the time counts from the start (0 or more)")
            }
            let frame = rate.frames(seconds: seconds)
            if let end = timeline.endFrame, frame >= end {
                throw UsageError(
                    "--theme-at: '\(text)' is at or after the session end (\(PlanCommand.offsetText(rate.seconds(frames: end))))"
                )
            }
            changes.append(ThemeChange(frame: frame, theme: AssetName.isSilence(id) ? nil : id))
        }
        // A stable sort: equal frames keep the command-line order.
        return changes.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(
            \.element)
    }

    /// `--theme-crossfade` in frames at `rate` (default 3 s).
    ///
    /// - Throws: `UsageError` (exit 64) naming `--theme-crossfade` for a value outside 0.05...60 s
    ///   (``SessionPlan/themeCrossfade``).
    static func themeCrossfadeFrames(_ args: ParsedArguments, rate: SampleRate) throws -> Int {
        let seconds = try args.valueOrDefault(of: themeCrossfadeOption)
        return Int(rate.frames(seconds: seconds))
    }

    /// Checks each change's theme and, when `decode` is true, decodes and resamples it (once per distinct
    /// theme) so the render loop only hands it over.
    ///
    /// - Returns: one asset per change (`nil` for none, and for every change when `decode` is false).
    /// - Throws: `UsageError` (exit 64) naming `--theme-at` for an unknown id; `CommandFailure` (exit 1)
    ///   for an unreadable file or a missing asset pack.
    static func loadThemes(_ changes: [ThemeChange], parsed: Parsed, decode: Bool) throws -> [LoadedAsset?] {
        var pack: AssetPack?
        var loaded: [String: LoadedAsset] = [:]
        var out: [LoadedAsset?] = []
        for change in changes {
            guard let theme = change.theme else {
                out.append(nil)
                continue
            }
            var path = theme
            var loop = EngineAssetLoader.ThemeLoop.file
            var gain = 0.0
            if case .id(let id) = AssetSource(theme) {
                (path, loop, gain) = try resolve(
                    id, kind: .soundscape, label: "--theme-at", parsed: parsed, pack: &pack)
            } else {
                try requireFile(path, label: "--theme-at")
            }
            guard decode else {
                out.append(nil)
                continue
            }
            if let asset = loaded[theme] {
                out.append(asset)
            } else {
                let asset = try load(
                    path, as: theme, label: "--theme-at", rate: parsed.rate, loop: loop, gainDB: gain, looping: true,
                    seamFix: parsed.seamFix, salvage: parsed.salvage)
                loaded[theme] = asset
                out.append(asset)
            }
        }
        return out
    }
}
