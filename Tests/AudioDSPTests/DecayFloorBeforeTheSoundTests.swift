import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// The floor a recording holds before its sound and again at its end (``DecayAnalysis/floorBeforeTheSound``): a
/// quick notification over a steady noise, whose noise after the sound is shorter than the tail's 0.3 s, ends on its
/// floor, not in a cut; hiss before the strike that the file does not end on is no floor.
@Suite struct DecayFloorBeforeTheSoundTests {
    /// A ding falling 120 dB/s (T60 0.5 s), 0.5 s long, after 0.35 s of white noise 34 dB under its loudest 10 ms
    /// that goes on under it: the ding sinks under the noise 0.28 s in, 0.22 s before the file ends.
    static func ding() -> AudioBuffer {
        let ding = BellSignals.bell(
            [BellSignals.Partial(880, 0.5, t60: 0.5), BellSignals.Partial(1760, 0.25, t60: 0.4)], seconds: 0.5,
            attack: 0.002)
        return BellSignals.afterRoomTone(ding, seconds: 0.35, under: 34)
    }

    /// The noise's level (dBFS): its RMS over the 0.35 s before the ding.
    static func noiseLevel(_ b: AudioBuffer) -> Double {
        let lead = Array(b.channel(0).prefix(Int(0.35 * b.sampleRate.double)))
        return 10 * log10(lead.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(lead.count))
    }

    @Test func aQuickDingOverNoiseEndsOnItsFloor() throws {
        let b = Self.ding()
        let d = try #require(DecayAnalysis(b))
        let floor = try #require(d.noiseFloor, "no floor: the end read as a cut \(d.cutLevel) dB down")
        #expect(abs(floor - Self.noiseLevel(b)) <= 1.5, "floor \(floor) dBFS, noise \(Self.noiseLevel(b)) dBFS")
        #expect(!d.ringingAtEnd)
    }

    /// The same ding with the noise only before it (the file ends in digital silence): nothing to end on, no floor.
    @Test func hissBeforeTheStrikeAloneIsNoFloor() throws {
        var b = Self.ding()
        let n = b.frameCount
        let silent = Int(0.3 * b.sampleRate.double)
        b.samples.withUnsafeMutableBufferPointer { s in
            for i in (n - silent)..<n { s[i] = 0 }
        }
        let d = try #require(DecayAnalysis(b))
        #expect(d.noiseFloor == nil, "floor \(String(describing: d.noiseFloor)) dBFS")
    }
}
