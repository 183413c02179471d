/// An optional field that is always on the wire: `null` when absent, instead of left out.
///
/// Synthesized `Codable` leaves a `nil` optional out of the JSON. Fields the docs promise as `null` (`endsAt` of an
/// open-ended session, `nextBellAt` while paused, a `--json` row's `error` when there is none) are wrapped in this,
/// so a reader finds every key and reads its null. Decoding accepts the key missing too. It lives here, beside the
/// other types every module shares, because both the protocol and the CLI's `--json` rows use it.
///
///     struct Example: Codable { @Nullable var endsAt: String? }   // {"endsAt":null}
///
/// - Thread safety: value type, any thread.
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension Nullable: Hashable where Value: Hashable {}

extension KeyedDecodingContainer {
    /// A missing key reads as `nil` (synthesized decoding calls this overload for ``Nullable`` fields).
    public func decode<V>(_ type: Nullable<V>.Type, forKey key: Key) throws -> Nullable<V> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
