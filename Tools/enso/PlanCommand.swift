import AudioCore
import AudioEngine
import CLISupport
import ControlProtocol
import Foundation
import JSONText
import PlaybackService

/// `enso plan [plan options] [--json]`: the session's timeline, event by event.
enum PlanCommand {
    static let command = Command(
        name: "plan",
        abstract: "Show a session's timeline: every strike, cycle boundary, breath and fade, with its frame.",
        discussion: """
            Each event is shown with its frame (at --rate), its offset from the start and its clock time
            (from --start, default now). A plan that repeats forever shows its first two cycles and no end.
            The bell is decoded to find how long it rings after the last strike (the session ends when the
            fade-out is done and the bell has decayed below -60 dBFS). Interval bells (--interval, --interval-at)
            show as strikes of group "interval" (JSON "group": "interval"); one whose strikes would overlap the
            opening, transition or closing group is skipped. Each --theme-at change shows as a
            theme-change event on the frame its crossfade starts (in JSON with its "theme", absent for none).
            A plan of more than \(maximumListed) events (a long sitting with frequent interval bells, repeated)
            lists its first \(maximumListed) and says it holds more; --json refuses it (exit 1).
            """,
        options: PlanOptions.specs + PlanOptions.themeSpecs + [json.spec],
        exitCodes: [
            ExitCodeMeaning(.success, "The timeline was shown (its first \(maximumListed) events when it has more)."),
            ExitCodeMeaning(
                .failure,
                "An asset file could not be read, no asset pack was found, or --json was asked for a plan of more "
                    + "than \(maximumListed) events."),
            PlanOptions.badPlan,
        ],
        run: { args, _ in try run(args) })

    static let json = Flag("json", help: "Print the timeline as JSON.")

    /// The most events listed (``PlanReport/mostEventsListed``, the protocol's bound): a table lists the first ones
    /// and says the plan holds more, `--json` refuses (a JSON timeline cut short would read as the whole).
    static let maximumListed = PlanReport.mostEventsListed

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        let parsed = try PlanOptions.parse(args)
        let assets = try PlanOptions.loadAssets(parsed, includeAmbient: false)
        let timeline = try PlanOptions.timeline(parsed, bell: assets.bell)
        let rate = parsed.rate
        func clock(_ frame: Int64) -> String {
            PlanReport.clock(frame, rate: rate, startSecondOfDay: parsed.startSecondOfDay)
        }
        let changes = try PlanOptions.themeChanges(args, rate: rate, timeline: timeline)
        _ = try PlanOptions.themeCrossfadeFrames(args, rate: rate)
        _ = try PlanOptions.loadThemes(changes, parsed: parsed, decode: false)
        let report = PlanReport(
            timeline: timeline, plan: parsed.plan, startSecondOfDay: parsed.startSecondOfDay,
            themeChanges: changes.map { PlanReport.ThemeChange(frame: $0.frame, theme: $0.theme) }, frontEnd: .cli,
            atMost: maximumListed)
        let more = report.events.count > maximumListed
        let reports = report.events.prefix(maximumListed)
        if args[json] {
            if more {
                throw CommandFailure(
                    "the plan holds more than \(maximumListed) events, too many to print as JSON; ask for fewer cycles "
                        + "(--repeat) or fewer interval bells, or leave out --json to list the first \(maximumListed)")
            }
            try JSONOutput.print(report)
            return .success
        }
        let p = parsed.plan
        var cycles =
            (timeline.cycleCount.map { "\($0) cycle\($0 == 1 ? "" : "s")" } ?? "cycles until stopped")
            + " of \(DurationParser.format(p.sitting))"
        // An until-plan's last cycle ends at its clock time: its own length (a 10m plan until 07:00:20 sits 20 s).
        if let n = timeline.cycleCount, timeline.untilFrame != nil {
            let last = rate.seconds(frames: timeline.cycleEnd(n) - timeline.cycleStart(n))
            if abs(last - p.sitting) >= 0.001 {
                cycles =
                    n == 1
                    ? "1 cycle of \(DurationParser.format(last)) (\(DurationParser.format(p.sitting)) cut by until)"
                    : "\(n) cycles of \(DurationParser.format(p.sitting)), the last \(DurationParser.format(last))"
            }
        }
        // The interval bells, when the plan rings them: how often (or when: the two options exclude each other)
        // and with which bell.
        let when =
            p.interval.map { "every \(DurationParser.format($0))" }
            ?? "at " + p.intervalAt.map(DurationParser.format).joined(separator: ",")
        let intervals =
            p.hasIntervals
            ? ", interval bell \(p.intervalBell ?? p.bell) \(when) "
                + "(\(p.intervalStrikes) strike\(p.intervalStrikes == 1 ? "" : "s"))"
            : ""
        Terminal.out(
            "\(cycles), \(p.strikes) strike\(p.strikes == 1 ? "" : "s") "
                + "\(NumberText.plain(p.strikeSpacing)) s apart, \(NumberText.plain(p.breath)) s breath, bell \(p.bell)"
                + "\(intervals), ambient \(p.ambient ?? "none"), \(rate.hertz) Hz")
        var table = TextTable(
            headers: ["event", "cycle", "strike", "frame", "offset", "clock"],
            alignments: [.left, .right, .right, .right, .right, .left])
        for r in reports {
            table.append([
                r.kind == "theme-change"
                    ? "theme-change to \(r.theme ?? "none")" : r.group == "interval" ? "strike (interval)" : r.kind,
                "\(r.cycle)", r.strike > 0 ? "\(r.strike)" : "", "\(r.frame)", offsetText(r.offset), r.clock,
            ])
        }
        Terminal.out(table.render())
        if more {
            Terminal.out(
                "… more events not listed: the plan holds more than \(maximumListed); the first \(maximumListed) are shown"
            )
        }
        if let end = timeline.endFrame {
            Terminal.out("Total: \(offsetText(rate.seconds(frames: end))) (\(end) frames), ends at \(clock(end))")
        } else {
            Terminal.out("Repeats until stopped (first two cycles shown).")
        }
        return .success
    }

    /// `H:MM:SS.mmm`.
    static func offsetText(_ seconds: Double) -> String {
        let ms = Int64((seconds * 1000).rounded())
        let s = ms / 1000
        return String(format: "%lld:%02lld:%02lld.%03lld", s / 3600, (s / 60) % 60, s % 60, ms % 1000)
    }
}
