import Foundation
import JSONText
import Synchronization

/// The one writer of the CLI's machine-readable JSON (docs/cli.md).
///
/// Every `--json` result goes through here, so every command prints the same shape:
///
/// - **Pretty-printed** (two-space indent, `"key": value`, `[]` and `{}` when empty, as `jq` and Python's
///   `json.dumps(indent=2)` print) with **sorted keys**: ffprobe indents its JSON too; a person reading it on a
///   terminal can follow it, every JSON parser reads it alike, and sorted keys make two runs diff line by line.
/// - **No escaped slashes**: a path prints as `"bells/b07.wav"`, never `"bells\/b07.wav"`.
/// - **One document per run**: stdout holds exactly one JSON value (an array, an object, or the error object),
///   so `--json` output is always parsed whole. ``CommandLineTool`` prints the error object only when no result
///   was printed before the failure.
/// - A non-finite number (the measurements use `null` for a value that does not exist, so none is expected)
///   prints as the string `"inf"`, `"-inf"` or `"nan"` rather than failing the command.
///
/// JSON lines (one compact object per line) are for streams only: the `enso serve` control protocol,
/// `--progress json` and the `--jsonl` rows of batch commands (which use ``encoder()`` without the indenting).
///
/// - Thread safety: any thread.
public enum JSONOutput {
    /// The encoder of the compact form (sorted keys, slashes as they are), which ``string(_:)`` then indents
    /// (`JSONText.indented(_:depth:)`).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// The decoder of what ``encoder()`` writes (its strings for non-finite numbers read back as numbers): results
    /// files read by `bells rank`, `loops report` and `--resume`.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// `value` as the JSON text the CLI prints.
    ///
    /// - Throws: `EncodingError` when `value` cannot be encoded (a programmer error in its `Encodable` conformance).
    public static func string(_ value: some Encodable) throws -> String {
        JSONText.indented(Array(try encoder().encode(value)))
    }

    /// Prints `value` to stdout as the run's one JSON document.
    ///
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public static func print(_ value: some Encodable) throws {
        let text = try string(value)
        printed.store(true, ordering: .relaxed)
        Terminal.out(text)
    }

    /// Prints the array of `count` elements, `element(i)` each, to stdout as the run's one JSON document, byte for
    /// byte as ``print(_:)`` prints the array, but an element at a time: the array is never held (`bells rank
    /// --json` of 10 000 rows reads each row again as it prints it).
    ///
    /// - Throws: what `element` throws (the document is then cut short: the caller's error goes to stderr);
    ///   `EncodingError` when an element cannot be encoded.
    public static func printArray<Element: Encodable>(count: Int, _ element: (Int) throws -> Element) throws {
        guard count > 0 else { return try print([Element]()) }
        let encoder = encoder()
        printed.store(true, ordering: .relaxed)
        var pending = "["
        for i in 0..<count {
            pending += (i == 0 ? "\n  " : ",\n  ") + JSONText.indented(Array(try encoder.encode(element(i))), depth: 1)
            // Written in pieces of about 64 KiB: few writes, and little held.
            if pending.utf8.count >= 1 << 16 {
                Terminal.outRaw(pending)
                pending = ""
            }
        }
        Terminal.out(pending + "\n]")
    }

    /// Prints `error` to stdout as `{"error": {...}}`, unless a JSON document was printed already (stdout then
    /// keeps its one document; the error still goes to stderr as text).
    public static func printError(_ error: ErrorObject) {
        guard !printed.load(ordering: .relaxed), let text = try? string(ErrorObject.Document(error: error)) else {
            return
        }
        printed.store(true, ordering: .relaxed)
        Terminal.out(text)
    }

    /// Whether this run printed a JSON document to stdout.
    private static let printed = Atomic<Bool>(false)
}
