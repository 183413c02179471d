/// Triangular (TPDF) dither for 16-bit output: the sum of two independent uniform values of ±½ LSB each,
/// added before rounding, so the quantisation error is a constant-power noise independent of the signal
/// instead of harmonics of it (a -60 dBFS sine quantised plainly has distortion spurs 30 dB above its
/// error floor; with TPDF the error spectrum is flat).
///
/// Deterministic (xorshift32 from a fixed seed), so the same render writes the same file. Samples already on
/// the 16-bit grid are left undithered: they have no quantisation error to decorrelate, so digital silence stays
/// exactly 0 and 16-bit material passes bit for bit (a float signal lands on the grid only by chance). The
/// writers draw one value per frame for all its channels, so identical channels (dual mono) stay identical.
///
/// - Thread safety: one thread at a time (value type with state).
/// - Real-time safe: yes.
public struct TPDFDither: Sendable {
    private var state: UInt32

    /// A dither with the given seed (any non-zero value; 0 is replaced by the default).
    public init(seed: UInt32 = 0x9E37_79B9) { state = seed == 0 ? 0x9E37_79B9 : seed }

    /// The next dither value in LSB, triangular on (-1, 1).
    @inline(__always)
    public mutating func next() -> Float {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        let a = Float(state & 0xFFFF)
        let b = Float(state >> 16)
        return (a - b) * (1 / 65_536)
    }
}
