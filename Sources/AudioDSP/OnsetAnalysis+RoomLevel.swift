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
            // The channels' mean power of frame i.
            func power(_ i: Int) -> Double {
                var e = 0.0
                for c in 0..<channels {
                    let v = s[c * n + i]
                    guard v.isFinite else { continue }
                    let d = Double(v) - Double(baseline?[c] ?? 0)
                    e += d * d
                }
                return e / Double(channels)
            }
            // Two passes of a sliding 10 ms sum (no copy of the signal: an hour-long file costs no memory here), the
            // first for the loudest window, the second for the first window within the room's level of it. The sum is
            // taken afresh every window length, so rounding does not build up over a long file.
            func windows(_ visit: (_ start: Int, _ sum: Double) -> Bool) {
                var sum = 0.0
                for i in 0..<w { sum += power(i) }
                guard visit(0, sum) else { return }
                var j = 1
                while j + w <= n {
                    if j % w == 0 {
                        sum = 0
                        for i in j..<(j + w) { sum += power(i) }
                    } else {
                        sum += power(j + w - 1) - power(j - 1)
                    }
                    guard visit(j, max(0, sum)) else { return }
                    j += 1
                }
            }
            var loudest = 0.0
            windows { _, sum in
                loudest = max(loudest, sum)
                return true
            }
            guard loudest > 0 else { return n }
            let heard = loudest * pow(10, roomLevel / 10)
            var rises = n
            windows { start, sum in
                guard sum >= heard else { return true }
                rises = start
                return false
            }
            return rises
        }
    }
}
