import ControlProtocol
import Testing

/// A service that answers every command with fixed typed replies and keeps what it was asked, so the transcript
/// pins the dispatcher's decoding and the replies' wire form (codes, fields, nulls, wording front ends may show).
final class EchoService: ControlService {
    var plans: [PlanFields] = []
    var sets: [SetFields] = []
    static let session = "6b9bdc95"

    func start(_ plan: PlanFields) throws(ProtocolError) -> StartReply {
        plans.append(plan)
        let started = SessionStarted(
            sessionId: Self.session, plan: plan, startsAt: "2026-11-29T18:45:41.935Z", endsAt: nil, endFrame: nil,
            sampleRate: 48000)
        return StartReply(started, plannedSeconds: nil, warnings: nil)
    }
    func pause() throws(ProtocolError) -> SessionReply { SessionReply(sessionId: Self.session) }
    func resume() throws(ProtocolError) -> SessionReply { throw ProtocolError(.notPlaying, "no session is playing") }
    func stop(bell: Bool?) throws(ProtocolError) -> StopReply { StopReply(sessionId: Self.session) }
    func set(_ fields: SetFields) throws(ProtocolError) -> SetReply {
        sets.append(fields)
        return SetReply(sessionId: Self.session, ignoredFields: fields.ignoredFields, warnings: nil)
    }
    func strike(bell: String?) throws(ProtocolError) -> SessionReply { SessionReply(sessionId: Self.session) }
    func status() -> StatusReply {
        StatusReply(state: "idle", paused: false, output: "null", now: "2026-11-29T18:45:41.932Z", session: nil)
    }
    func listAssets() -> AssetsReply {
        AssetsReply(
            bells: [.init(id: "singing-bowl", name: "Singing Bowl")], themes: [], loaded: [], cachedBytes: 0,
            cacheLimitBytes: 268_435_456, pack: nil, packProblem: "no asset pack")
    }
    func plan(_ plan: PlanFields) throws(ProtocolError) -> PlanReport {
        PlanReport(sampleRate: 48000, endFrame: nil, duration: nil, cycles: nil, repeat: "forever", events: [])
    }
    func devices() throws(ProtocolError) -> DevicesReply {
        DevicesReply(devices: [.init(name: "null", description: [])])
    }
    func preview(_ fields: PreviewFields) throws(ProtocolError) -> PreviewReply {
        guard case .bell(let bell) = fields.sound else { throw ProtocolError(.busy, "a session is playing") }
        return PreviewReply(
            previewId: "p1", kind: "bell", asset: bell, seconds: 9.5, startsAt: "2026-11-29T18:45:41.935Z",
            endsAt: "2026-11-29T18:45:51.605Z")
    }
    func prefetch(_ fields: PrefetchFields) throws(ProtocolError) -> PrefetchReply {
        PrefetchReply(
            prefetched: fields.bells.map { .init(asset: $0, kind: "bell", seconds: 9.5) }, sampleRate: 48000,
            cachedBytes: 3_648_000, cacheLimitBytes: 268_435_456)
    }
    func observedState() -> ObservedState {
        ObservedState(
            sessionId: Self.session, state: "playing", paused: false, theme: "rain", volumes: (1, 0.6, 1),
            endsAt: "2026-11-29T19:05:41.935Z", nextBellAt: "2026-11-29T19:05:41.935Z", nextBellGroup: "closing",
            clockSettled: true)
    }
    func sessionsList(_ query: SessionsQuery) throws(ProtocolError) -> SessionsListReply {
        SessionsListReply(records: [], warnings: [])
    }
    func sessionsMarkSynced(ids: [String]) throws(ProtocolError) -> MarkSyncedReply {
        MarkSyncedReply(marked: ids.filter { $0 == Self.session }, missing: ids.filter { $0 != Self.session })
    }
    func requestShutdown() -> ShutdownReply { ShutdownReply(stopping: false) }
}

/// Request lines and the exact reply lines the protocol layer makes for them, through the real dispatcher.
@Suite struct GoldenTranscriptTests {
    private func reply(_ line: String, _ dispatcher: inout RequestDispatcher<EchoService>) -> String {
        var framer = LineFramer(limit: 96)
        var frames = framer.append(Array((line + "\n").utf8))
        if frames.isEmpty, let last = framer.finish() { frames = [last] }
        guard let frame = frames.first else { return "" }
        return MessageEncoder.encode(dispatcher.reply(to: frame).json)
    }

    @Test func transcript() {
        let service = EchoService()
        var dispatcher = RequestDispatcher(service: service)
        let golden: [(String, String)] = [
            (
                #"{"id":1,"command":"status"}"#,
                #"{"data":{"now":"2026-11-29T18:45:41.932Z","output":"null","paused":false,"state":"idle"},"id":1,"ok":true}"#
            ),
            (#"{"command":"pause","extra":[1,2,3]}"#, #"{"data":{"sessionId":"6b9bdc95"},"ok":true}"#),
            (
                #"{"id":"s","command":"start","sitting":1200,"strikes":2,"repeat":"until=06:30","fadeIn":0}"#,
                #"{"data":{"endFrame":null,"endsAt":null,"ignoredFields":[],"#
                    + #""plan":{"fadeIn":0,"repeat":"until=06:30","sitting":1200,"strikes":2},"#
                    + #""plannedSeconds":null,"sampleRate":48000,"sessionId":"6b9bdc95","startsAt":"2026-11-29T18:45:41.935Z"},"#
                    + #""id":"s","ok":true}"#
            ),
            (
                #"{"id":2,"command":"start","sitting":60,"stopBell":"no"}"#,
                #"{"error":{"code":"invalid-field","field":"stopBell","message":"stopBell: must be true or false, not string"},"id":2,"ok":false}"#
            ),
            (
                #"{"id":3,"command":"set","volume":1.5}"#,
                #"{"error":{"code":"invalid-field","field":"volume","message":"volume 1.5 is outside 0...1"},"id":3,"ok":false}"#
            ),
            (
                #"{"id":4,"command":"set","volume":0.25,"colour":"red"}"#,
                #"{"data":{"ignoredFields":["colour"],"sessionId":"6b9bdc95"},"id":4,"ok":true}"#
            ),
            (
                #"{"id":"r","command":"resume"}"#,
                #"{"error":{"code":"not-playing","message":"no session is playing"},"id":"r","ok":false}"#
            ),
            (
                #"{"id":5,"command":"sessions.markSynced","ids":["6b9bdc95","nope"]}"#,
                #"{"data":{"marked":["6b9bdc95"],"missing":["nope"]},"id":5,"ok":true}"#
            ),
            (
                #"{"id":"u","command":"unsubscribe","events":["bell","xrun","cycle.started","breath.started"]}"#,
                #"{"data":{"events":["session.started","session.paused","session.resumed","theme.changed","stream.underrun","#
                    + #""session.ended","#
                    + #""device.error","state.changed","preview.ended"]},"id":"u","ok":true}"#
            ),
            (
                #"{"id":"d","command":"devices"}"#,
                #"{"data":{"devices":[{"description":[],"name":"null"}]},"id":"d","ok":true}"#
            ),
            (
                #"{"id":"o","command":"observe","properties":["volume","endsAt"]}"#,
                #"{"data":{"endsAt":"2026-11-29T19:05:41.935Z","observing":["volume","endsAt"],"sessionId":"6b9bdc95","volume":1},"#
                    + #""id":"o","ok":true}"#
            ),
            (
                #"{"id":"o2","command":"observe","properties":["endsAt","pause"]}"#,
                #"{"error":{"code":"invalid-field","field":"properties","message":"properties: unknown property 'pause' (known: "#
                    + #"state, paused, theme, volume, ambientVolume, bellVolume, endsAt, nextBellAt, nextBellGroup, clockSettled)"},"#
                    + #""id":"o2","ok":false}"#
            ),
            (
                #"{"id":"o3","command":"unobserve","properties":["volume"]}"#,
                #"{"data":{"endsAt":"2026-11-29T19:05:41.935Z","observing":["endsAt"],"sessionId":"6b9bdc95"},"id":"o3","ok":true}"#
            ),
            (
                #"{"id":"p","command":"preview","bell":"singing-bowl"}"#,
                #"{"data":{"asset":"singing-bowl","endsAt":"2026-11-29T18:45:51.605Z","kind":"bell","previewId":"p1","seconds":9.5,"#
                    + #""startsAt":"2026-11-29T18:45:41.935Z"},"id":"p","ok":true}"#
            ),
            (
                #"{"id":"p2","command":"preview","bell":"singing-bowl","theme":"rain"}"#,
                #"{"error":{"code":"invalid-request","message":"preview plays a bell or a theme, not both"},"id":"p2","ok":false}"#
            ),
            (
                #"{"id":6,"command":"fly"}"#,
                #"{"error":{"code":"unknown-command","message":"unknown command 'fly' (known: start, pause, resume, stop, set, strike, status, assets, plan, devices, preview, prefetch, sessions.list, sessions.markSynced, subscribe, unsubscribe, observe, unobserve, shutdown)"},"id":6,"ok":false}"#
            ),
            (
                #"{"id":7}"#,
                #"{"error":{"code":"invalid-request","message":"the request has no \"command\" field"},"id":7,"ok":false}"#
            ),
            (
                "[]",
                #"{"error":{"code":"invalid-request","message":"a request must be a JSON object, not array"},"ok":false}"#
            ),
            ("{oops", #"{"error":{"code":"invalid-request","message":"the line is not valid JSON"},"ok":false}"#),
            (
                String(repeating: "x", count: 120),
                #"{"error":{"code":"line-too-long","message":"line dropped: over 65536 bytes (97 bytes read before giving up)"},"ok":false}"#
            ),
            (#"{"id":"bye","command":"shutdown"}"#, #"{"data":{"stopping":false},"id":"bye","ok":true}"#),
        ]
        for (request, expected) in golden {
            #expect(reply(request, &dispatcher) == expected, "\(request)")
        }
        #expect(service.sets.map(\.volume) == [0.25])
        #expect(service.plans.map { $0.values["sitting"] } == [1200])
        #expect(!dispatcher.subscriptions.contains(.bell))
        #expect(dispatcher.observed == [.endsAt])
    }

    /// A `state.changed` reaches a connection narrowed to the properties it observes, and only when one changed.
    @Test func stateChangesAreNarrowedToWhatAConnectionObserves() {
        var dispatcher = RequestDispatcher(service: EchoService())
        let now = ObservedState(
            sessionId: "s", state: "paused", paused: true, theme: nil, volumes: (0.5, 0.6, 1), endsAt: nil,
            nextBellAt: nil, nextBellGroup: "closing", clockSettled: true)
        let event = ProtocolEvent.stateChanged(
            StateChanged(changed: [.volume, .paused, .endsAt], state: now, observed: StateProperty.all))
        #expect(dispatcher.delivery(of: event) == nil)
        _ = dispatcher.execute(.observe([.theme]))
        #expect(dispatcher.delivery(of: event) == nil)
        _ = dispatcher.execute(.observe([.volume, .state]))
        let line = dispatcher.delivery(of: event).map { MessageEncoder.encode($0.json) }
        #expect(
            line
                == #"{"changed":["volume"],"event":"state.changed","sessionId":"s","state":"paused","theme":null,"volume":0.5}"#
        )
        _ = dispatcher.execute(.unsubscribe([.stateChanged]))
        #expect(dispatcher.delivery(of: event) == nil)
        // Other events are as they are.
        let xrun = ProtocolEvent.xrun(Xrun(sessionId: "s", count: 1, at: "2026-11-29T18:45:44.000Z"))
        #expect(dispatcher.delivery(of: xrun) == xrun)
    }

    /// Event lines as sent: `event` beside the message's fields, `null` where the docs promise one.
    @Test func eventLines() {
        let t = EventTime(frame: 48000, outputFrame: 52000, at: "2026-11-29T18:45:43.106Z", endsAt: nil)
        let golden: [(ProtocolEvent, String)] = [
            (
                .bell(BellStruck(sessionId: "s", cycle: 1, group: "opening", strike: 2, time: t)),
                #"{"audibleAt":"2026-11-29T18:45:43.106Z","cycle":1,"endsAt":null,"event":"bell","frame":48000,"group":"opening","outputFrame":52000,"sessionId":"s","strike":2}"#
            ),
            (
                .themeChanged(ThemeChanged(sessionId: "s", theme: nil, time: t)),
                #"{"at":"2026-11-29T18:45:43.106Z","endsAt":null,"event":"theme.changed","frame":48000,"outputFrame":52000,"sessionId":"s","theme":null}"#
            ),
            (
                .xrun(Xrun(sessionId: "s", count: 3, at: "2026-11-29T18:45:44.000Z")),
                #"{"at":"2026-11-29T18:45:44.000Z","count":3,"event":"xrun","sessionId":"s"}"#
            ),
            (
                .deviceError(DeviceFailed(sessionId: "s", error: ProtocolError(.unavailable, "device unplugged"))),
                #"{"error":{"code":"unavailable","message":"device unplugged"},"event":"device.error","sessionId":"s"}"#
            ),
        ]
        for (event, expected) in golden {
            #expect(MessageEncoder.encode(event.json) == expected)
        }
    }
}
