import ControlProtocol
import Foundation
import Testing

/// docs/protocol.md describes every message the types define: each command, event and error code has its row, and
/// every field of every reply and event is named (as `` `field` ``) in that row or table. A field added to a type
/// without its line in the docs fails here.
@Suite struct ProtocolDocsTests {
    static let docs: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The table rows of the section under `heading` (up to the next heading).
    static func rows(under heading: String) -> [String] {
        guard let start = docs.range(of: "\n" + heading + "\n") else { return [] }
        var rows: [String] = []
        for line in docs[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { break }
            if line.hasPrefix("| ") { rows.append(String(line)) }
        }
        return rows
    }

    /// The row whose first cell is `` `name` ``.
    static func row(_ name: String, in rows: [String]) -> String? { rows.first { $0.hasPrefix("| `\(name)`") } }

    /// The encoded keys of `message`, after checking that the sample sets every stored field (so none is skipped).
    static func keys(of message: some Encodable, flattened: Bool = false) -> [String] {
        let keys = MessageEncoder.value(message).objectValue?.keys.sorted() ?? []
        // Observation messages write their values flat (``ObservedValues``): more keys than stored fields.
        if !flattened && !(message is StateChanged || message is ObserveReply) {
            #expect(
                keys.count == storedFields(of: message),
                "the sample of \(type(of: message)) leaves a field out: \(keys)")
        }
        return keys
    }

    /// The fields `message` stores; a timed event's own and its time's four, written flat beside them; a start
    /// reply's own and its `session.started` event's, written flat beside them.
    static func storedFields(of message: some Encodable) -> Int {
        let children = Mirror(reflecting: message).children
        if let reply = message as? StartReply { return children.count - 1 + storedFields(of: reply.started) }
        guard children.map(\.label) == ["fields", "time"], let fields = children.first?.value else {
            return children.count
        }
        return Mirror(reflecting: fields).children.count + Mirror(reflecting: Samples.time).children.count
    }

    static func expectNamed(_ keys: [String], in text: String?, _ what: String) {
        guard let text else {
            Issue.record("docs/protocol.md has no row for \(what)")
            return
        }
        for key in keys where !text.contains("`\(key)`") {
            Issue.record("docs/protocol.md does not name \(what)'s field `\(key)`")
        }
    }

    @Test func everyCommandHasARowNamingEveryReplyField() {
        let rows = Self.rows(under: "## Commands")
        for name in ControlCommand.names {
            guard let sample = Samples.replies[name] else {
                Issue.record("no sample reply for \(name): add one to Samples.replies")
                continue
            }
            if name == "status" {
                #expect(Self.row(name, in: rows) != nil)
                continue
            }
            Self.expectNamed(Self.keys(of: sample), in: Self.row(name, in: rows), "`\(name)`")
        }
    }

    @Test func statusTableNamesEveryField() {
        let table = Self.rows(under: "### `status`").joined(separator: "\n")
        let idle = Self.docs.components(separatedBy: "\n").first { $0.hasPrefix("Idle: ") }
        Self.expectNamed(Self.keys(of: Samples.status, flattened: true), in: table + (idle ?? ""), "`status`")
        Self.expectNamed(Self.keys(of: Samples.sessionStatus), in: table, "`status`")
        let next = table.components(separatedBy: "\n").first { $0.hasPrefix("| `nextEvent`") }
        for key in Self.keys(of: Samples.nextEvent) {
            #expect(next?.contains(key) == true, "status `nextEvent` does not name `\(key)`")
        }
    }

    @Test func everyEventHasARowNamingEveryField() {
        let rows = Self.rows(under: "## Events")
        #expect(Samples.events.map(\.kind) == EventKind.all, "one sample per event kind, in documentation order")
        for event in Samples.events {
            // The event's message (the enum's payload), so the sample's completeness is checked too.
            guard let message = Mirror(reflecting: event).children.first?.value as? any Encodable else {
                Issue.record("\(event.kind) carries no message")
                continue
            }
            let keys = Self.keys(of: message)
            Self.expectNamed(keys, in: Self.row(event.kind.rawValue, in: rows), "event `\(event.kind)`")
        }
    }

    @Test func theHelloExampleHasEveryField() throws {
        let hello = Hello(server: "enso 0.1.0", output: "null", sampleRate: 48000)
        // The example in "Messages": from its first line to the end of its code block.
        let start = try #require(Self.docs.range(of: #"{"event":"hello","protocol""#))
        let example = Self.docs[start.lowerBound...].components(separatedBy: "```")[0]
        for key in hello.json.objectValue?.keys.sorted() ?? [] {
            #expect(example.contains("\"\(key)\":"), "the hello example lacks \(key)")
        }
        #expect(try hello.json.decode(Hello.self) == hello)
    }

    @Test func everyErrorCodeHasARow() {
        let rows = Self.rows(under: "## Error codes")
        for code in ErrorCode.all { #expect(Self.row(code.rawValue, in: rows) != nil, "no row for \(code)") }
    }

    @Test func planTablesNameEveryField() {
        let plan = Self.rows(under: "### Plan fields (`start`)").joined(separator: "\n")
        // The plan's own fields are checked against the table of plan fields in PlaybackServiceTests.
        Self.expectNamed(["stopBell", "seamFix"], in: plan, "the plan")
        let commands = Self.rows(under: "## Commands")
        let event = Self.keys(of: Samples.planReport.events[0])
        Self.expectNamed(event, in: Self.row("plan", in: commands), "`plan`'s events")
    }

    @Test func journalRecordExampleHasEveryField() {
        let record = Self.keys(of: Samples.record)
        let example = Self.docs.components(separatedBy: "## The session journal").last ?? ""
        for key in record { #expect(example.contains("\"\(key)\":"), "the journal example lacks \(key)") }
    }
}

/// One message of each type with every field set (``ProtocolDocsTests/keys(of:flattened:)`` checks that).
enum Samples {
    static let at = "2026-11-29T18:45:42.106Z"
    static let time = EventTime(frame: 1, outputFrame: 2, at: at, endsAt: at)

    static let plan = PlanFields(values: ["sitting": 1200], stopBell: true, seamFix: true)
    static let stopReply = {
        var r = StopReply(sessionId: "a")
        r.previewId = "p"
        return r
    }()
    static let observed = ObservedState(
        sessionId: "a", state: "playing", paused: false, theme: "rain", volumes: (1, 0.6, 1), endsAt: at,
        nextBellAt: at, nextBellGroup: "closing", clockSettled: true)

    static let record = SessionRecord(
        id: "a", start: at, end: at, plannedSeconds: 60, satSeconds: 60, cyclesCompleted: 1, outcome: .completed,
        bell: "singing-bowl", theme: "rain")
    static let started = SessionStarted(
        sessionId: "a", plan: plan, startsAt: at, endsAt: at, endFrame: 48000, sampleRate: 48000)
    static let nextEvent = SessionStatus.NextEvent(
        kind: "strike", frame: 3, cycle: 1, strike: 1, at: at, group: "interval")
    static let sessionStatus = SessionStatus(
        sessionId: "a", plan: plan, sampleRate: 48000, theme: "rain", volumes: (1, 0.6, 1), positionFrames: 1,
        positionSeconds: 0, outputFrame: 2, startsAt: at, endsAt: at, endFrame: 3, remainingSeconds: 1, satSeconds: 0,
        cycle: 1, cyclesCompleted: 0, nextEvent: nextEvent, nextBell: (at, "opening", 3), clockSettled: true, xruns: 0)
    static let status = StatusReply(state: "playing", paused: false, output: "null", now: at, session: sessionStatus)
    static let planReport = PlanReport(
        sampleRate: 48000, endFrame: 3, duration: 1, cycles: 1, repeat: "once",
        events: [
            .init(
                kind: "strike", frame: 0, cycle: 1, strike: 1, offset: 0, clock: "07:00:00", theme: "rain",
                group: "interval")
        ], warnings: ["w"])

    static let replies: [String: any Encodable & Sendable] = [
        "start": StartReply(started, plannedSeconds: 1, warnings: ["w"]),
        "pause": SessionReply(sessionId: "a"), "resume": SessionReply(sessionId: "a"),
        "stop": stopReply, "strike": SessionReply(sessionId: "a"),
        "set": SetReply(sessionId: "a", ignoredFields: ["x"], warnings: ["w"]),
        "status": status,
        "assets": AssetsReply(
            bells: [], themes: [], loaded: [], cachedBytes: 0, cacheLimitBytes: 1, pack: "p", packProblem: "q"),
        "plan": planReport,
        "devices": DevicesReply(devices: []),
        "preview": PreviewReply(
            previewId: "p", kind: "bell", asset: "b", seconds: 1, startsAt: at, endsAt: at, warnings: ["w"]),
        "prefetch": PrefetchReply(
            prefetched: [.init(asset: "b", kind: "bell", seconds: 1)], sampleRate: 48000, cachedBytes: 1,
            cacheLimitBytes: 2, warnings: ["w"]),
        "observe": ObserveReply(observing: Set(StateProperty.all), state: observed),
        "unobserve": ObserveReply(observing: Set(StateProperty.all), state: observed),
        "sessions.list": SessionsListReply(records: [record], warnings: []),
        "sessions.markSynced": MarkSyncedReply(marked: [], missing: []),
        "subscribe": SubscriptionReply([]), "unsubscribe": SubscriptionReply([]),
        "shutdown": ShutdownReply(stopping: true),
    ]

    static let events: [ProtocolEvent] = [
        .sessionStarted(started),
        .cycleStarted(CycleStarted(sessionId: "a", cycle: 1, time: time)),
        .bell(BellStruck(sessionId: "a", cycle: 1, group: "opening", strike: 1, time: time)),
        .breathStarted(BreathStarted(sessionId: "a", cycle: 1, seconds: 2, time: time)),
        .sessionPaused(SessionPaused(sessionId: "a", time: time)),
        .sessionResumed(SessionResumed(sessionId: "a", pausedSeconds: 1, time: time)),
        .themeChanged(ThemeChanged(sessionId: "a", theme: "rain", time: time)),
        .streamUnderrun(StreamUnderrun(sessionId: "a", theme: "night-forest", missedFrames: 4_800, time: time)),
        .sessionEnded(SessionEnded(sessionId: "a", record: record, journalError: ProtocolError(.failure, "disk full"))),
        .xrun(Xrun(sessionId: "a", count: 1, at: at)),
        .deviceError(DeviceFailed(sessionId: "a", error: ProtocolError(.unavailable, "gone"))),
        .stateChanged(StateChanged(changed: [.volume], state: observed, observed: StateProperty.all)),
        .previewEnded(
            PreviewEnded(previewId: "p", reason: "failed", at: at, error: ProtocolError(.unavailable, "gone"))),
    ]
}
