import AudioEngine
import ControlProtocol
import Foundation
import Testing

@testable import PlaybackService

/// The protocol reads a plan through the table of plan fields: the CLI's grammar and ranges, the protocol's names.
@Suite struct PlanFieldsTests {
    private func plan(_ json: String) -> Result<SessionPlan, ProtocolError> {
        do {
            let fields = try PlanFields(try Request.parse(Array(json.utf8)))
            return .success(try fields.plan())
        } catch let e as ProtocolError {
            return .failure(e)
        } catch {
            return .failure(ProtocolError(.failure, "\(error)"))
        }
    }

    private func error(_ json: String) -> ProtocolError? {
        if case .failure(let e) = plan(json) { return e }
        return nil
    }

    @Test func typeAndRangeErrorsNameTheProtocolField() {
        #expect(error(#"{"command":"start"}"#) == .invalidField("sitting", "is required (seconds per cycle)"))
        #expect(error(#"{"command":"start","sitting":"20m"}"#)?.field == "sitting")
        #expect(error(#"{"command":"start","sitting":60,"strikes":1.5}"#)?.field == "strikes")
        #expect(error(#"{"command":"start","sitting":60,"repeat":"sometimes"}"#)?.field == "repeat")
        #expect(
            error(#"{"command":"start","sitting":60,"repeat":"until=25:00"}"#)
                == ProtocolError(
                    .invalidField, "repeat '25:00' is not a clock time (until=HH:MM or until=HH:MM:SS)", field: "repeat"
                ))
        #expect(
            error(#"{"command":"start","sitting":60,"volume":1.5}"#)
                == ProtocolError(.invalidField, "volume 1.5 is outside 0...1", field: "volume"))
        // The element at fault by its index, and a repeat count said as the range it is out of (they read "not
        // array" and "not number").
        #expect(
            error(#"{"command":"start","sitting":60,"intervalAt":[60,"x"]}"#)
                == .invalidField("intervalAt[1]", "must be a number (seconds), not string"))
        #expect(
            error(#"{"command":"start","sitting":60,"repeat":1e20}"#)
                == ProtocolError(.invalidField, "repeat 1e+20 is outside 1...1000", field: "repeat"))
        #expect(
            error(#"{"command":"start","sitting":60,"repeat":2.5}"#)
                == ProtocolError(.invalidField, "repeat 2.5 is not a whole count of cycles (1...1000)", field: "repeat")
        )
    }

    @Test func theRepeatGrammarIsTheCLIs() throws {
        let until = try plan(#"{"command":"start","sitting":60,"repeat":"until=7:30"}"#).get()
        #expect(until.repeatMode == .until(ClockTime(hour: 7, minute: 30)!))
        #expect(try plan(#"{"command":"start","sitting":60,"repeat":4}"#).get().repeatMode == .times(4))
        #expect(try plan(#"{"command":"start","sitting":60,"repeat":"forever"}"#).get().repeatMode == .untilStopped)
    }

    @Test func intervalBellsAreFieldsOfTheProtocolToo() throws {
        let p = try plan(#"{"command":"start","sitting":600,"interval":120,"intervalStrikes":2,"intervalVolume":0.5}"#)
            .get()
        #expect(p.interval == 120 && p.intervalStrikes == 2 && p.intervalVolume == 0.5)
    }

    @Test func theEchoHasEveryFieldResolvedUnderItsProtocolKey() throws {
        let p = try plan(#"{"command":"start","sitting":90,"strikeSpacing":4}"#).get()
        let echo = PlanFields(resolved: p, stopBell: nil)
        #expect(
            MessageEncoder.encode(echo.json)
                == #"{"ambient":"none","ambientVolume":0.6,"bell":"singing-bowl","bellVolume":1,"breath":2,"fadeIn":5,"#
                + #""fadeOut":5,"repeat":"once","sitting":90,"stopBell":true,"strikeSpacing":4,"strikes":3,"volume":1}"#
        )
    }

    /// docs/protocol.md's plan table is this table, generated from the table of plan fields: on a mismatch, paste
    /// the rows the failure prints.
    @Test func theDocsPlanTableIsGeneratedFromTheTable() {
        #expect(
            ProtocolDocs.text.contains(Self.planTable), "docs/protocol.md's plan table should read:\n\(Self.planTable)")
    }

    static var planTable: String {
        func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        func kind(_ k: SessionPlan.ValueKind) -> String {
            switch k {
            case .seconds, .duration: "number, s"
            case .durations: "array of numbers, s"
            case .gain: "number"
            case .count: "whole number"
            case .asset: "string: asset id or sound file path"
            case .repeatMode:
                "`\"once\"`, `\"forever\"`, a count N (number or string), `\"until=HH:MM[:SS]\"` (local time)"
            }
        }
        func value(_ v: SessionPlan.Value) -> String {
            switch v {
            case .number(let n): number(n)
            case .count(let n): "\(n)"
            case .text(let t): "`\(t)`"
            case .numbers(let a): a.map(number).joined(separator: ", ")
            case .repeatMode(let r): "`\(r)`"
            case .none: "none"
            }
        }
        let header = "| field | CLI | type | range | default | what it is |\n|---|---|---|---|---|---|\n"
        return header
            + SessionPlan.fields.map { f in
                let key = "`\(f.key)`" + (f.field == .sitting ? " (required)" : "")
                let def = f.field == .sitting ? "—" : value(f.defaultValue)
                return
                    "| \(key) | `\(f.name(.cli))` | \(kind(f.kind)) | \(f.rangeText ?? "") | \(def) | \(f.summary) |\n"
            }.joined()
    }
}

enum ProtocolDocs {
    static let text: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()
}
