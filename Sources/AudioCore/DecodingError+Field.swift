/// A JSON file's decoding error in a user's words: the field it is about and what was wrong with it, one place for
/// every file Enso reads as JSON (a pack's manifest, a loop sidecar, a bell profile).
///
///     assets[1].gainDB: expected a number, found a string
///     assets[3].id: missing
///     assets[0].kind: 'gong' is not a kind of asset: bell or soundscape
extension DecodingError {
    /// The field as a path (`assets[3].loop.start`); `(top level)` for the whole document.
    public var fieldPath: String {
        let keys: [any CodingKey]
        switch self {
        case .keyNotFound(let key, let ctx): keys = ctx.codingPath + [key]
        case .typeMismatch(_, let ctx), .valueNotFound(_, let ctx), .dataCorrupted(let ctx): keys = ctx.codingPath
        @unknown default: keys = []
        }
        var s = ""
        for k in keys {
            if let i = k.intValue {
                s += "[\(i)]"
            } else {
                s += (s.isEmpty ? "" : ".") + k.stringValue
            }
        }
        return s.isEmpty ? "(top level)" : s
    }

    /// `field: problem`: `missing`, `expected a number, found a string`, `expected a string, found null`, or the
    /// decoder's own words where the value itself was wrong (an unknown name, which a type that decodes one says in
    /// full: ``unknownName(_:in:choices:)``; JSON that is not valid).
    public var fieldMessage: String {
        switch self {
        case .keyNotFound: return "\(fieldPath): missing"
        case .typeMismatch(let type, let ctx):
            return "\(fieldPath): expected \(Self.jsonName(of: type))\(Self.found(in: ctx.debugDescription))"
        case .valueNotFound(let type, _): return "\(fieldPath): expected \(Self.jsonName(of: type)), found null"
        case .dataCorrupted(let ctx):
            if ctx.codingPath.isEmpty {
                return "not valid JSON (\(ctx.underlyingError.map { "\($0)" } ?? ctx.debugDescription))"
            }
            return "\(fieldPath): \(ctx.debugDescription)"
        @unknown default: return "\(self)"
        }
    }

    /// The error for a name (`raw`) that is none of `choices`, at the value `container` holds: "'gong' is not a kind
    /// of asset: bell or soundscape".
    public static func unknownName(
        _ raw: String, in container: any SingleValueDecodingContainer, what: String, choices: [String]
    ) -> DecodingError {
        let listed =
            choices.count > 1 ? choices.dropLast().joined(separator: ", ") + " or " + choices.last! : choices.joined()
        return .dataCorruptedError(in: container, debugDescription: "'\(raw)' is not \(what): \(listed)")
    }

    /// What JSON holds for a value of `type`.
    static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is UInt32.Type:
            return "a whole number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "a list" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a value of type \(name)"
        }
    }

    /// ", found a string" from the decoder's "Expected to decode Double but found a string instead." (nothing when
    /// it does not say).
    static func found(in description: String) -> String {
        guard let start = description.firstRange(of: "but found ") else { return "" }
        var rest = description[start.upperBound...]
        if let end = rest.firstRange(of: " instead") { rest = rest[..<end.lowerBound] }
        return rest.isEmpty ? "" : ", found " + rest
    }
}
