import Foundation

/// The files the pipeline writes for people and tools to read (a pack's `manifest.json`, a loop sidecar), in the
/// shape the CLI prints JSON (docs/cli.md): two-space indent, sorted keys and `"key": value`, as `jq` and Python's
/// `json.dumps(indent=2)` write it. `JSONEncoder`'s `.prettyPrinted` writes `"key" : value`; this closes the gap.
///
/// - Thread safety: pure functions; any thread.
enum PrettyJSON {
    /// `value` pretty-printed with sorted keys and slashes as they are, `"key": value`, and a final newline.
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Data(keySeparators(Array(try encoder.encode(value)))) + [0x0A]
    }

    /// `json` as `.prettyPrinted` writes it with each `" : "` between a key and its value made `": "`. Only bytes
    /// outside strings are touched (a string's own `" : "` is kept).
    static func keySeparators(_ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var inString = false
        var escaped = false
        var i = 0
        while i < json.count {
            let c = json[i]
            if inString {
                if escaped {
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if c == UInt8(ascii: "\"") {
                inString = true
            } else if c == UInt8(ascii: " "), i + 2 < json.count, json[i + 1] == UInt8(ascii: ":"),
                json[i + 2] == UInt8(ascii: " ")
            {
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                i += 3
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }
}
