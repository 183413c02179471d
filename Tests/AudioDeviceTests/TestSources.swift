import AudioCore
import Foundation
import Synchronization

/// A deterministic test signal: a 440 Hz tone on the left, seeded noise on the right, frame-addressed so
/// any block size renders the same samples. Peaks above 1 now and then, so clipping is exercised.
final class ToneSource: RenderSource {
    let channelCount: Int
    let sampleRate: Double
    private var position: Int64 = 0

    init(channels: Int = 2, sampleRate: Int = 48_000) {
        channelCount = channels
        self.sampleRate = Double(sampleRate)
    }

    /// The sample of `channel` at `frame`.
    static func sample(frame: Int64, channel: Int, rate: Double) -> Float {
        if channel == 0 {
            // Every 1000th frame is pushed past full scale, to exercise clipping.
            let boost: Float = frame % 1000 == 0 ? 1.7 : 0.8
            return boost * Float(sin(2 * Double.pi * 440 * Double(frame) / rate))
        }
        // A hash of the frame: deterministic noise within -1...1.
        var x = UInt64(bitPattern: frame) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(channel)
        x ^= x >> 29
        x = x &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 32
        return Float(Int64(bitPattern: x) >> 40) / Float(1 << 23)
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            for c in 0..<channelCount {
                buffer[i * channelCount + c] = Self.sample(frame: position + Int64(i), channel: c, rate: sampleRate)
            }
        }
        position += Int64(frames)
    }

    /// `frames` frames rendered offline in blocks of `block`.
    static func offline(frames: Int, channels: Int = 2, block: Int) -> [Float] {
        let s = ToneSource(channels: channels)
        var out = [Float](repeating: 0, count: frames * channels)
        out.withUnsafeMutableBufferPointer { p in
            var done = 0
            while done < frames {
                let n = min(block, frames - done)
                s.render(into: p.baseAddress! + done * channels, frames: n)
                done += n
            }
        }
        return out
    }
}

/// A timeline of events: a one-sample marker on the left channel and a decaying 1 kHz strike on the
/// right at each scheduled frame. Implements the ``WallClockSource`` contract: a skip advances the
/// timeline; events inside the skipped range fire at the first frame of the next render, never dropped.
final class ScheduleSource: WallClockSource {
    let channelCount = 2
    let rate: Double
    /// Event frames, ascending.
    let schedule: [Int64]
    /// The timeline frame each event actually fired at (-1: not yet); readable while playing.
    let firedAt: [FiredSlot]
    private var next = 0
    private var position: Int64 = 0
    private var strikeAge: Int64 = .max
    /// Total frames skipped (read after the output stopped).
    private(set) var skipped: Int64 = 0

    init(schedule: [Int64], sampleRate: Int = 48_000) {
        self.schedule = schedule
        rate = Double(sampleRate)
        firedAt = schedule.map { _ in FiredSlot() }
    }

    /// The fired frames so far (-1: not yet).
    var fired: [Int64] { firedAt.map { $0.frame.load(ordering: .acquiring) } }

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<frames {
            let t = position + Int64(i)
            var marker: Float = 0
            if next < schedule.count && t >= schedule[next] {
                firedAt[next].frame.store(t, ordering: .releasing)
                next += 1
                marker = 0.5
                strikeAge = 0
            }
            buffer[2 * i] = marker
            if strikeAge < 4800 {
                // 100 ms of a 1 kHz tone decaying 60 dB, starting at its peak: a sharp onset.
                let a = Float(0.4 * pow(0.001, Double(strikeAge) / 4800))
                buffer[2 * i + 1] = a * Float(cos(2 * Double.pi * 1000 * Double(strikeAge) / rate))
                strikeAge += 1
            } else {
                buffer[2 * i + 1] = 0
            }
        }
        position += Int64(frames)
    }

    func skip(lostFrames: Int) {
        position += Int64(lostFrames)
        skipped += Int64(lostFrames)
    }
}

/// Where one event fired, written by the render thread and read by the test while playing.
final class FiredSlot: Sendable {
    let frame = Atomic<Int64>(-1)
}
