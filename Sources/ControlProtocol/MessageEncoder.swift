import Foundation

/// Writes `JSONValue`s as compact JSON text: one line, keys sorted, integers without a fraction.
///
/// Deterministic output (sorted keys) makes transcripts comparable and lines stable across runs.
/// Non-finite numbers, which JSON cannot hold, are written as `null`.
///
/// - Thread safety: stateless; any thread.
/// - Real-time safe: no (builds strings).
public enum MessageEncoder {
    /// The JSON text of `value`, without a newline.
    public static func encode(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// The JSON text of `value` followed by `\n`, as bytes ready to send.
    public static func line(_ value: JSONValue) -> [UInt8] {
        var out = ""
        write(value, to: &out)
        out.append("\n")
        return Array(out.utf8)
    }

    private static func write(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): writeNumber(n, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let a):
            out += "["
            for (i, element) in a.enumerated() {
                if i > 0 { out += "," }
                write(element, to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                writeString(key, to: &out)
                out += ":"
                write(o[key]!, to: &out)
            }
            out += "}"
        }
    }

    private static func writeNumber(_ n: Double, to out: inout String) {
        guard n.isFinite else {
            out += "null"
            return
        }
        // Whole numbers as integers, 2^53 (the largest request id a client can count on) included.
        if n == n.rounded() && abs(n) < 1e18 {
            out += String(Int64(n))
        } else {
            out += "\(n)"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension MessageEncoder {
    /// The JSON of a message (a reply's data, an event) through its `Codable` conformance.
    ///
    /// Messages hold strings, numbers, Booleans, arrays and objects only, so encoding cannot fail; a number that is
    /// not finite (never sent: every value is checked or computed finite) is written as a string, not a trap.
    public static func value(_ message: some Encodable) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try JSONParser.parse(Array(try encoder.encode(message)), maxDepth: 512)
        } catch {
            preconditionFailure("a protocol message failed to encode: \(error)")
        }
    }
}
