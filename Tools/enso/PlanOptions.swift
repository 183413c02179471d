import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import CLISupport
import ControlProtocol
import Foundation
import JSONText
import PlaybackService

/// The plan options, spelled the same wherever a plan is given (`enso plan`, `enso render`, `enso play`).
///
/// The plan options are the rows of the table of plan fields (`SessionPlan.fields`, AudioEngine), which the
/// protocol's `start` reads too: parsing fills `SessionPlan.RawValues` through it and checks them with
/// `SessionPlan.validated`, so a bad value is refused for the same reason everywhere, named as the CLI names it
/// (`--volume 1.5 is outside 0...1`; exit 64). Assets: `--bell`/`--ambient` take a
/// bundled asset id or an audio file; an unknown id is a usage error (exit 64, the message lists the
/// known ids), an unreadable file a failure (exit 1).
enum PlanOptions {
    /// The plan options: one per row of the table of plan fields (`SessionPlan.fields`), help derived from it; then
    /// the options of the CLI's own edges (rate, start time, asset pack, seam fix).
    static let specs: [OptionSpec] =
        fieldOptions.map(\.spec) + [rate.spec, start.spec, assets.spec, noSeamFix.spec, salvage.spec]

    /// Exit 64 for the commands that take a plan: bad usage or a plan that cannot be (`render` adds its own).
    static let badPlan = ExitCodeMeaning(
        .usage,
        "Bad usage or a bad plan (\(badPlanCases)).")
    /// What makes a plan bad, as `plan`, `render` and `play` say under EXIT CODES.
    static let badPlanCases =
        "a value out of range, a sitting shorter than its strike group, an until-time too close, an unknown asset id, a --theme-at time outside the session"

    /// The option of each plan field, in the table's order: the parser reads its text in the CLI's syntax for the
    /// field's kind (``value(_:of:)``); ranges and the rules between fields are `SessionPlan.validated`'s, the
    /// protocol's too.
    static let fieldOptions: [Option<SessionPlan.Value>] = SessionPlan.fields.map { field in
        Option(spec(field), convert: { try value($0, of: field) })
    }

    /// The declared option of `field` (`--bell`).
    static func option(_ field: SessionPlan.Field) -> Option<SessionPlan.Value> {
        fieldOptions[SessionPlan.fields.firstIndex { $0.field == field }!]
    }

    /// The engine's rate: the rates an output and the resampler take, as `serve` asks for them.
    static let rate = ServeCommand.rate.help("Engine sample rate; assets are resampled to it.")
    static let start = Option<ClockTime>(
        .value(
            "start", valueName: "HH:MM[:SS]",
            help: "Clock time of the start (default now), for until= and the clock column."),
        convert: { text in
            guard let t = ClockTime(parsing: text) else {
                throw UsageError("--start: '\(text)' is not a clock time (HH:MM or HH:MM:SS)")
            }
            return t
        })
    static let assets = ServeCommand.assets.help("Asset pack folder (default $ENSO_ASSETS, else the bundled pack).")
    static let noSeamFix = Flag(
        "no-seam-fix",
        help:
            "Play an ambient whose loop seam fails verification as it is (default: crossfade the seam, with a warning)."
    )
    static let salvage = Flag(
        "salvage",
        help: "Use a damaged asset file (a stream cut short) as far as it decodes, with a warning (default: refuse it)."
    )

    /// The option of one plan field: its name, value placeholder and help from the table.
    static func spec(_ field: SessionPlan.FieldSpec) -> OptionSpec {
        let valueName: String
        var help = field.summary
        switch field.kind {
        case .duration:
            valueName = "DURATION"
            help += " A duration: 20m, 90s, 1h30m or seconds."
        case .durations:
            valueName = "LIST"
            help += " Durations, comma-separated: 10m,25m."
        case .seconds: valueName = "SECONDS"
        case .gain: valueName = "GAIN"
        case .count: valueName = "K"
        case .asset: valueName = "ID|FILE"
        case .repeatMode: valueName = "MODE"
        }
        let facts = [field.rangeText, defaultText(field).map { "default \($0)" }].compactMap { $0 }
        if !facts.isEmpty { help += " (" + facts.joined(separator: "; ") + ")" }
        // An asset completes to the ids of the pack the tool finds then (`assets list --ids`) and to files.
        let values = field.kind == .asset ? AssetsCommand.idsArguments(assetKind(field)) : []
        return .value(field.option, valueName: valueName, help: help, valuesFrom: values)
    }

    /// What an asset field's id names in a pack: a soundscape for `--ambient`, a bell for `--bell` and
    /// `--interval-bell`.
    static func assetKind(_ field: SessionPlan.FieldSpec) -> AssetPack.Kind {
        field.field == .ambient ? .soundscape : .bell
    }

    /// The default of `field` as the CLI writes it (`20m`, `3`, `singing-bowl`), `nil` when there is none.
    static func defaultText(_ field: SessionPlan.FieldSpec) -> String? {
        switch field.defaultValue {
        case .number(let v): field.kind == .duration ? DurationParser.format(v) : NumberText.plain(v)
        case .count(let n): "\(n)"
        case .text(let t): t
        case .numbers(let a): a.map(DurationParser.format).joined(separator: ",")
        case .repeatMode(let r): r.description
        case .none: nil
        }
    }

    /// A checked plan and its edges.
    struct Parsed {
        var plan: SessionPlan
        var rate: SampleRate
        /// Seconds since local midnight at frame 0.
        var startSecondOfDay: Double
        var assetsDirectory: String?
        /// Crossfade an ambient's failing seam at load (`--no-seam-fix` turns it off).
        var seamFix = true
        /// Use a damaged asset file as far as it decodes (`--salvage`), as `convert --salvage` does.
        var salvage = false
    }

    /// Parses and checks the plan options.
    ///
    /// - Throws: `UsageError` (exit 64) naming the option, the field and its range.
    static func parse(_ args: ParsedArguments) throws -> Parsed {
        var raw = SessionPlan.RawValues()
        for (field, option) in zip(SessionPlan.fields, fieldOptions) {
            guard let value = try args.value(of: option) else { continue }
            field.set(value, in: &raw)
        }
        let plan: SessionPlan
        do {
            plan = try SessionPlan.validated(raw)
        } catch {
            throw UsageError(error.message(.cli))
        }
        let hz = try args.valueOrDefault(of: rate)
        let start = try args.value(of: start).map { Double($0.secondOfDay) } ?? currentSecondOfDay()
        return Parsed(
            plan: plan, rate: SampleRate(checked: hz), startSecondOfDay: start,
            assetsDirectory: try args.value(of: assets), seamFix: !args[noSeamFix], salvage: args[salvage])
    }

    /// `text`, the value of `field`'s option, in the CLI's syntax for its kind.
    ///
    /// - Throws: `UsageError` naming the option when the text is not a duration, a number or a repeat mode.
    static func value(_ text: String, of field: SessionPlan.FieldSpec) throws -> SessionPlan.Value {
        let option = field.name(.cli)
        switch field.kind {
        case .duration:
            guard let s = DurationParser.seconds(text) else {
                throw UsageError("\(option): '\(text)' is not a duration (try 20m, 90s, 1h30m or seconds)")
            }
            return .number(s)
        case .durations:
            return .numbers(
                try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
                    let item = part.trimmingCharacters(in: .whitespaces)
                    guard let s = DurationParser.seconds(item) else {
                        throw UsageError("\(option): '\(item)' is not a duration (try 10m,25m)")
                    }
                    return s
                })
        case .seconds:
            // Seconds as a number or as any duration (`3`, `3s`, `500ms`), as the duration options take them.
            guard let v = DurationParser.seconds(text) else {
                throw UsageError("\(option): '\(text)' is not a number of seconds (try 3, 2.5s or 500ms)")
            }
            return .number(v)
        case .gain:
            guard let v = Double(text) else { throw UsageError("\(option): '\(text)' is not a number") }
            return .number(v)
        case .count:
            guard let n = Int(text) else { throw UsageError("\(option): '\(text)' is not a whole number") }
            return .count(n)
        case .asset:
            return .text(text)
        case .repeatMode:
            do { return .repeatMode(try SessionPlan.Repeat.parse(text)) } catch {
                throw UsageError(error.message(.cli))
            }
        }
    }

    /// The timeline of `parsed` with the bell's decay tail.
    ///
    /// - Throws: `UsageError` for an until-time too close.
    static func timeline(_ parsed: Parsed, bell: LoadedAsset) throws -> SessionTimeline {
        let tail = bell.decayFrames(gain: parsed.plan.bellVolume * parsed.plan.masterVolume)
        let timeline: SessionTimeline
        do {
            timeline = try SessionTimeline(
                plan: parsed.plan, sampleRate: parsed.rate, bellTail: tail, startSecondOfDay: parsed.startSecondOfDay)
        } catch {
            throw UsageError(error.message(.cli))
        }
        // What the plan asks for and will not get, for `plan`, `play` and `render` alike.
        for w in PlanReport.warnings(timeline, .cli) ?? [] { Terminal.err("Warning: \(w)") }
        return timeline
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
