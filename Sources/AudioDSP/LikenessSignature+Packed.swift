import Foundation

extension LikenessSignature {
    /// A signature in compact numeric form, for holding many (`bells rank` of 100 000 rows): every figure as a
    /// 32-bit whole number of its rounding step (``rounded()``: hundredths of a cent or decibel, tenths of a
    /// millisecond), all in one array, about a quarter of the memory of the signature's eight Swift arrays.
    /// ``signature`` gives back the very same doubles (a figure is packed only when it comes back bit for bit), so
    /// groups found from unpacked signatures are those of the rows.
    ///
    /// A signature with a figure off its rounding step (not made by ``rounded()``), a non-finite figure or ragged
    /// rows is kept whole instead.
    ///
    /// - Thread safety: value type, any thread.
    public struct Packed: Sendable {
        /// Counts, then figures (layout in ``init(_:)``); empty when ``whole`` holds the signature.
        private var values: [Int32]
        /// The signature as given, when it cannot be packed exactly.
        private var whole: [LikenessSignature]

        /// Decibels and cents are packed in hundredths, seconds in tenths of a millisecond (``rounded()``'s steps).
        static let levelScale = 100.0
        static let secondScale = 10_000.0
        /// Stands for nil (a band's decay not measured, no attack, no pulse).
        static let none = Int32.min

        /// Packs `s`: exactly, or whole when some figure is off its step.
        public init(_ s: LikenessSignature) {
            var v: [Int32] = []
            func rectangular(_ rows: [[Double]]) -> Int? {
                guard let n = rows.first?.count else { return 0 }
                return rows.allSatisfy { $0.count == n } ? n : nil
            }
            guard let envelopeWidth = rectangular(s.envelope), let modulationWidth = rectangular(s.modulation) else {
                (values, whole) = ([], [s])
                return
            }
            var exact = true
            func put(_ x: Double?, _ scale: Double) {
                guard let x else { return v.append(Self.none) }
                let q = (x * scale).rounded()
                // Packed only when the whole number gives back the very double (−0 comes back +0: kept whole).
                guard x.isFinite, abs(q) < Double(Int32.max), (Double(Int32(q)) / scale).bitPattern == x.bitPattern
                else {
                    exact = false
                    return v.append(0)
                }
                v.append(Int32(q))
            }
            let counts = [
                s.partials.count, s.weakPartials.count, s.decay.count, s.envelope.count, envelopeWidth,
                s.bandLevels.count, s.modulation.count, modulationWidth, s.modulationLevels.count,
            ]
            v.reserveCapacity(
                5 + counts.count + 2 * (counts[0] + counts[1]) + counts[2] + counts[3] * counts[4] + counts[5]
                    + counts[6] * counts[7] + counts[8])
            v.append(s.kind == .struck ? 0 : 1)
            v += counts.map { Int32($0) }
            put(s.duration, Self.secondScale)
            put(s.attack, Self.secondScale)
            put(s.pulse, Self.secondScale)
            for p in s.partials + s.weakPartials {
                put(p.cents, Self.levelScale)
                put(p.level, Self.levelScale)
            }
            for d in s.decay { put(d, Self.secondScale) }
            for x in s.envelope.joined() { put(x, Self.levelScale) }
            for x in s.bandLevels { put(x, Self.levelScale) }
            for x in s.modulation.joined() { put(x, Self.levelScale) }
            for x in s.modulationLevels { put(x, Self.levelScale) }
            (values, whole) = exact ? (v, []) : ([], [s])
        }

        /// The signature packed, figure for figure.
        public var signature: LikenessSignature {
            if let s = whole.first { return s }
            var i = 0
            func next() -> Int32 {
                defer { i += 1 }
                return values[i]
            }
            func take(_ scale: Double) -> Double? {
                let q = next()
                return q == Self.none ? nil : Double(q) / scale
            }
            func figures(_ n: Int, _ scale: Double) -> [Double] { (0..<n).map { _ in take(scale) ?? 0 } }
            let kind: Kind = next() == 0 ? .struck : .texture
            let c = (0..<9).map { _ in Int(next()) }
            var s = LikenessSignature(kind: kind, duration: take(Self.secondScale) ?? 0)
            s.attack = take(Self.secondScale)
            s.pulse = take(Self.secondScale)
            let all = (0..<(c[0] + c[1])).map { _ in
                Partial(cents: take(Self.levelScale) ?? 0, level: take(Self.levelScale) ?? 0)
            }
            s.partials = Array(all[..<c[0]])
            s.weakPartials = Array(all[c[0]...])
            s.decay = (0..<c[2]).map { _ in take(Self.secondScale) }
            s.envelope = (0..<c[3]).map { _ in figures(c[4], Self.levelScale) }
            s.bandLevels = figures(c[5], Self.levelScale)
            s.modulation = (0..<c[6]).map { _ in figures(c[7], Self.levelScale) }
            s.modulationLevels = figures(c[8], Self.levelScale)
            return s
        }
    }
}
