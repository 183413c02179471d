/// The top of a spectral peak between bins: a parabola through the levels (dB) of its bin and its two neighbours.
///
/// - Thread safety: stateless.
/// - Real-time safe: yes.
enum ParabolicPeak {
    /// The peak's offset from the centre bin (−0.5 … 0.5 bins for a local maximum) and its interpolated level, from the
    /// levels of the bin before, the centre bin and the bin after; no offset when the three do not curve down.
    static func interpolate(_ left: Double, _ centre: Double, _ right: Double) -> (offset: Double, level: Double) {
        let curvature = left - 2 * centre + right
        let offset = curvature < 0 ? 0.5 * (left - right) / curvature : 0
        return (offset, centre - 0.25 * (left - right) * offset)
    }
}
