import ControlProtocol
import Foundation
import Testing

/// What observers are told: each change once, coalesced between reports, times within their tolerance kept.
@Suite struct StateReporterTests {
    static func time(_ seconds: Double) -> String {
        ProtocolTime.format(Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    static func playing(volume: Double = 1, endsAt: Double? = 600, paused: Bool = false) -> ObservedState {
        ObservedState(
            sessionId: "s", state: paused ? "paused" : "playing", paused: paused, theme: "rain",
            volumes: (volume, 0.6, 1), endsAt: endsAt.map(time), nextBellAt: time(300), nextBellGroup: "transition",
            clockSettled: true)
    }

    @Test func aStartChangesEveryPropertyAndNothingIsSentTwice() throws {
        var reporter = StateReporter()
        #expect(reporter.report(.idle) == nil)
        let first = reporter.report(Self.playing())
        let start = try #require(first)
        #expect(start.changed == StateProperty.all.filter { $0 != .paused })
        #expect(start.values.state.sessionId == "s")
        #expect(reporter.report(Self.playing()) == nil)
        #expect(reporter.reported == Self.playing())
    }

    @Test func changesBetweenReportsComeAsOneAndAChangeUndoneIsNotSent() throws {
        var reporter = StateReporter(Self.playing())
        // Volume 0.5 then back to 1 between two reports: nothing to tell.
        #expect(reporter.report(Self.playing(volume: 1)) == nil)
        // A pause and a volume change between two reports: one event naming both (and endsAt, now null).
        let reported = reporter.report(Self.playing(volume: 0.3, endsAt: nil, paused: true))
        let change = try #require(reported)
        #expect(change.changed == [.state, .paused, .volume, .endsAt])
        #expect(change.values.state.volume == 0.3)
        #expect(change.values.state.endsAt == nil)
    }

    @Test func aTimeIsSentAgainOnlyOnceItMovedTheTolerance() throws {
        var reporter = StateReporter(Self.playing(endsAt: 600))
        // 9 ms of drift: the same time to an observer; the value last sent stays the reference.
        #expect(reporter.report(Self.playing(endsAt: 600.009)) == nil)
        #expect(reporter.reported.endsAt == Self.time(600))
        // Another 9 ms: 18 ms from what was sent, so it is sent.
        let later = reporter.report(Self.playing(endsAt: 600.018))
        let moved = try #require(later)
        #expect(moved.changed == [.endsAt])
        #expect(reporter.reported.endsAt == Self.time(600.018))
        // A new session is a change of state even when every value is the same.
        var other = Self.playing(endsAt: 600.018)
        other.sessionId = "t"
        #expect(reporter.report(other)?.changed == [.state])
    }

    @Test func eventsArePacedToOnePerMinimumIntervalAndAHeldChangeIsSentAfter() throws {
        var reporter = StateReporter(Self.playing())
        let t0 = ContinuousClock.now
        let first = reporter.report(Self.playing(volume: 0.5), at: t0)
        #expect(first?.changed == [.volume])
        // 19 ms later: held back, and the value last sent stays the reference.
        #expect(reporter.report(Self.playing(volume: 0.4), at: t0 + .milliseconds(19)) == nil)
        #expect(reporter.reported.volume == 0.5)
        // At 20 ms the change held is sent, with the value it has then.
        let held = reporter.report(Self.playing(volume: 0.3), at: t0 + .milliseconds(20))
        #expect(held?.changed == [.volume])
        #expect(held?.values.state.volume == 0.3)
        // Nothing changed: nothing sent, and the next change is not held by an event that was not made.
        #expect(reporter.report(Self.playing(volume: 0.3), at: t0 + .milliseconds(45)) == nil)
        #expect(reporter.report(Self.playing(volume: 0.2), at: t0 + .milliseconds(46))?.changed == [.volume])
        // The unpaced form (the last report, at shutdown) is never held.
        #expect(reporter.report(.idle)?.changed.contains(.state) == true)
    }

    @Test func theObserveReplyAndTheEventReadBack() throws {
        let state = Self.playing(volume: 0.4)
        let reply = ObserveReply(observing: [.volume, .theme], state: state)
        let json = MessageEncoder.value(reply)
        #expect(json["observing"] == ["theme", "volume"])
        #expect(json["endsAt"] == nil)
        #expect(try json.decode(ObserveReply.self) == reply)
        let event = StateChanged(changed: [.volume], state: state, observed: [.volume, .endsAt])
        #expect(try MessageEncoder.value(event).decode(StateChanged.self) == event)
    }
}
