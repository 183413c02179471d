import AudioEngine
import ControlProtocol
import Foundation
import Testing

/// `set`'s ranges are the engine's table's (`SessionPlan.themeCrossfade`, `volumeRamp`, `volumeRange`): each is
/// accepted at both ends and refused just past them, in the protocol's own words.
@Suite struct SetFieldsTests {
    private func fields(_ json: String) throws -> Result<SetFields, ProtocolError> {
        let request = try Request.parse(Array(json.utf8))
        do throws(ProtocolError) { return .success(try SetFields(request)) } catch { return .failure(error) }
    }

    /// A number as the protocol prints it (`3`, `0.05`).
    private func text(_ v: Double) -> String { v == v.rounded() ? String(Int64(v)) : String(v) }

    @Test("crossfade: 0.05...60 s, refused just outside with the protocol's message")
    func crossfade() throws {
        let base = #"{"command":"set","theme":"rain","crossfade":"#
        #expect(try fields(base + "0.05}").get().crossfade == 0.05)
        #expect(try fields(base + "60}").get().crossfade == 60)
        #expect(
            try fields(base + "0.04}")
                == .failure(ProtocolError(.invalidField, "crossfade 0.04 s is outside 0.05...60 s", field: "crossfade"))
        )
        #expect(
            try fields(base + "60.01}")
                == .failure(
                    ProtocolError(.invalidField, "crossfade 60.01 s is outside 0.05...60 s", field: "crossfade")))
    }

    @Test("ramp: 0...60 s")
    func ramp() throws {
        let base = #"{"command":"set","volume":0.5,"ramp":"#
        #expect(try fields(base + "0}").get().ramp == 0)
        #expect(try fields(base + "60}").get().ramp == 60)
        #expect(
            try fields(base + "-0.01}")
                == .failure(ProtocolError(.invalidField, "ramp -0.01 s is outside 0...60 s", field: "ramp")))
        #expect(
            try fields(base + "60.01}")
                == .failure(ProtocolError(.invalidField, "ramp 60.01 s is outside 0...60 s", field: "ramp")))
    }

    @Test("each gain: 0...1, the plan's volume range")
    func volumes() throws {
        for key in ["ambientVolume", "bellVolume", "volume"] {
            let base = #"{"command":"set","\#(key)":"#
            #expect(throws: Never.self) { try fields(base + "0}").get() }
            #expect(throws: Never.self) { try fields(base + "1}").get() }
            #expect(
                try fields(base + "-0.01}")
                    == .failure(ProtocolError(.invalidField, "\(key) -0.01 is outside 0...1", field: key)))
            #expect(
                try fields(base + "1.01}")
                    == .failure(ProtocolError(.invalidField, "\(key) 1.01 is outside 0...1", field: key)))
        }
    }

    @Test("docs/protocol.md's set row states the table's ranges and defaults")
    func documented() throws {
        let row = try #require(ProtocolDocsTests.row("set", in: ProtocolDocsTests.rows(under: "## Commands")))
        for setting in [SessionPlan.themeCrossfade, SessionPlan.volumeRamp] {
            let r = setting.range
            let stated =
                "`\(setting.key)` (\(text(r.lowerBound))…\(text(r.upperBound)) s, default \(text(setting.defaultValue))"
            #expect(row.contains(stated), "\(stated) is not in \(row)")
        }
        let gains = SessionPlan.volumeRange
        #expect(row.contains("(\(text(gains.lowerBound))…\(text(gains.upperBound)) each)"), "\(row)")
    }
}
