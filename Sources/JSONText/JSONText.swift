/// The JSON text Enso writes for people and tools to read: the CLI's `--json` documents (`JSONOutput`, CLISupport)
/// and the files the pipeline writes (a pack's `manifest.json`, a loop sidecar; `PrettyJSON`, AssetPipeline), in one
/// shape (docs/cli.md): two-space indent, `"key": value`, `[]` and `{}` when empty, as `jq` and Python's
/// `json.dumps(indent=2)` print. `JSONEncoder`'s `.prettyPrinted` writes `"key" : value` and cannot be told otherwise,
/// so both writers encode compact JSON and indent it here.
///
/// - Thread safety: pure functions; any thread.
public enum JSONText {
    /// Compact JSON (no whitespace outside strings, as `JSONEncoder` writes it) indented by two spaces a level,
    /// `": "` after a key, an empty array or object kept on one line; `start` levels in (an element of an array).
    ///
    /// - Complexity: O(n) in the length of `json`.
    public static func indented(_ json: [UInt8], depth start: Int = 0) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(json.count * 2)
        var depth = start
        var inString = false
        var escaped = false
        func newline() {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        var i = 0
        while i < json.count {
            let c = json[i]
            i += 1
            if inString {
                out.append(c)
                if escaped {
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                inString = true
                out.append(c)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(c)
                if i < json.count, json[i] == (c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    out.append(json[i])
                    i += 1
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(c)
            case UInt8(ascii: ","):
                out.append(c)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [c, UInt8(ascii: " ")])
            default:
                out.append(c)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

}
