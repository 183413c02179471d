import AudioCore
import AudioDevice
import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// The server's session controller in process, on the null device with a clock moved by hand (``ManualOutput``):
/// a sitting's protocol events (its bells, an xrun, its end) carry its id and the times the clock gives, exactly,
/// whatever the machine's load.
@Suite struct SessionControllerClockTests {
    static let start = ManualServer.start

    private func command(_ line: String) throws -> ControlCommand {
        try ControlCommand(try Request.parse(Array(line.utf8)))
    }

    @Test func aSittingsEventsCarryItsIdAndTheClocksTimes() throws {
        let assets = ServerFixtures.assets()
        defer { try? FileManager.default.removeItem(atPath: assets) }
        // ManualServer's controller and output, driven here command by command, its wall clock held at the start.
        let server = try ManualServer(journal: assets + "/j.jsonl")
        let (output, c) = (server.output, server.controller)
        c.wallClock = { Self.start }
        var dispatcher = RequestDispatcher(service: c)
        let plan = #""sitting":2,"strikes":2,"strikeSpacing":0.5,"fadeIn":0,"fadeOut":0.1"#
        let reply = dispatcher.execute(
            try command(#"{"command":"start","bell":"\#(assets)/bell.wav",\#(plan)}"#))
        let id = try #require(try reply.get()["sessionId"]?.stringValue)

        // 20 periods (0.85 s): the two opening strikes, at 0 and 0.5 s.
        #expect(output.advance(periods: 20) == 20)
        let events = c.poll()
        let bells = events.compactMap { if case .bell(let b) = $0 { b } else { nil } }
        #expect(bells.map(\.time.frame) == [0, 24_000])
        for b in bells {
            #expect(b.fields.sessionId == id && b.fields.group == "opening")
            // Heard at the start plus the frames on the output's clock; the text has millisecond resolution.
            let heard = try #require(ProtocolTime.parse(b.time.at))
            #expect(abs(heard.timeIntervalSince(Self.start) - Double(b.time.frame) / 48_000) <= 0.001, "\(b.time.at)")
            let endsAt = try #require(b.time.endsAt.flatMap(ProtocolTime.parse))
            #expect(abs(endsAt.timeIntervalSince(Self.start) - 2) <= 0.001)
        }

        // The render thread is descheduled for 0.4 s, more than the 171 ms buffer: one xrun, reported once.
        output.stall(nanoseconds: 400_000_000)
        output.step()
        let xruns = c.poll().compactMap { if case .xrun(let x) = $0 { x } else { nil } }
        #expect(xruns.map(\.sessionId) == [id] && xruns.map(\.count) == [1])
        #expect(c.status().session?.xruns == 1)

        #expect((try? dispatcher.execute(try command(#"{"command":"stop","bell":false}"#)).get()) != nil)
        var ended: SessionEnded?
        for _ in 0..<100 where ended == nil {
            output.step()
            ended = c.poll().compactMap { if case .sessionEnded(let e) = $0 { e } else { nil } }.first
        }
        let record = try #require(ended).record
        #expect(ended?.sessionId == id && record.outcome == .stopped)
        #expect(!c.isActive)
    }
}
