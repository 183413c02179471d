/// Gain curves for fades and crossfades.
///
/// - `equalPower`: `sin`/`cos` quarter waves; the *power* of two uncorrelated signals stays constant
///   (g_out² + g_in² = 1). Use for unrelated material (two rain textures, two themes).
/// - `equalGain`: linear ramps; the *amplitude* of two correlated (identical-phase) signals stays constant
///   (g_out + g_in = 1). Use for material that matches itself (a loop's tail into its own head).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: yes.
public enum CrossfadeCurve: String, Sendable, CaseIterable, Codable {
    case equalPower = "equal-power"
    case equalGain = "equal-gain"

    /// The fade-in gain at position `x` in 0...1 (0 → silent, 1 → full).
    @inlinable
    public func fadeIn(_ x: Float) -> Float {
        let t = min(max(x, 0), 1)
        switch self {
        case .equalPower: return Self.quarterSine(t)
        case .equalGain: return t
        }
    }

    /// The fade-out gain at position `x` in 0...1 (0 → full, 1 → silent).
    @inlinable
    public func fadeOut(_ x: Float) -> Float { fadeIn(1 - x) }

    /// `sin(t·π/2)` for t in 0...1, accurate to ~1e-7, without calling libm (usable in `@_noLocks` kernels).
    @inlinable
    public static func quarterSine(_ t: Float) -> Float {
        // Odd Taylor series of sin around 0 for θ = t·π/2 ≤ π/2; 7 terms reach float precision there.
        let theta = Double(t) * (Double.pi / 2)
        let t2 = theta * theta
        var term = theta
        var sum = theta
        var k = 1.0
        for _ in 0..<7 {
            term *= -t2 / ((2 * k) * (2 * k + 1))
            sum += term
            k += 1
        }
        return Float(sum)
    }
}
