import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Seeded mutations of every command, sent to the live session controller (`enso serve` with a session playing
/// on the null output): the libFuzzer target exercises the parser and dispatcher with a stand-in handler; this
/// drives the real controller, engine and journal with the same kind of input.
@Suite struct MutatedCommandTests {
    /// A JSON value as text (keys in the given order; numbers as Swift prints them).
    indirect enum Value {
        case raw(String)
        case string(String)
        case array([Value])
        case object([(String, Value)])

        var text: String {
            switch self {
            case .raw(let r): return r
            case .string(let s):
                let escaped = s.unicodeScalars.map { c -> String in
                    switch c {
                    case "\"": return "\\\""
                    case "\\": return "\\\\"
                    default: return c.value < 0x20 ? String(format: "\\u%04x", c.value) : String(c)
                    }
                }.joined()
                return "\"\(escaped)\""
            case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
            case .object(let o):
                return "{" + o.map { "\(Value.string($0.0).text):\($0.1.text)" }.joined(separator: ",") + "}"
            }
        }
    }

    /// Commands that keep the session playing (no stop, shutdown or journal writes), with their fields.
    static let bases: [[(String, Value)]] = [
        [("command", .string("status"))],
        [("command", .string("pause"))],
        [("command", .string("resume"))],
        [("command", .string("strike"))],
        [("command", .string("set")), ("volume", .raw("0.5"))],
        [("command", .string("set")), ("ambientVolume", .raw("0.3")), ("bellVolume", .raw("0.8"))],
        [("command", .string("set")), ("theme", .string("none")), ("crossfade", .raw("1"))],
        [("command", .string("assets"))],
        [("command", .string("sessions.list")), ("limit", .raw("3"))],
        [("command", .string("subscribe")), ("events", .array([.string("bell"), .string("state")]))],
        [("command", .string("unsubscribe")), ("events", .array([.string("bell")]))],
        [("command", .string("start")), ("sitting", .raw("60")), ("strikes", .raw("2")), ("repeat", .string("once"))],
        [("command", .string("preview")), ("theme", .string("none")), ("seconds", .raw("2"))],
        [("command", .string("observe")), ("properties", .array([.string("volume"), .string("endsAt")]))],
        [("command", .string("unobserve")), ("properties", .array([.string("volume")]))],
    ]

    /// A random replacement value: every JSON type, extremes, and nonsense of the right type.
    static func randomValue(_ rng: inout SeededRandom) -> Value {
        switch rng.next() % 14 {
        case 0: return .raw("null")
        case 1: return .raw(rng.next() % 2 == 0 ? "true" : "false")
        case 2: return .raw("-1")
        case 3: return .raw("1e308")
        case 4: return .raw("-0.0")
        case 5: return .raw(String(format: "%.6f", rng.nextUnit() * 200 - 100))
        case 6: return .string("")
        case 7: return .string(String(repeating: "é", count: Int(rng.next() % 3000)))
        case 8: return .string("\u{0}\u{1}\n\"\\")
        case 9: return .array((0..<Int(rng.next() % 4)).map { _ in .raw(String(rng.next() % 100)) })
        case 10: return .object([("x", .raw("1"))])
        case 11: return .raw(String(repeating: "[", count: 60) + String(repeating: "]", count: 60))
        case 12:
            return .string(["bell", "state", "none", "forever", "once", "all", "-1", "99:99"][Int(rng.next() % 8)])
        default: return .raw(String(Int64(bitPattern: rng.next())))
        }
    }

    /// One mutated line; `reply` says whether it is still a JSON object with its numeric id (so it must be answered
    /// with that id).
    static func mutated(_ k: Int, _ rng: inout SeededRandom) -> (line: String, reply: Bool) {
        var fields = bases[Int(rng.next() % UInt64(bases.count))]
        let mutations = 1 + Int(rng.next() % 3)
        for _ in 0..<mutations {
            switch rng.next() % 6 {
            case 0 where fields.count > 1:
                fields.remove(at: 1 + Int(rng.next() % UInt64(fields.count - 1)))
            case 1:
                let i = Int(rng.next() % UInt64(fields.count))
                fields[i].1 = randomValue(&rng)
            case 2:
                fields.append(
                    (
                        ["volume", "sitting", "events", "bell", "theme", "pad", "command", "id"][Int(rng.next() % 8)],
                        randomValue(&rng)
                    ))
            case 3:
                fields[0].1 = .string(
                    ["status", "STATUS", "sessions.", "start ", "", "strike\u{0}", "set"][Int(rng.next() % 7)])
            default:
                let i = Int(rng.next() % UInt64(fields.count))
                fields[i].1 = randomValue(&rng)
            }
        }
        // The id goes first and is never replaced (an extra "id" field may follow it: the last one wins, so such
        // lines are not counted as answerable by this id).
        let hasSecondID = fields.contains { $0.0 == "id" }
        let line = Value.object([("id", .raw(String(k)))] + fields).text
        if rng.next() % 10 == 0 {
            // Truncated: no longer JSON.
            let cut = line.index(line.startIndex, offsetBy: Int(rng.next() % UInt64(line.count)))
            return (String(line[..<cut]), false)
        }
        return (line, !hasSecondID && line.utf8.count < 65_536)
    }

    @Test func twoThousandMutatedCommandsAreEachAnsweredAndTheSessionPlaysOn() throws {
        let (assets, _, server, c) = try ServerFixtures.socketServer()
        defer { server.kill9() }
        c.send(#"{"id":"go","command":"start","sitting":600,"bell":"\#(assets)/bell.wav"}"# + "\n")
        let session = try #require(c.lines.reply("go")?["data"]?["sessionId"]?.stringValue)
        var rng = SeededRandom(seed: 2026)
        var answerable: [Int] = []
        for k in 1...2000 {
            let (line, reply) = Self.mutated(k, &rng)
            c.send(line + "\n")
            if reply { answerable.append(k) }
            if k % 200 == 0 { usleep(20_000) }
        }
        #expect(answerable.count > 1500)
        for k in answerable {
            let r = c.lines.reply(.number(Double(k)), timeout: 20)
            #expect(r != nil, "no reply to line \(k)")
            if r == nil { break }
        }
        // Every reply is well-formed: ok true, or ok false with an error code; both kinds occur in numbers.
        let replies = c.lines.all.filter { $0.json["ok"] != nil }
        for line in replies where line.json["ok"] == false {
            #expect(line.json["error"]?["code"]?.stringValue != nil)
        }
        let accepted = replies.filter { $0.json["ok"] == true }.count
        #expect(accepted > 200 && replies.count - accepted > 200, "\(accepted) accepted of \(replies.count)")
        #expect(c.lines.nonJSON.isEmpty, "\(c.lines.nonJSON.prefix(3))")
        // The mutated commands may have paused it; resume, then the same session must still be running cleanly.
        c.send(#"{"id":"r","command":"resume"}"# + "\n")
        _ = c.lines.reply("r")
        // The render thread applies the resume on its next period: ask until it has, for at most 10 s.
        var status: JSONValue = .null
        let deadline = Date().addingTimeInterval(10)
        for k in 0... {
            c.send(#"{"id":"s\#(k)","command":"status"}"# + "\n")
            status = try #require(c.lines.reply(.string("s\(k)"))?["data"])
            if status["state"] == "playing" || Date() > deadline { break }
            usleep(20_000)
        }
        #expect(status["sessionId"] == .string(session))
        #expect(status["state"] == "playing")
        // Still playing: the session clock moves on (an xrun on a loaded machine would not stop it).
        let position = status["positionFrames"]?.numberValue ?? 0
        let later = Date().addingTimeInterval(10)
        var moved = false
        while !moved && Date() < later {
            usleep(50_000)
            c.send(#"{"id":"m","command":"status"}"# + "\n")
            moved = (c.lines.reply("m")?["data"]?["positionFrames"]?.numberValue ?? 0) > position
        }
        #expect(moved)
        #expect(server.process.isRunning)
    }
}
