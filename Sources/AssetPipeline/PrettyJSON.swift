import Foundation
import JSONText

/// The files the pipeline writes for people and tools to read (a pack's `manifest.json`, a loop sidecar), in the
/// shape the CLI prints JSON (docs/cli.md): two-space indent, sorted keys and `"key": value`, as `jq` and Python's
/// `json.dumps(indent=2)` write it, indented by the one writer of that shape (`JSONText`).
///
/// - Thread safety: pure functions; any thread.
enum PrettyJSON {
    /// `value` pretty-printed with sorted keys and slashes as they are, `"key": value`, and a final newline.
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Data((JSONText.indented(Array(try encoder.encode(value))) + "\n").utf8)
    }
}
