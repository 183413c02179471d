import AudioCore
import AudioEngine
import Foundation
import JSONText

/// One request line: an optional `id`, the `command` name, and every other field, unchecked.
///
/// ``parse(_:)`` checks only the envelope. Command fields are read through the typed accessors
/// (``number(_:in:)``, ``string(_:)``…), which name the field and its range in their errors. Unknown
/// fields are never an error: they are simply not read.
public struct Request: Sendable, Equatable {
    /// The client's id, echoed verbatim in the reply; `nil` when the request had none.
    public var id: JSONValue?
    /// The command name (`start`, `sessions.list`…).
    public var command: String
    /// Every member of the request object, `id` and `command` included.
    public var fields: [String: JSONValue]

    public init(id: JSONValue? = nil, command: String, fields: [String: JSONValue] = [:]) {
        self.id = id
        self.command = command
        var f = fields
        f["command"] = .string(command)
        if let id { f["id"] = id }
        self.fields = f
    }

    /// Why a line is not a request, with the `id` when the line was an object that had one.
    public struct Failure: Error, Sendable, Equatable {
        public var id: JSONValue?
        public var error: ProtocolError
    }

    /// The id of a line refused whole (too deep, or a number out of range), when its top level is an object with a
    /// scalar one: found in one more linear pass that steps over what is nested and reads such numbers as `null`.
    static func recoveredID(_ line: [UInt8]) -> JSONValue? {
        let top = try? JSONParser.parse(line, maxDepth: 1, skippingDeeper: true)
        // (`Optional.none` spelt out: JSONValue is ExpressibleByNilLiteral, so a bare `nil` here is `.null`.)
        return top?["id"].flatMap { $0.stringValue != nil || $0.numberValue != nil ? $0 : JSONValue?.none }
    }

    /// Parses one line (without its newline).
    ///
    /// - Throws: ``Failure`` with `invalid-request` when the line is not UTF-8 JSON, is nested deeper than
    ///   ``JSONParser/maxDepth`` ("nested too deeply"), is not an object, or has no string `command` (none, or one of
    ///   another type: the envelope, as docs/protocol.md says).
    public static func parse(_ line: [UInt8]) throws(Failure) -> Request {
        guard String(validating: line, as: UTF8.self) != nil else {
            throw Failure(id: nil, error: ProtocolError(.invalidRequest, "the line is not valid UTF-8"))
        }
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(line)
        } catch .tooDeep {
            throw Failure(
                id: recoveredID(line),
                error: ProtocolError(
                    .invalidRequest,
                    "the line is nested too deeply (over \(JSONParser.maxDepth) levels of arrays or objects)"))
        } catch .invalid(JSONParser.outOfRange, let offset) {
            // Valid JSON whose number no Double holds (`1e400`): refused, but answered with its id.
            throw Failure(
                id: recoveredID(line),
                error: ProtocolError(
                    .invalidRequest,
                    "the number at byte \(offset) is out of range: numbers must be finite (at most ±1.8e308)"))
        } catch {
            throw Failure(id: nil, error: ProtocolError(.invalidRequest, "the line is not valid JSON"))
        }
        guard case .object(let fields) = value else {
            throw Failure(
                id: nil,
                error: ProtocolError(.invalidRequest, "a request must be a JSON object, not \(value.typeName)"))
        }
        // `"id": null` is no id (docs/protocol.md): the reply then has none.
        let id = fields["id"].flatMap { $0 == .null ? JSONValue?.none : $0 }
        // Ids are strings or numbers only: a client matching replies by id must be able to compare them.
        if let id, id.stringValue == nil && id.numberValue == nil {
            throw Failure(
                id: nil, error: .invalidField("id", "must be a string or a number, not \(id.typeName)"))
        }
        guard let commandValue = fields["command"] else {
            throw Failure(id: id, error: ProtocolError(.invalidRequest, "the request has no \"command\" field"))
        }
        guard case .string(let command) = commandValue else {
            throw Failure(
                id: id,
                error: ProtocolError(
                    .invalidRequest, "the request's \"command\" must be a string, not \(commandValue.typeName)"))
        }
        var request = Request(command: command)
        request.id = id
        request.fields = fields
        return request
    }

    // MARK: - Typed field access

    /// The field, treating `null` as absent.
    public func value(_ name: String) -> JSONValue? {
        guard let v = fields[name], v != .null else { return nil }
        return v
    }

    /// A string field, or `nil` when absent.
    ///
    /// - Throws: `invalid-field` when present but not a string.
    public func string(_ name: String) throws(ProtocolError) -> String? {
        guard let v = value(name) else { return nil }
        guard case .string(let s) = v else { throw .invalidField(name, "must be a string, not \(v.typeName)") }
        return s
    }

    /// A string field that names an asset (an id or a sound file; for a theme also `none`, silence), or `nil` when
    /// absent: read by ``AudioEngine/AssetName``, as every field that names a sound is, and returned as given.
    ///
    /// - Parameter silenceAllowed: whether the field takes `none` (a theme: `set`'s); it words the refusal.
    /// - Throws: `invalid-field` when present but not a string, or empty: an empty id names no asset (it was
    ///   looked up as one and refused as "no bell with id ''", `unavailable`, or taken as silence for a theme).
    public func assetName(_ name: String, silenceAllowed: Bool = false) throws(ProtocolError) -> String? {
        guard let s = try string(name) else { return nil }
        return try Self.assetName(s, field: name, silenceAllowed: silenceAllowed)
    }

    /// `text`, a name of the field `field` (`themes[2]`), checked by ``AudioEngine/AssetName``.
    ///
    /// - Throws: `invalid-field` naming `field` when `text` is empty.
    public static func assetName(_ text: String, field: String, silenceAllowed: Bool) throws(ProtocolError) -> String {
        do { return try AssetName.check(text, silenceAllowed: silenceAllowed) } catch {
            throw ProtocolError(.invalidField, error.message(field: field), field: field)
        }
    }

    /// A Boolean field, or `nil` when absent.
    ///
    /// - Throws: `invalid-field` when present but not `true`/`false`.
    public func bool(_ name: String) throws(ProtocolError) -> Bool? {
        guard let v = value(name) else { return nil }
        guard case .bool(let b) = v else { throw .invalidField(name, "must be true or false, not \(v.typeName)") }
        return b
    }

    /// A number field within `range`, or `nil` when absent.
    ///
    /// - Throws: `invalid-field` naming the field and the range when present but not a number or out of range.
    public func number(_ name: String, in range: ClosedRange<Double>, unit: String = "") throws(ProtocolError)
        -> Double?
    {
        guard let v = value(name) else { return nil }
        guard case .number(let n) = v else { throw .invalidField(name, "must be a number, not \(v.typeName)") }
        guard range.contains(n) else {
            // The plan's wording (`volume 1.5 is outside 0...1`, PlanValidationError): one for every range.
            let shown = Self.format(n) + (unit.isEmpty ? "" : " " + unit)
            throw ProtocolError(
                .invalidField, "\(name) \(shown) is outside \(Self.describe(range, unit: unit))", field: name)
        }
        return n
    }

    /// A whole-number field within `range`, or `nil` when absent.
    ///
    /// - Throws: `invalid-field` naming the field and the range when not a whole number or out of range.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
        guard let v = value(name) else { return nil }
        guard case .number(let n) = v, n == n.rounded(), abs(n) < 9e15 else {
            throw .invalidField(
                name, "must be a whole number, not \(v.typeName == "number" ? "a fraction" : v.typeName)")
        }
        guard range.contains(Int(n)) else {
            throw ProtocolError(
                .invalidField, "\(name) \(Int(n)) is outside \(range.lowerBound)...\(range.upperBound)", field: name)
        }
        return Int(n)
    }

    /// An array-of-strings field, or `nil` when absent.
    ///
    /// - Throws: `invalid-field` when present but not an array of strings.
    public func strings(_ name: String) throws(ProtocolError) -> [String]? {
        guard let v = value(name) else { return nil }
        guard case .array(let a) = v else {
            throw .invalidField(name, "must be an array of strings, not \(v.typeName)")
        }
        var out: [String] = []
        for (i, element) in a.enumerated() {
            guard case .string(let s) = element else {
                throw .invalidField("\(name)[\(i)]", "must be a string, not \(element.typeName)")
            }
            out.append(s)
        }
        return out
    }

    /// A number as people read it: `5`, `0.5`, `9e+15` (``AudioCore/NumberText/plain(_:)``).
    static func format(_ n: Double) -> String { NumberText.plain(n) }

    static func describe(_ range: ClosedRange<Double>, unit: String) -> String {
        "\(format(range.lowerBound))...\(format(range.upperBound))\(unit.isEmpty ? "" : " " + unit)"
    }
}
