import Foundation

/// What the strikes of a sound make: one bell struck once or several times, or a figure of different notes.
///
/// - `strikes`: the onsets (``OnsetAnalysis``) after which the sound comes within 10 dB of its peak in the next
///   100 ms, both levels heard over 100 ms (``loudnessSpan``, the ear's integration time: the loudest 100 ms centred
///   in the 100 ms after the onset, against the loudest 100 ms of the file). A quieter event is an ornament of the
///   sound (a clapper's touch, a rattle, the build-up of a gong's hum), not a note of a figure: at −10 dB a sound is
///   heard as about half as loud (the sone scale).
/// - `newNotes`: the strikes, other than the main one (the last strike at or before the envelope peak), whose new
///   energy lies mostly away from the main strike's: under half of the power that appears in the frame after the
///   strike (the positive difference with the frame before) falls within ±3 % (a quarter tone, at least ±2 bins)
///   of the peaks of the main strike's own new energy (within 30 dB of its strongest), and which is at least
///   ``newEnergyAudibility`` of the frame's power (a change far under the ring is no note). A bell struck again
///   rings in the same partials; the notes of a melody or an arpeggio add new ones.
///
///   A peak is a bin over both its neighbours. A Hann window's sidelobes stand 31.5 dB or more under their partial,
///   below the 30 dB the peaks are taken within, so every such bin is a partial, not the window's view of one; and a
///   partial three bins from a louder one, whose main lobe still stands two bins from it, is found as well, wherever
///   the bins fall (36 and 72 Hz lie four bins apart at 44.1 kHz and three at 48 kHz).
///
///   A bell struck again rings in them in about its own balance, too: as the main strike struck them, or as they
///   have rung since (a gong's modes bloom after the strike, a faint mode swelling to its loudest). So the strike's
///   energy at one of those partials is the bell's only where that balance would bring there at least
///   ``newEnergyAudibility`` of it: the partial's largest share of its frame's strongest, from the main strike's new
///   energy or from the spectrogram's frames between the main strike and this one (a strike before the main one: the
///   main strike's alone), taken of the strike's own strongest. Where the bell would bring less, it would move the
///   level there by under 0.04 dB, and what is heard is a new pitch on a faint partial (a loud A4 after a chord whose
///   A4 lies 26 dB under its strongest), not the bell again.
///
///   A strike's two frames are placed at its attack (`attack(near:energy:sampleRate:)`, to the sample): the
///   frame after starts there, holding the attack; the frame before ends a hop before it, holding none of the rise (a
///   codec's pre-echo spreads a rise ahead of it). On the spectrogram's grid the frame after starts anywhere from 0 to
///   a hop (46 ms) after the strike, and on the flux's grid the onset lies up to a flux hop (11 ms) from it, so what a
///   frame held of a note whose overtones die fast, or of the next strike, turned on where the file started (30 ms of
///   leading silence, a codec's delay or another rate moved `lo-supreme`'s share of the main strike's partials from
///   99.9 % to under 0.01 %; `lo-alarm-clock`, struck every 93 ms on a tone about 1 kHz and one about 3.1 kHz in
///   turn, read 13 new notes or none). The frames the bell's balance is gathered from end before the attack too. A
///   strike in the grid's first frame is read on the grid alone, against the silence before the file: the file's
///   start falls on the grid wherever the file is cut.
/// - `enteringNotes`, `entryTimes`: the new tones that enter, struck or not: a periodic tone rising 20 dB over anything
///   heard at its pitch (`noteEntries(_:levels:signal:)`). It finds the soft notes of a figure (a pad swelling in over the ring of
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

    /// How long (seconds) the sound is heard over when a strike's level is set against the peak's: 100 ms, over which
    /// the ear sums a sound's energy before it judges its loudness (temporal integration), and longer than the
    /// blocks an admitted codec reshapes a sound in (Vorbis's long block, 46 ms at 44.1 kHz; an MP3 frame, 26 ms;
    /// Opus, 20 ms): a codec moves energy within a block (an attack's top spread over it as pre-echo), not out of a
    /// 100 ms span, and the 5 ms grid a span starts on moves its level by hundredths of a dB.
    public static let loudnessSpan = 0.1

    /// The level (dB) of the sound over ``loudnessSpan`` centred on each value of `envelope` (dB, one every `hop`
    /// seconds: ``DecayAnalysis/curve``): the mean power of the values across the
    /// span, the file's outside silent.
    static func loudness(_ envelope: [Double], hop: Double) -> [Double] {
        let span = max(1, Int((loudnessSpan / hop).rounded()))
        var sums = [Double](repeating: 0, count: envelope.count + 1)
        for (k, v) in envelope.enumerated() { sums[k + 1] = sums[k] + pow(10, v / 10) }
        return envelope.indices.map { k in
            let a = max(0, k - span / 2)
            let b = min(envelope.count, k - span / 2 + span)
            let power = (sums[b] - sums[a]) / Double(span)
            return power > 0 ? 10 * log10(power) : -.infinity
        }
    }

    /// - Parameters:
    ///   - onsets: onset times (seconds from the start of the file).
    ///   - envelope: the envelope in dB re its peak, every `hop` seconds (``DecayAnalysis/curve``).
    ///   - peakTime: the envelope peak's time.
    ///   - spectrogram: the spectra the strikes' new energy and the entering tones' partials are read from.
    ///   - signal: the mono signal `spectrogram` was drawn from, on whose frames placed at each strike (off the
    ///     spectrogram's grid) a strike's new energy is read as well.
    ///   - levels: the spectra the frames' levels are read from when they differ (``noteEntries(_:levels:signal:)``): a
    ///     clipped file's spectra under its clipping (``ClippedTops``). Nil: `spectrogram`.
    public init(
        onsets: [Double], envelope: [Double], hop: Double, peakTime: Double, spectrogram s: Spectrogram,
        signal: [Float], levels: Spectrogram? = nil
    ) {
        let loudness = Self.loudness(envelope, hop: hop)
        let loudest = loudness.max() ?? 0
        // A strike's level is what it brings before the next onset: its spans end where the next one starts (noise
        // that starts with the file, 0.12 s before a gong's strike, read as loud as the strike after it).
        func level(after t: Double, before next: Double?) -> Double {
            let a = max(0, Int((t / hop).rounded()))
            let last = min(t + 0.1, next.map { $0 - Self.loudnessSpan / 2 } ?? .infinity)
            let b = min(loudness.count, Int((last / hop).rounded()) + 1)
            return a < b ? loudness[a..<b].max()! - loudest : -.infinity
        }
        let notes = onsets.indices.filter { i in
            level(after: onsets[i], before: i + 1 < onsets.count ? onsets[i + 1] : nil) >= Self.noteLevel
        }.map { onsets[$0] }
        strikes = notes.count
        entryTimes = Self.noteEntries(s, levels: levels, signal: signal)
        guard notes.count >= 2, s.frameCount >= 2 else {
            newNotes = 0
            return
        }
        let main = notes.lastIndex { $0 <= peakTime + 0.02 } ?? 0
        let bins = s.binCount
        let frameHop = s.size / 2
        let rate = s.binHertz * Double(s.size)
        /// The power that appears between the frames `before` and `after` (nil: the silence before the file), floored
        /// at 0, and the power of `after`.
        func difference(_ after: [Float], _ before: [Float]?) -> (new: [Double], heard: Double) {
            var out = [Double](repeating: 0, count: bins)
            var heard = 0.0
            for b in 1..<bins {
                out[b] = max(0, Double(after[b]) - Double(before?[b] ?? 0))
                heard += Double(after[b])
            }
            return (out, heard)
        }
        // Where each strike starts, to the sample (its onset lies on the flux's grid).
        let energy = CrossCorrelation.energyPrefix(signal)
        let attacks = notes.map { Self.attack(near: $0, energy: energy, sampleRate: rate) }
        /// The power that appears at strike `i`, read on the pair of frames placed at its attack: the frame that starts
        /// there minus the frame that ends a hop before it. A strike in the grid's first frame is read on the grid
        /// alone, against the silence before the file: the first frame already holds the strike, and the file's start
        /// falls on the grid wherever the file is cut.
        func newEnergy(_ i: Int) -> (new: [Double], heard: Double) {
            guard Int((notes[i] / s.hopSeconds).rounded(.down)) >= 1 else {
                let after = min(s.frameCount - 1, Int((notes[i] / s.hopSeconds).rounded(.up)) + 1)
                return difference(Array(s.power[after * bins..<(after + 1) * bins]), nil)
            }
            let at = attacks[i]
            return difference(
                s.framePower(signal, centre: at + frameHop), s.framePower(signal, centre: at - 2 * frameHop))
        }
        let reference = newEnergy(main).new
        let top = reference.max() ?? 0
        // The level (a share of its strongest) of the main strike's loudest partial within reach of each bin; 0: none.
        // A partial is a bin over both its neighbours (the window's sidelobes lie under the 30 dB taken).
        var partial = [Double](repeating: 0, count: bins)
        if top > 0 {
            for b in 2..<max(2, bins - 2) where reference[b] >= top * 1e-3 {
                guard reference[b] >= reference[b - 1], reference[b] >= reference[b + 1] else { continue }
                let reach = Self.quarterToneReach(bin: b)
                for j in max(1, b - reach)...min(bins - 1, b + reach) {
                    partial[j] = max(partial[j], reference[b] / top)
                }
            }
        }
        let nearBins = (1..<bins).filter { partial[$0] > 0 }
        // The balance the bell has rung in since the main strike: at each of its partials, the largest share of its
        // frame's strongest bin that the partial reached in the spectrogram's frames from the main strike's frame after
        // it, gathered as the strikes come (a gong's modes bloom after the strike: its balance then is its own).
        var rung = partial
        var nextFrame = Int((Double(attacks[main]) / rate / s.hopSeconds).rounded(.up)) + 1
        func ring(until last: Int) {
            guard nextFrame <= last else { return }
            s.power.withUnsafeBufferPointer { p in
                for k in nextFrame...last {
                    let strongest = Self.strongest(p, row: k * bins, bins: 1...(bins - 1))
                    guard strongest > 0 else { continue }
                    for b in nearBins { rung[b] = max(rung[b], Double(p[k * bins + b] / strongest)) }
                }
            }
            nextFrame = last + 1
        }
        var fresh = 0
        let audible = pow(10, Self.newEnergyAudibility / 10)
        for i in notes.indices where i != main {
            let (e, heard) = newEnergy(i)
            let total = e.reduce(0, +)
            guard total > 0, total >= heard * audible else { continue }
            // The bell struck again in its balance would bring, at each of its partials, that partial's share of the
            // strike's strongest; where that is under `audible` of what the strike brings there, it is not heard in it,
            // and the strike's energy there is a new pitch on a faint partial, not the bell again. A strike after the
            // main one reads the balance as the bell has rung up to its frame before; one before it, as struck.
            if i > main {
                let struck = Double(attacks[i]) / rate
                ring(until: min(s.frameCount - 1, Int((struck / s.hopSeconds).rounded(.down)) - 1))
            }
            let balance = i > main ? rung : partial
            let strongest = e.max()!
            var shared = 0.0
            for b in nearBins where balance[b] * strongest >= e[b] * audible { shared += e[b] }
            if shared / total < 0.5 { fresh += 1 }
        }
        newNotes = fresh
    }
}
