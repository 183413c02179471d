import AudioCore
import Foundation

extension OnsetAnalysis {
    /// The room's level under a sound (dB re its loudest 10 ms): a bell normalised for a quiet room peaks around
    /// 75–80 dB SPL, and 50 dB under that sits at about the room's own 25–30 dBA. What stays there before the sound
    /// rises (a recording's hiss or room tone before the strike, a faint click) is not heard over the room: the sound
    /// has not begun.
    public static let roomLevel = -50.0

    /// The length of the windows the sound's level is read in before it rises: 10 ms, the envelope's.
    static let roomLevelWindow = 0.01

    /// The sound's first frame: from where it rises over the room's level (``risesOverRoom(_:baseline:)``), the first
    /// frame where a channel departs from its `baseline` level (0 by default) by more than a line 60 dB under the
    /// largest departure in the file (−60 dBFS, ``silenceThreshold``, for a file peaking at full scale; non-finite
    /// samples never do). `frameCount` when none does, or when nothing departs by more than −60 dBFS (a silent file).
    /// `leadingSilence` is read here, and `enso bells trim` cuts what lies before it.
    ///
    /// The line is the sound's own level, as the room's is: a bell is played normalised, so what is silence does not
    /// depend on the gain it was written at. Read against −60 dBFS, a sound that swells in moved its start with the
    /// gain: the proxy's `yaru-desktop-login` written at −40 LUFS read 0.25 s of pre-roll for its 0.12 s, a
    /// `leading-silence` defect, and `bells trim` cut the first 0.13 s of its swell.
    public static func firstSoundFrame(_ buffer: AudioBuffer, baseline: [Float]? = nil) -> Int {
        let n = buffer.frameCount
        let rises = risesOverRoom(buffer, baseline: baseline)
        var first = n
        buffer.samples.withUnsafeBufferPointer { s in
            // The largest departure from the baseline: the threshold lies 60 dB under it.
            var loudest: Float = 0
            for ch in 0..<buffer.channels {
                let p = s.baseAddress! + ch * n
                let base = baseline?[ch] ?? 0
                if base == 0 {
                    loudest = max(loudest, PeakScan.absMax(UnsafeBufferPointer(start: p, count: n)))
                    continue
                }
                for i in 0..<n where p[i].isFinite { loudest = max(loudest, abs(p[i] - base)) }
            }
            guard loudest > silenceThreshold else { return }
            let threshold = silenceThreshold * min(1, loudest)
            for ch in 0..<buffer.channels {
                let p = s.baseAddress! + ch * n
                let base = baseline?[ch] ?? 0
                var i = rises
                while i < first, !(abs(p[i] - base) > threshold && p[i].isFinite) { i += 1 }
                first = i
            }
        }
        return first
    }

    /// The frame where the sound rises over the room's level: the start of the first 10 ms (every frame a start) whose
    /// power, the mean over the channels of each channel's departure from its `baseline` level squared (0 by default;
    /// non-finite samples count as silence), comes within ``roomLevel`` of the loudest 10 ms of the file.
    /// `frameCount` when nothing departs from the baseline.
    ///
    /// The level is the sound's own, relative to its loudest 10 ms, and the frame is the content's, not a grid's (the
    /// window is placed at every frame): silencing or cutting what lies before it (as `enso bells trim` does) leaves
    /// it and all after it as they were, and it is found again.
    public static func risesOverRoom(_ buffer: AudioBuffer, baseline: [Float]? = nil) -> Int {
        let n = buffer.frameCount
        let channels = buffer.channels
        guard n > 0, channels > 0 else { return n }
        precondition(baseline.map { $0.count == channels } ?? true, "one baseline level per channel")
        let w = min(n, max(1, Int(buffer.sampleRate.frames(seconds: roomLevelWindow))))
        return buffer.samples.withUnsafeBufferPointer { s -> Int in
            let windows = RoomWindows(s, frames: n, channels: channels, window: w, baseline: baseline)
            let loudest = windows.loudest()
            guard loudest > 0 else { return n }
            return windows.first(reaching: loudest * pow(10, roomLevel / 10)) ?? n
        }
    }

    /// The sums of frame powers over every window of `window` frames (window `j` holds frames `j ..< j + window`), as
    /// a sliding sum reads them: the sum taken afresh at every multiple of the window length (so rounding does not
    /// build up over a long file), and in between the newest frame's power added and the oldest's taken off, each
    /// sum clamped at 0. A frame's power is the mean over the channels of each channel's departure from its baseline
    /// level squared (non-finite samples count as silence).
    ///
    /// Every window is not summed: a window starting in block `b` (the window-length blocks the fresh sums start)
    /// lies within blocks `b` and `b + 1`, so its sum is at most theirs, and a block whose bound stays under what is
    /// sought (the loudest so far, the level the sound must reach) is passed over. The rest slide from their block's
    /// fresh sum, so every sum read is the one a slide over the whole file reads, to the bit (the bound is taken
    /// 10⁻⁹ wide, some thousand times the rounding of a window's sums). What is kept is one sum per block (a hundredth
    /// of a second's), not the signal's powers.
    private struct RoomWindows {
        let samples: UnsafeBufferPointer<Float>
        let frames: Int
        let channels: Int
        let window: Int
        let baselines: [Double]
        /// The sum of the powers of frames `b × window ..< min(frames, (b + 1) × window)`, in order from 0.
        let blockSums: [Double]
        /// The windows that fit: `frames − window + 1` (the caller gives `window ≤ frames`).
        var windows: Int { frames - window + 1 }

        init(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int, window: Int, baseline: [Float]?) {
            self.samples = samples
            self.frames = frames
            self.channels = channels
            self.window = window
            baselines = (0..<channels).map { Double(baseline?[$0] ?? 0) }
            blockSums = Self.blockSums(samples, frames: frames, window: window, baselines: baselines)
        }

        /// The largest sum of any window.
        func loudest() -> Double {
            var loudest = 0.0
            // The fresh sums first: the bound the others must beat.
            for b in 0..<blocks where b * window < windows { loudest = max(loudest, blockSums[b]) }
            for b in 0..<blocks where b * window < windows && bound(b) >= loudest {
                slide(block: b) { _, sum in
                    loudest = max(loudest, sum)
                    return true
                }
            }
            return loudest
        }

        /// The first window whose sum reaches `level`, or nil.
        func first(reaching level: Double) -> Int? {
            var found: Int?
            for b in 0..<blocks where b * window < windows && bound(b) >= level {
                slide(block: b) { start, sum in
                    guard sum >= level else { return true }
                    found = start
                    return false
                }
                if found != nil { break }
            }
            return found
        }

        var blocks: Int { blockSums.count }

        /// At least the sum of any window starting in block `b`, as the sliding sum reads it.
        func bound(_ b: Int) -> Double {
            (blockSums[b] + (b + 1 < blocks ? blockSums[b + 1] : 0)) * (1 + 1e-9)
        }

        /// Calls `visit` with the start and sum of each window starting in block `b`, in order, until it returns false.
        func slide(block b: Int, _ visit: (_ start: Int, _ sum: Double) -> Bool) {
            let start = b * window
            let last = min(start + window, windows) - 1
            let count = last - start + window
            withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { p in
                let out = p.baseAddress!
                Self.powers(samples, frames: frames, baselines: baselines, from: start, count: count, into: out)
                var sum = blockSums[b]
                guard visit(start, sum) else { return }
                var k = 1
                while start + k <= last {
                    sum += p[k + window - 1] - p[k - 1]
                    guard visit(start + k, max(0, sum)) else { return }
                    k += 1
                }
            }
        }

        /// The powers of frames `first ..< first + count` into `out`; `baselines` holds one value per channel (an
        /// ``AudioBuffer`` has at least one).
        static func powers(
            _ samples: UnsafeBufferPointer<Float>, frames n: Int, baselines: [Double], from first: Int, count: Int,
            into out: UnsafeMutablePointer<Double>
        ) {
            for (c, base) in baselines.enumerated() {
                let p = samples.baseAddress! + c * n + first
                if c == 0 {
                    // 0 + x is x (a square is never −0): the first channel's powers are written, not added to zeros.
                    for i in 0..<count {
                        let d = Double(p[i]) - base
                        out[i] = p[i].isFinite ? d * d : 0
                    }
                } else {
                    for i in 0..<count {
                        let d = Double(p[i]) - base
                        out[i] += p[i].isFinite ? d * d : 0
                    }
                }
            }
            // Dividing by a power of two is multiplying by its exact reciprocal (the same value, to the bit), and by 1
            // is nothing; any other channel count divides.
            let channels = baselines.count
            if channels == 1 { return }
            if channels & (channels - 1) == 0 {
                let scale = 1 / Double(channels)
                for i in 0..<count { out[i] *= scale }
            } else {
                let divisor = Double(channels)
                for i in 0..<count { out[i] /= divisor }
            }
        }

        /// Every block's sum, four blocks at a time (each lane sums its own block in order, as one sum would).
        static func blockSums(
            _ samples: UnsafeBufferPointer<Float>, frames n: Int, window w: Int, baselines: [Double]
        ) -> [Double] {
            let blocks = (n + w - 1) / w
            var sums = [Double](repeating: 0, count: blocks)
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * w) { scratch in
                let p = scratch.baseAddress!
                var b = 0
                while b < blocks {
                    let group = min(4, blocks - b)
                    let count = min(group * w, n - b * w)
                    powers(samples, frames: n, baselines: baselines, from: b * w, count: count, into: p)
                    if count == 4 * w {
                        var lanes = SIMD4<Double>(repeating: 0)
                        for k in 0..<w { lanes += SIMD4(p[k], p[w + k], p[2 * w + k], p[3 * w + k]) }
                        for l in 0..<4 { sums[b + l] = lanes[l] }
                    } else {
                        for i in 0..<count { sums[b + i / w] += p[i] }
                    }
                    b += group
                }
            }
            return sums
        }
    }
}
