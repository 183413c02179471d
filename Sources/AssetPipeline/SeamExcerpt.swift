import AudioCore
import Foundation

/// The audio around one seam, as heard when the loop wraps: the loop's last 2 s, then its first 2 s (less for
/// loops shorter than 4 s), every channel; plus the few milliseconds the file holds on the far side of each
/// loop point, to show what the jump replaced. ``LoopVerifier`` keeps it for the seam report (`AssetReports`).
public struct SeamExcerpt: Sendable {
    /// Seconds kept on each side of the seam.
    public static let sideSeconds = 2.0
    /// Seconds of the close-up on each side of the seam.
    public static let closeUpSeconds = 0.005

    /// Every channel: the loop's last ``seam`` frames, then its first ``seam`` frames.
    public var audio: AudioBuffer
    /// The index in ``audio`` of the loop's first frame (the seam).
    public var seam: Int
    public var sampleRate: Int
    /// Per channel, up to 5 ms: what the file holds after the loop's end (empty when the loop ends the file).
    public var afterEnd: [[Float]]
    /// Per channel, up to 5 ms: what the file holds before the loop's start (empty when the loop starts the file).
    public var beforeStart: [[Float]]

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
        let a = buffer.slice(frames: after)
        afterEnd = (0..<buffer.channels).map { after.isEmpty ? [] : Array(a.channel($0)) }
        let before = max(0, loop.lowerBound - near)..<loop.lowerBound
        let b = buffer.slice(frames: before)
        beforeStart = (0..<buffer.channels).map { before.isEmpty ? [] : Array(b.channel($0)) }
    }

    /// The channel whose waveform breaks most at the seam: the largest jump of the second difference across
    /// it, relative to that channel's level around it (a cut in one channel of two is shown, not averaged away).
    public var worstChannel: Int {
        guard audio.channels > 1, seam >= 3, audio.frameCount >= seam + 3 else { return 0 }
        var best = (channel: 0, score: -1.0)
        for ch in 0..<audio.channels {
            let x = audio.channel(ch)
            let o = x.startIndex + seam
            let d2 = { (i: Int) in Double(x[i + 1] - 2 * x[i] + x[i - 1]) }
            let across = abs(d2(o - 1)) + abs(d2(o))
            var level = 1e-9
            for i in (o - 2)...(o + 1) where i != o - 1 && i != o { level += abs(d2(i)) }
            let score = across / level
            if score > best.score { best = (ch, score) }
        }
        return best.channel
    }
}
