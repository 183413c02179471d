import AudioCore
import Foundation

/// The tops a clipper flattened, drawn again: each clipping run (``SignalDefectScan``'s definition: ≥ 3 samples of one
/// sign on a rail: full scale, or the rails ``ClipRails`` found below it in a file clipped and then turned down) is
/// filled with the arc of a sinusoid through the intact samples on either side of it, at the slope the waveform had
/// there, so the measures of what a sound *is* (its decay, partials, strikes) read the sound under the clipping rather
/// than the clipper's plateau.
///
/// Why a sinusoid: a ringing body is a sum of decaying sinusoids, and near a top one of them carries the waveform. The
/// clipper keeps the samples below the rail exactly, so the intact sample next to a run and the one beyond it give the
/// value `e` and the slope `s` (per sample) of the waveform as it rose into the rail; the arc spans from the intact
/// sample before the run to the one after it (`w`, the run's length plus one). An arc of amplitude `A` and rate `ω`
/// (rad per sample) that starts at phase `u` has A·sin u = e and A·ω·cos u = s, and ends at phase π − u, `w` samples
/// on: ω = (π − 2u)/w, so tan u / (π − 2u) = e / (s·w), which fixes `u` (the left side rises from 0 to ∞ over
/// 0 < u < π/2), then ω and A. Both edges are averaged. A pure tone clipped 3.5 to 30 dB over full scale is drawn
/// back to its own sine, its level within 0.3 dB, wherever a few intact samples separate its tops (100 and 440 Hz at
/// 48 kHz at any depth; 1250 Hz to 10 dB over; 3 kHz to 3.5 dB). A tone whose tops are a sample or two apart, rail to
/// rail, shows a slope no steeper than that step, so its arc is drawn low: its level under the clipping reads short of
/// the sound's (1250 Hz 20 dB over: 0.9 dB; 3 kHz 20 dB over: 12 dB), never beyond it, and still nearer than the
/// plateau's. A run with no intact pair beside it (a file that starts or ends on the rail) or no slope keeps the
/// rail: nothing says how far over it the sound went.
///
/// Then the sound's partials draw the runs over the arcs (``ClippedTones``): in each 20 ms window that holds clipping
/// and enough intact samples, the sum of the file's strongest partials fitted to the intact samples by least
/// squares. One arc follows one sinusoid; a top made of several partials misleads it (a tone of three partials 20 dB
/// over read its first 10 dB about 4 dB high, so its decay read 20 % fast, and two bells that fall 12–13 dB in their
/// files read under 10 dB of it), while the fit reads each partial wherever the tops fall. Where no window is fitted
/// and kept (too few intact samples: a file pinned to its rail; or partials that do not explain them), the arcs stay.
///
/// What it is for, and what not: a clipped bell's class is the class of the sound under the clipping (docs/bells.md,
/// "Clipping"): its decay must not end at a plateau, nor its strikes and partials come from the plateau's corners.
/// The clipping is its own defect, measured on the file as it is (``SignalDefectScan``); the arcs are an estimate, and
/// nothing is ever written back to a file or played from them. Samples outside clipping runs are left exactly as they
/// are, so a file with no clipping is measured bit for bit as before.
///
/// - Thread safety: stateless; call from any thread.
/// - Real-time safe: no.
public enum ClippedTops {
    /// How far under the loudest level read under the clipping a top of the sound's envelope may lie and still be
    /// its peak, the point its decay is measured from (dB; ``DecayAnalysis``): 0.5 dB. The levels read under 20 dB
    /// of clipping are within about a quarter of a decibel of the sound's (pure tones within 0.3 dB; 0.23 dB RMS
    /// over a corpus alert's clipped frames, docs/bells.md), so two tops closer than twice that cannot be ordered
    /// by the reading, nor by the ear (a level difference under 1 dB is not heard): the first of them is where the
    /// sound reaches its peak. A sound read as it is takes its loudest value.
    public static let peakTolerance = 0.5

    /// `buffer` with every clipping run of every channel filled by its arc, then by the fitted partials where a
    /// window can be fitted (a copy; `buffer` is unchanged). The samples must be finite.
    ///
    /// - Parameter rails: where the clipper held the tops (``SignalDefectScan/rails``); full scale by default.
    /// - Complexity: O(frames × channels) for a channel without clipping; O(frames × partials²) over the windows
    ///   that hold clipping (``ClippedTones``).
    public static func filled(_ buffer: AudioBuffer, rails: ClipRails = .fullScale) -> AudioBuffer {
        filledMarkingArcs(buffer, rails: rails).buffer
    }

    /// ``filled(_:rails:)``, and which frames it left to the arcs: `arcs[i]` is true where a clipping run of some
    /// channel holds frame `i` and no kept fit of the partials drew it there (its arc, or its rail where no arc could
    /// be drawn, stays). The arcs follow one sinusoid through each top: over a sound of several partials they are an
    /// estimate that readings of the spectrum must not take as the sound (``BellClassRules``'s `noise`).
    public static func filledMarkingArcs(_ buffer: AudioBuffer, rails: ClipRails = .fullScale) -> (
        buffer: AudioBuffer, arcs: [Bool]
    ) {
        var out = buffer
        var arcs = [Bool](repeating: false, count: buffer.frameCount)
        let rate = buffer.sampleRate.double
        for c in 0..<buffer.channels {
            let clipped = Array(buffer.channel(c))
            let found = runs(clipped, rails: rails)
            guard !found.isEmpty else { continue }
            out.withMutableChannel(c) { x in
                for r in found { fillRun(x, from: r.lowerBound, to: r.upperBound, rails: rails) }
            }
            // Where a window holds enough intact samples, the sound's partials fitted to them draw the runs instead.
            var inRun = [Bool](repeating: false, count: clipped.count)
            for r in found { for i in r { inRun[i] = true } }
            let onRail = clipped.map { rails.holds($0) }
            let frequencies = ClippedTones.partials(Array(out.channel(c)), sampleRate: rate)
            out.withMutableChannel(c) {
                ClippedTones.fill(
                    $0, clipped: clipped, inRun: inRun, onRail: onRail, frequencies: frequencies, sampleRate: rate,
                    arcs: &arcs)
            }
        }
        return (out, arcs)
    }

    /// Fills every clipping run of one channel's samples in place with its arc (the arcs alone, without the fitted
    /// partials ``filled(_:rails:)`` draws over them).
    public static func fill(_ x: UnsafeMutableBufferPointer<Float>, rails: ClipRails = .fullScale) {
        for r in runs(x, rails: rails) { fillRun(x, from: r.lowerBound, to: r.upperBound, rails: rails) }
    }

    /// The clipping runs of one channel's samples: ``SignalDefectScan/minimumRun`` samples or more of one sign on a
    /// rail (a non-finite sample is on none), in order: the rule of the `clipping` defect, which the reports shade.
    public static func runs<C: RandomAccessCollection<Float>>(_ x: C, rails: ClipRails = .fullScale) -> [Range<Int>]
    where C.Index == Int {
        func on(_ v: Float) -> Bool { v.isFinite && rails.holds(v) }
        var out: [Range<Int>] = []
        var i = x.startIndex
        while i < x.endIndex {
            guard on(x[i]) else {
                i += 1
                continue
            }
            var j = i
            while j < x.endIndex, on(x[j]), (x[j] > 0) == (x[i] > 0) { j += 1 }
            if j - i >= SignalDefectScan.minimumRun { out.append(i..<j) }
            i = j
        }
        return out
    }

    /// Fills the run `start..<end` (samples on a rail, one sign) with its arc; leaves it when no intact sample pair
    /// beside it gives a slope.
    static func fillRun(
        _ x: UnsafeMutableBufferPointer<Float>, from start: Int, to end: Int, rails: ClipRails = .fullScale
    ) {
        // The intact sample next to the run on each side, and the slope there: its step from the sample beyond it.
        var (edge, slope, sides) = (0.0, 0.0, 0.0)
        if start >= 2, !rails.holds(x[start - 1]) {
            edge += abs(Double(x[start - 1]))
            slope += abs(Double(x[start - 1]) - Double(x[start - 2]))
            sides += 1
        }
        if end + 1 < x.count, !rails.holds(x[end]) {
            edge += abs(Double(x[end]))
            slope += abs(Double(x[end]) - Double(x[end + 1]))
            sides += 1
        }
        guard sides > 0, slope > 0 else { return }
        (edge, slope) = (edge / sides, slope / sides)
        // The arc spans from the intact sample before the run to the one after it (`width` samples apart), meeting
        // them at the phase `u` where A·sin u = edge and A·ω·cos u = slope.
        let count = end - start
        let width = Double(count + 1)
        let u = railPhase(edge / (slope * width))
        let omega = (Double.pi - 2 * u) / width
        let amplitude = u > 1e-9 ? edge / sin(u) : slope / omega
        let r = Double(abs(x[start]))
        let sign: Double = x[start] > 0 ? 1 : -1
        for t in 0..<count {
            x[start + t] = Float(sign * max(r, amplitude * sin(u + omega * Double(t + 1))))
        }
    }

    /// The phase `u` in (0, π/2) at which the arc meets the samples beside the run: the root of tan u / (π − 2u) = `k`, by bisection
    /// (the left side is increasing; 50 halvings leave an error under 1e-15 rad).
    static func railPhase(_ k: Double) -> Double {
        var (low, high) = (0.0, Double.pi / 2)
        for _ in 0..<50 {
            let mid = (low + high) / 2
            if tan(mid) / (Double.pi - 2 * mid) < k { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}
