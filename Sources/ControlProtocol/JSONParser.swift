/// A JSON parser for protocol lines: one pass over the bytes (linear time), nesting capped at ``maxDepth``.
///
/// `JSONDecoder` into ``JSONValue`` tries every type at every level, which is super-linear in the nesting
/// depth: a 3 KB line of 511 nested objects cost over a second of the server's only control thread. This parser
/// reads each byte once and refuses a value nested deeper than the cap before doing any work on its inside.
/// It follows RFC 8259: no comments, no trailing commas, no leading zeros; numbers must be finite `Double`s;
/// `\u` escapes must pair surrogates; a repeated key keeps its first value (as `JSONDecoder` did).
///
///     let value = try JSONParser.parse(Array(#"{"command":"status"}"#.utf8))
///
/// - Thread safety: stateless; any thread.
/// - Real-time safe: no (allocates).
public enum JSONParser {
    /// The deepest nesting accepted: 32 arrays or objects inside one another (a request needs 3).
    public static let maxDepth = 32

    /// Why a line is not JSON, or is JSON nested too deeply.
    public enum Failure: Error, Sendable, Equatable {
        /// Not JSON: what was wrong and the byte offset where it was found.
        case invalid(String, offset: Int)
        /// Arrays or objects nested deeper than ``JSONParser/maxDepth``.
        case tooDeep
    }

    /// Parses `bytes` (one whole JSON text, surrounding white space allowed).
    ///
    /// - Throws: ``Failure``.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = JSONParser.maxDepth) throws(Failure) -> JSONValue {
        try parse(bytes, maxDepth: maxDepth, skippingDeeper: false)
    }

    /// With `skippingDeeper`, an array or object beyond `maxDepth` is stepped over (brackets counted, strings
    /// skipped, nothing built) and read as `null`, and so is a number out of range: linear, for finding the `id` of
    /// a line refused as too deep or for such a number.
    static func parse(_ bytes: [UInt8], maxDepth: Int, skippingDeeper: Bool) throws(Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buf) throws(Failure) -> JSONValue in
            var p = Parser(bytes: buf, maxDepth: maxDepth, skippingDeeper: skippingDeeper)
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            guard p.at == buf.count else { throw p.fail("unexpected bytes after the value") }
            return v
        }
    }

    /// The ``Failure/invalid(_:offset:)`` text of a number a `Double` cannot hold (`1e400`).
    static let outOfRange = "number out of range"

    private struct Parser {
        static let outOfRange = JSONParser.outOfRange
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        let skippingDeeper: Bool
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, skippingDeeper: Bool) {
            self.bytes = bytes
            self.maxDepth = maxDepth
            self.skippingDeeper = skippingDeeper
        }

        /// Steps over the array or object at `at` without building it (no recursion, so any depth is cheap).
        mutating func skipNested() throws(Failure) -> JSONValue {
            var open = 0
            while at < bytes.count {
                let c = bytes[at]
                at += 1
                switch c {
                case UInt8(ascii: "["), UInt8(ascii: "{"): open += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    open -= 1
                    if open == 0 { return .null }
                case UInt8(ascii: "\""):
                    while at < bytes.count && bytes[at] != UInt8(ascii: "\"") {
                        at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    at += 1
                default: break
                }
            }
            throw fail("unterminated array or object")
        }

        func fail(_ what: String) -> Failure { .invalid(what, offset: at) }

        var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
                at += 1
            }
        }

        mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
            let n = literal.utf8CodeUnitCount
            guard at + n <= bytes.count else { throw fail("truncated literal") }
            let lit = literal.utf8Start
            for i in 0..<n where bytes[at + i] != lit[i] { throw fail("invalid literal") }
            at += n
            return value
        }

        mutating func value(depth: Int) throws(Failure) -> JSONValue {
            guard let c = peek else { throw fail("unexpected end of input") }
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < maxDepth else {
                    if skippingDeeper { return try skipNested() }
                    throw .tooDeep
                }
                if c == UInt8(ascii: "[") {
                    var elements: [JSONValue] = []
                    try items(close: UInt8(ascii: "]"), what: "array") { (p) throws(Failure) in
                        elements.append(try p.value(depth: depth + 1))
                    }
                    return .array(elements)
                }
                var members: [String: JSONValue] = [:]
                try items(close: UInt8(ascii: "}"), what: "object") { (p) throws(Failure) in
                    guard p.peek == UInt8(ascii: "\"") else { throw p.fail("expected a string key") }
                    let key = try p.string()
                    p.skipSpace()
                    guard p.peek == UInt8(ascii: ":") else { throw p.fail("expected ':'") }
                    p.at += 1
                    p.skipSpace()
                    let v = try p.value(depth: depth + 1)
                    if members[key] == nil { members[key] = v }
                }
                return .object(members)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw fail("unexpected character")
            }
        }

        /// Reads the items of the array or object whose bracket is at `at`, up to its `close` bracket: `item` reads one
        /// (white space around it skipped here), then a ',' or `close` must follow; `what` names the container in
        /// messages.
        mutating func items(
            close: UInt8, what: String, _ item: (inout Parser) throws(Failure) -> Void
        ) throws(Failure) {
            at += 1
            skipSpace()
            if peek == close {
                at += 1
                return
            }
            while true {
                skipSpace()
                try item(&self)
                skipSpace()
                guard let next = peek else { throw fail("unterminated \(what)") }
                at += 1
                if next == close { return }
                guard next == UInt8(ascii: ",") else {
                    throw fail("expected ',' or '\(Character(Unicode.Scalar(close)))'")
                }
            }
        }

        mutating func digits() -> Int {
            let start = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - start
        }

        mutating func number() throws(Failure) -> JSONValue {
            let start = at
            if peek == UInt8(ascii: "-") { at += 1 }
            if peek == UInt8(ascii: "0") {
                at += 1
            } else {
                guard digits() > 0 else { throw fail("invalid number") }
            }
            if peek == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { throw fail("invalid number: no digits after '.'") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                at += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { throw fail("invalid number: no digits in the exponent") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            guard let n = Double(text), n.isFinite else {
                if skippingDeeper { return .null }
                throw .invalid(Self.outOfRange, offset: start)
            }
            return .number(n)
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            guard at + 4 <= bytes.count else { throw fail("truncated \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[at]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw fail("invalid \\u escape")
                }
                v = v << 4 | d
                at += 1
            }
            return v
        }

        /// A string starting at the opening quote; the bytes between escapes are copied as they are (the caller
        /// checked the line is UTF-8; a lone invalid sequence is repaired, never trusted).
        mutating func string() throws(Failure) -> String {
            at += 1
            var out: [UInt8] = []
            var runStart = at
            while true {
                guard at < bytes.count else { throw fail("unterminated string") }
                let c = bytes[at]
                if c == UInt8(ascii: "\"") {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<at]))
                    at += 1
                    return String(decoding: out, as: UTF8.self)
                }
                if c < 0x20 { throw fail("control character in a string") }
                guard c == UInt8(ascii: "\\") else {
                    at += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<at]))
                at += 1
                guard let e = peek else { throw fail("unterminated escape") }
                at += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard at + 2 <= bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                        else { throw fail("unpaired surrogate in a \\u escape") }
                        at += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("unpaired surrogate in a \\u escape")
                    }
                    // Valid by construction: surrogates were paired above.
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default: throw fail("invalid escape")
                }
                runStart = at
            }
        }
    }
}
