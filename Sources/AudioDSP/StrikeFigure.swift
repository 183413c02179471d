import Foundation

/// What the strikes of a sound make: one bell struck once or several times, or a figure of different notes.
///
/// - `strikes`: the onsets (``OnsetAnalysis``) after which the envelope comes within 10 dB of its peak in the next
///   100 ms. A quieter event is an ornament of the sound (a clapper's touch, a rattle, the build-up of a gong's
///   hum), not a note of a figure: at −10 dB a sound is heard as about half as loud (the sone scale).
/// - `newNotes`: the strikes, other than the main one (the last strike at or before the envelope peak), whose new
///   energy lies mostly away from the main strike's: under half of the power that appears in the frame after the
///   strike (the positive difference with the frame before) falls within ±3 % (a quarter tone, at least ±2 bins)
///   of the peaks of the main strike's own new energy (within 30 dB of its strongest), and which is at least
///   ``newEnergyAudibility`` of the frame's power (a change far under the ring is no note). A bell struck again
///   rings in the same partials; the notes of a melody or an arpeggio add new ones.
///
///   The two frames are placed at the strike, not taken from the spectrogram's grid: the frame after starts at the
///   onset, so it holds the strike's attack and the note's first 93 ms wherever the strike falls; the frame before
///   ends a hop (half a frame, 46 ms) before the onset, so none of the strike's rise is in it (the onset is read on
///   21 ms flux frames, and a codec's pre-echo spreads a rise ahead of it). On the grid the frame after started
///   anywhere from 0 to a hop after the strike, and the note the frame held turned on that: 30 ms of leading silence,
///   a codec's delay or another rate moved a strike's share of the main strike's partials from 99.9 % to under
///   0.01 % (`lo-supreme`), and with it the class.
/// - `enteringNotes`, `entryTimes`: the new tones that enter, struck or not: a periodic tone rising 20 dB over anything
///   heard at its pitch (`noteEntries(_:levels:)`). It finds the soft notes of a figure (a pad swelling in over the ring of
///   the notes before), whose flux is too small beside the first strike's for a strike to be found.
///
/// - Thread safety: value type.
/// - Real-time safe: no.
public struct StrikeFigure: Sendable, Codable, Equatable {
    public var strikes: Int
    public var newNotes: Int
    public var enteringNotes: Int { entryTimes.count }
    /// When each entering note enters (s from the start of the file: the centre of the frame it is first read in).
    public var entryTimes: [Double]

    /// The strike level that counts as a note (dB re the envelope peak).
    public static let noteLevel = -10.0
    /// How far under the sound after it a strike's new energy may lie and still bring a note (dB re the power of the
    /// frame after the strike): new energy 20 dB under that sound adds 1 % to its power, which moves its level by
    /// 0.04 dB, so nothing new is heard struck there, whatever bins the change falls in (a click or a codec's or
    /// resampler's burst far under a bell's ring, which the flux's log scale counts as fully as a partial's rise).
    public static let newEnergyAudibility = -20.0

    /// - Parameters:
    ///   - onsets: onset times (seconds from the start of the file).
    ///   - envelope: the envelope in dB re its peak, every `hop` seconds (``DecayAnalysis/curve``).
    ///   - peakTime: the envelope peak's time.
    ///   - spectrogram: the spectra the strikes' new energy and the entering tones' partials are read from.
    ///   - signal: the mono signal `spectrogram` was drawn from, on whose frames (placed at each strike, off the
    ///     spectrogram's grid) a strike's new energy is read.
    ///   - levels: the spectra the frames' levels are read from when they differ (``noteEntries(_:levels:)``): a
    ///     clipped file's spectra under its clipping (``ClippedTops``). Nil: `spectrogram`.
    public init(
        onsets: [Double], envelope: [Double], hop: Double, peakTime: Double, spectrogram s: Spectrogram,
        signal: [Float], levels: Spectrogram? = nil
    ) {
        func level(after t: Double) -> Double {
            let a = max(0, Int((t / hop).rounded()))
            let b = min(envelope.count, Int(((t + 0.1) / hop).rounded()) + 1)
            return a < b ? envelope[a..<b].max()! : -.infinity
        }
        let notes = onsets.filter { level(after: $0) >= Self.noteLevel }
        strikes = notes.count
        entryTimes = Self.noteEntries(s, levels: levels)
        guard notes.count >= 2, s.frameCount >= 2 else {
            newNotes = 0
            return
        }
        let main = notes.lastIndex { $0 <= peakTime + 0.02 } ?? 0
        let bins = s.binCount
        let frameHop = s.size / 2
        let rate = s.binHertz * Double(s.size)
        /// The power that appears at the strike at `t`: the frame that starts at it minus the frame that ends a hop
        /// before it, floored at 0 (zeros outside the file: before a strike at the file's start is the silence before
        /// the file); and the power of the frame after it.
        func newEnergy(_ t: Double) -> (new: [Double], heard: Double) {
            let at = Int((t * rate).rounded())
            let after = s.framePower(signal, centre: at + frameHop)
            let before = s.framePower(signal, centre: at - 2 * frameHop)
            var out = [Double](repeating: 0, count: bins)
            var heard = 0.0
            for b in 1..<bins {
                out[b] = max(0, Double(after[b]) - Double(before[b]))
                heard += Double(after[b])
            }
            return (out, heard)
        }
        let reference = newEnergy(notes[main]).new
        let top = reference.max() ?? 0
        var near = [Bool](repeating: false, count: bins)
        if top > 0 {
            for b in 2..<max(2, bins - 2) where reference[b] >= top * 1e-3 {
                guard reference[b] >= reference[b - 1], reference[b] >= reference[b + 1],
                    reference[b] >= reference[b - 2], reference[b] >= reference[b + 2]
                else { continue }
                let reach = max(2, Int((Double(b) * 0.03).rounded()))
                for j in max(1, b - reach)...min(bins - 1, b + reach) { near[j] = true }
            }
        }
        var fresh = 0
        let audible = pow(10, Self.newEnergyAudibility / 10)
        for (i, t) in notes.enumerated() where i != main {
            let (e, heard) = newEnergy(t)
            let total = e.reduce(0, +)
            guard total > 0, total >= heard * audible else { continue }
            var shared = 0.0
            for b in 1..<bins where near[b] { shared += e[b] }
            if shared / total < 0.5 { fresh += 1 }
        }
        newNotes = fresh
    }
}
