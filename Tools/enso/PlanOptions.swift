import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import CLISupport
import Foundation

/// The plan options, spelled the same wherever a plan is given (`enso plan`, `enso render`, `enso play`).
///
/// Parsing passes the raw values to `SessionPlan.validated`, the same check the JSON protocol uses, so a
/// bad value is rejected with the same message everywhere (exit 64). Assets: `--bell`/`--ambient` take a
/// bundled asset id or an audio file; an unknown id is a usage error (exit 64, the message lists the
/// known ids), an unreadable file a failure (exit 1).
enum PlanOptions {
    static let specs: [OptionSpec] = [
        .value("sit", valueName: "DURATION", help: "Sitting per cycle: 20m, 90s, 1h30m or seconds (1 s ... 24 h; default 20m)."),
        .value("bell", valueName: "ID|FILE", help: "Bell: an asset id or an audio file (default \(SessionPlan.defaultBell))."),
        .value("strikes", valueName: "K", help: "Strikes per group, 1...3 (default 3)."),
        .value("spacing", valueName: "SECONDS", help: "Seconds between the strikes of a group, 0.5...15 (default 3)."),
        .value("breath", valueName: "SECONDS", help: "Pause after a transition group before the next cycle, 0...60 (default 2)."),
        .value("repeat", valueName: "MODE", help: "once, N (1...1000 cycles), forever, or until=HH:MM[:SS], the next such clock time within 24 h (default once)."),
        .value("ambient", valueName: "ID|FILE|NONE", help: "Ambient theme: an asset id, an audio file or none (default none)."),
        .value("ambient-volume", valueName: "GAIN", help: "Ambient gain, 0...1 (default 0.6)."),
        .value("bell-volume", valueName: "GAIN", help: "Bell gain, 0...1 (default 1)."),
        .value("volume", valueName: "GAIN", help: "Master gain, 0...1 (default 1)."),
        .value("fade-in", valueName: "SECONDS", help: "Ambient fade-in at the start, 0...600 (default 5)."),
        .value("fade-out", valueName: "SECONDS", help: "Ambient fade-out after the last strike, 0...600 (default 5)."),
        .value("rate", valueName: "HZ", help: "Engine sample rate, 8000...192000 (default 48000); assets are resampled to it."),
        .value("start", valueName: "HH:MM[:SS]", help: "Clock time of the start (default now), for until= and the clock column."),
        .value("assets", valueName: "DIR", help: "Asset pack folder (default $ENSO_ASSETS, else the bundled pack)."),
        .value("interval", valueName: "DURATION", help: "An interval bell every DURATION of each sitting (5 s ... 24 h), e.g. 10m."),
        .value("interval-at", valueName: "LIST", help: "Interval bells at these times of each sitting, e.g. 10m,25m (at most 100)."),
        .value("interval-bell", valueName: "ID|FILE", help: "The interval bell (default the session bell)."),
        .value("interval-strikes", valueName: "K", help: "Strikes of each interval bell, 1...3, spaced like the groups (default 1)."),
        .value("interval-volume", valueName: "GAIN", help: "The interval bell's gain on top of --bell-volume, 0...1 (default 1)."),
        .flag("no-seam-fix", help: "Play an ambient whose loop seam fails verification as it is (default: crossfade the seam, with a warning)."),
    ]

    /// A checked plan and its edges.
    struct Parsed {
        var plan: SessionPlan
        var rate: SampleRate
        /// Seconds since local midnight at frame 0.
        var startSecondOfDay: Double
        var assetsDirectory: String?
        /// Crossfade an ambient's failing seam at load (`--no-seam-fix` turns it off).
        var seamFix = true
    }

    /// The CLI option that sets `field`.
    static func option(for field: SessionPlan.Field) -> String {
        switch field {
        case .sitting: return "sit"
        case .bell: return "bell"
        case .strikes: return "strikes"
        case .strikeSpacing: return "spacing"
        case .breath: return "breath"
        case .ambient: return "ambient"
        case .ambientVolume: return "ambient-volume"
        case .bellVolume: return "bell-volume"
        case .masterVolume: return "volume"
        case .fadeIn: return "fade-in"
        case .fadeOut: return "fade-out"
        case .repeatCount: return "repeat"
        case .sampleRate: return "rate"
        case .interval: return "interval"
        case .intervalAt: return "interval-at"
        case .intervalBell: return "interval-bell"
        case .intervalStrikes: return "interval-strikes"
        case .intervalVolume: return "interval-volume"
        }
    }

    /// Parses and checks the plan options.
    ///
    /// - Throws: `UsageError` (exit 64) naming the option, the field and its range.
    static func parse(_ args: ParsedArguments) throws -> Parsed {
        var raw = SessionPlan.RawValues()
        if let text = args.value("sit") {
            guard let s = DurationParser.seconds(text) else {
                throw UsageError("--sit: '\(text)' is not a duration (try 20m, 90s, 1h30m or seconds)")
            }
            raw.sitting = s
        }
        raw.bell = args.value("bell")
        raw.strikes = try wholeNumber(args, "strikes")
        raw.strikeSpacing = try number(args, "spacing")
        raw.breath = try number(args, "breath")
        raw.ambient = args.value("ambient")
        raw.ambientVolume = try number(args, "ambient-volume")
        raw.bellVolume = try number(args, "bell-volume")
        raw.masterVolume = try number(args, "volume")
        raw.fadeIn = try number(args, "fade-in")
        raw.fadeOut = try number(args, "fade-out")
        if let text = args.value("repeat") { raw.repeatMode = try repeatMode(text) }
        if let text = args.value("interval") {
            guard let s = DurationParser.seconds(text) else {
                throw UsageError("--interval: '\(text)' is not a duration (try 10m, 90s or seconds)")
            }
            raw.interval = s
        }
        if let text = args.value("interval-at") {
            raw.intervalAt = try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
                let item = part.trimmingCharacters(in: .whitespaces)
                guard let s = DurationParser.seconds(item) else {
                    throw UsageError("--interval-at: '\(item)' is not a duration (try 10m,25m)")
                }
                return s
            }
        }
        raw.intervalBell = args.value("interval-bell")
        raw.intervalStrikes = try wholeNumber(args, "interval-strikes")
        raw.intervalVolume = try number(args, "interval-volume")
        let plan: SessionPlan
        do {
            plan = try SessionPlan.validated(raw)
        } catch {
            throw UsageError("--\(option(for: error.field)): \(error.message)")
        }
        let hz = try args.int("rate", in: 8000...192_000) ?? 48_000
        var start = currentSecondOfDay()
        if let text = args.value("start") {
            guard let t = ClockTime(parsing: text) else {
                throw UsageError("--start: '\(text)' is not a clock time (HH:MM or HH:MM:SS)")
            }
            start = Double(t.secondOfDay)
        }
        return Parsed(
            plan: plan, rate: SampleRate(checked: hz), startSecondOfDay: start, assetsDirectory: args.value("assets"),
            seamFix: !args.flag("no-seam-fix"))
    }

    static func repeatMode(_ text: String) throws -> SessionPlan.Repeat {
        switch text {
        case "once": return .once
        case "forever": return .untilStopped
        default:
            if text.hasPrefix("until=") {
                let clock = String(text.dropFirst("until=".count))
                guard let t = ClockTime(parsing: clock) else {
                    throw UsageError("--repeat: '\(clock)' is not a clock time (until=HH:MM or until=HH:MM:SS)")
                }
                return .until(t)
            }
            guard let n = Int(text) else {
                throw UsageError("--repeat: '\(text)' is not once, a count, forever or until=HH:MM[:SS]")
            }
            return .times(n)
        }
    }

    /// The timeline of `parsed` with the bell's decay tail.
    ///
    /// - Throws: `UsageError` for an until-time too close.
    static func timeline(_ parsed: Parsed, bell: LoadedAsset) throws -> SessionTimeline {
        let tail = bell.decayFrames(gain: parsed.plan.bellVolume * parsed.plan.masterVolume)
        do {
            return try SessionTimeline(
                plan: parsed.plan, sampleRate: parsed.rate, bellTail: tail, startSecondOfDay: parsed.startSecondOfDay)
        } catch {
            throw UsageError("--\(option(for: error.field)): \(error.message)")
        }
    }

    private static func number(_ args: ParsedArguments, _ name: String) throws -> Double? {
        guard let text = args.value(name) else { return nil }
        guard let v = Double(text) else { throw UsageError("--\(name): '\(text)' is not a number") }
        return v
    }

    private static func wholeNumber(_ args: ParsedArguments, _ name: String) throws -> Int? {
        guard let text = args.value(name) else { return nil }
        guard let v = Int(text) else { throw UsageError("--\(name): '\(text)' is not a whole number") }
        return v
    }

    private static func currentSecondOfDay() -> Double {
        let now = Date()
        let c = Calendar.current.dateComponents([.hour, .minute, .second, .nanosecond], from: now)
        let h: Int = c.hour ?? 0
        let m: Int = c.minute ?? 0
        let s: Int = c.second ?? 0
        let whole = Double(h * 3600 + m * 60 + s)
        return whole + Double(c.nanosecond ?? 0) / 1e9
    }
}
