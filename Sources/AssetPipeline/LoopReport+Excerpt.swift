import AudioCore
import Foundation

extension LoopReport {
    /// The audio around one seam, as heard when the loop wraps: the loop's last 2 s, then its first 2 s (less for
    /// loops shorter than 4 s), every channel; plus the few milliseconds the file holds on the far side of each
    /// loop point, to show what the jump replaced.
    public struct Excerpt: Sendable {
        /// Seconds kept on each side of the seam.
        public static let sideSeconds = 2.0
        /// Seconds of the close-up on each side of the seam.
        public static let closeUpSeconds = 0.005

        /// Every channel: the loop's last ``seam`` frames, then its first ``seam`` frames.
        public var audio: AudioBuffer
        /// The index in ``audio`` of the loop's first frame (the seam).
        public var seam: Int
        public var sampleRate: Int
        /// Mono, up to 5 ms: what the file holds after the loop's end (empty when the loop ends the file).
        public var afterEnd: [Float]
        /// Mono, up to 5 ms: what the file holds before the loop's start (empty when the loop starts the file).
        public var beforeStart: [Float]

        /// ``audio`` mixed to mono.
        public var samples: [Float] { audio.monoMix() }

        public init(buffer: AudioBuffer, loop: Range<Int>) {
            let rate = buffer.sampleRate.hertz
            let side = min(Int(Self.sideSeconds * Double(rate)), loop.count / 2)
            let tail = buffer.slice(frames: (loop.upperBound - side)..<loop.upperBound)
            let head = buffer.slice(frames: loop.lowerBound..<(loop.lowerBound + side))
            var planar: [Float] = []
            planar.reserveCapacity(2 * side * buffer.channels)
            for ch in 0..<buffer.channels { planar += tail.channel(ch) + head.channel(ch) }
            audio = AudioBuffer(planarSamples: planar, channels: buffer.channelCount, sampleRate: buffer.sampleRate)
            seam = side
            sampleRate = rate
            let near = Int(Self.closeUpSeconds * Double(rate)) + 1
            let after = loop.upperBound..<min(buffer.frameCount, loop.upperBound + near)
            afterEnd = after.isEmpty ? [] : buffer.slice(frames: after).monoMix()
            let before = max(0, loop.lowerBound - near)..<loop.lowerBound
            beforeStart = before.isEmpty ? [] : buffer.slice(frames: before).monoMix()
        }

        /// The seam as the player plays it: the whole excerpt with short fades at its two ends (never at the seam).
        var listening: AudioBuffer { ReportAudio.faded(audio) }
    }
}
