import AudioCore
import Foundation

extension LoopFinder {
    /// The most frames at a whole-file loop's end or start that are read as strays: fewer than one period of
    /// 20 kHz, the highest frequency heard (1 frame at 22.05 kHz, 2 at 44.1 and 48 kHz, 4 at 96 kHz). So short a run
    /// holds no sound of its own; a listener hears it only as the click it makes at the wrap.
    static func strayFrameLimit(sampleRate: Int) -> Int { max(1, sampleRate / 20_000) }

    /// A whole-file loop whose seam fails only for a few stray frames at its end or its start (an editor that wrote
    /// the last sample near 0, a dropout, a click at frame 0): the loop without them, when
    ///
    /// - they stand apart from both sides: the seam's step fails the continuity metric, and so does the junction on
    ///   their other side, judged as the seam is (``junctionFails(_:region:at:)``), where a step discontinuity (a
    ///   cut, a level change) steps on one side only, and a chance step of noise is rarer than one in a thousand on
    ///   each;
    /// - they are at most ``strayFrameLimit(sampleRate:)`` frames;
    /// - and the loop without them passes every seam metric (``SeamRules/passes(_:loop:)``).
    ///
    /// The fewest frames are tried first, the end before the start. `nil` when none mends the seam. Nothing of the
    /// sound is lost: the loop keeps every other frame, with no crossfade (`loops bake` writes it so).
    ///
    /// - Parameter report: the seam's report (``SeamRules/judge(_:loop:)`` or ``SeamRules/passes(_:loop:)`` of
    ///   `region`): its continuity metric is the seam's junction, judged, not measured again.
    static func strayFramesMended(_ buffer: AudioBuffer, region: LoopRegion, report: SeamRules.Report) -> Candidate? {
        let (s, e) = (Int(region.start), Int(region.end))
        let limit = strayFrameLimit(sampleRate: buffer.sampleRate.hertz)
        guard e - s > 4 * limit + 16, report.metrics.contains(where: { $0.name == .continuity && $0.status == .fail })
        else { return nil }
        // The channel whose seam steps most: the one the reason quotes.
        let channel = (0..<buffer.channels).max {
            abs(buffer[$0, s] - buffer[$0, e - 1]) < abs(buffer[$1, s] - buffer[$1, e - 1])
        }!
        let x = { (i: Int) in buffer[channel, i] }
        for k in 1...limit {
            for atEnd in [true, false] {
                // The dropped run x[a ..< b], between the frames `before` and `after` as played; its other junction
                // is the one into it at the end, out of it at the start.
                let (a, b) = atEnd ? (e - k, e) : (s, s + k)
                let (before, after) = atEnd ? (a - 1, s) : (e - 1, b)
                let loop = atEnd ? s..<(e - k) : (s + k)..<e
                guard junctionFails(buffer, region: region, at: atEnd ? a : b),
                    SeamRules.passes(buffer, loop: loop).seamPasses
                else { continue }
                let (frames, it) = k == 1 ? ("frame", "it") : ("\(k) frames", "them")
                let values = (a..<b).map { String(format: "%.4f", x($0)) }.joined(separator: ", ")
                let reason = String(
                    format:
                        "the whole file less its %@ %@ (%@) loops cleanly: a stray, %.4f from the frame before %@ and %.4f from the one after, which step %.4f without %@",
                    atEnd ? "last" : "first", frames, values, abs(x(a) - x(before)), it, abs(x(after) - x(b - 1)),
                    abs(x(after) - x(before)), it)
                return Candidate(
                    start: Int64(loop.lowerBound), end: Int64(loop.upperBound), score: 1, reasons: [reason],
                    correlation: 1)
            }
        }
        return nil
    }

    /// Whether the junction of `region` between frame `j − 1` and frame `j` (cyclically)
    /// fails the continuity metric, judged as a seam is: on the loop turned to start at `j`, whose seam it then is,
    /// against the same loop's junctions. Only that metric is measured (``SeamRules/continuity(_:loop:)``).
    static func junctionFails(_ buffer: AudioBuffer, region: LoopRegion, at j: Int) -> Bool {
        let (s, e) = (Int(region.start), Int(region.end))
        // The loop from `j`, every channel in one planar copy.
        var planar: [Float] = []
        planar.reserveCapacity(buffer.channels * (e - s))
        for c in 0..<buffer.channels {
            buffer.withChannel(c) { x in
                planar += x[j..<e]
                planar += x[s..<j]
            }
        }
        let turned = AudioBuffer(
            planarSamples: planar, channels: ChannelCount(buffer.channels)!, sampleRate: buffer.sampleRate)
        return SeamRules.continuity(turned, loop: 0..<turned.frameCount).status == .fail
    }
}
