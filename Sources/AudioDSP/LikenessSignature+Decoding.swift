import Foundation

extension LikenessSignature {
    enum CodingKeys: String, CodingKey {
        case kind, duration, partials, weakPartials, attack, decay, envelope, bandLevels, modulation, modulationLevels
        case pulse
    }

    /// Reads the object the synthesized encoder writes, every key required as the synthesized decoder requires it
    /// (`attack` and `pulse` may be `null` or missing: rows written before `pulse` was measured read as none). Written out because a results file is read 10 000 signatures at a time
    /// (`bells rank`): the numbers are read one by one as `Double`, not through the generic decoding of nested
    /// arrays, which spends most of its time looking up generic types.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        duration = try c.decode(Double.self, forKey: .duration)
        partials = try Self.partials(c, .partials)
        weakPartials = try Self.partials(c, .weakPartials)
        attack = try c.decodeIfPresent(Double.self, forKey: .attack)
        var d = try c.nestedUnkeyedContainer(forKey: .decay)
        decay = []
        while !d.isAtEnd { decay.append(try d.decodeNil() ? nil : d.decode(Double.self)) }
        envelope = try Self.rows(c, .envelope)
        bandLevels = try Self.numbers(c.nestedUnkeyedContainer(forKey: .bandLevels))
        modulation = try Self.rows(c, .modulation)
        modulationLevels = try Self.numbers(c.nestedUnkeyedContainer(forKey: .modulationLevels))
        pulse = try c.decodeIfPresent(Double.self, forKey: .pulse)
    }

    private static func numbers(_ container: any UnkeyedDecodingContainer) throws -> [Double] {
        var u = container
        var out: [Double] = []
        if let n = u.count { out.reserveCapacity(n) }
        while !u.isAtEnd { out.append(try u.decode(Double.self)) }
        return out
    }

    private static func rows(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> [[Double]] {
        var u = try c.nestedUnkeyedContainer(forKey: key)
        var out: [[Double]] = []
        while !u.isAtEnd { out.append(try numbers(u.nestedUnkeyedContainer())) }
        return out
    }

    private static func partials(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> [Partial] {
        var u = try c.nestedUnkeyedContainer(forKey: key)
        var out: [Partial] = []
        while !u.isAtEnd { out.append(try u.decode(Partial.self)) }
        return out
    }
}
