import AudioCore
import AudioFile
import Foundation

/// What a 16- or 24-bit format clips: the samples beyond full scale (|x| > 1) of a buffer about to be written. Float
/// WAV stores them and the lossy encoders take floats, so only `EncodeFormat.clipsBeyondFullScale` formats count.
struct ClippedSamples {
    /// How many samples lie beyond full scale.
    let count: Int
    /// The largest |sample|, in dBFS (over 0).
    let peakDecibels: Double

    /// The samples of `buffer` that `format` clips, or nil when it clips none (or stores them as they are).
    init?(_ buffer: AudioBuffer, format: EncodeFormat) {
        guard format.clipsBeyondFullScale else { return nil }
        count = buffer.samples.withUnsafeBufferPointer { PeakScan.countBeyond($0, limit: 1) }
        guard count > 0 else { return nil }
        peakDecibels = 20 * log10(Double(buffer.peak))
    }

    /// The gain that keeps them, from a gain of `given` dB already applied: lowered by the excess rounded up to a
    /// tenth of a dB, so the peak lands at or under full scale.
    func keepingGain(given: Double = 0) -> Double { ((given - peakDecibels) * 10).rounded(.down) / 10 }

    /// "OUT: 9297 samples beyond full scale (peak +0.93 dBFS) clipped in wav24", the warning's start.
    func describe(output: String, format: EncodeFormat) -> String {
        "\(output): \(count) sample\(count == 1 ? "" : "s") beyond full scale "
            + String(format: "(peak %+.2f dBFS) clipped in \(format.rawValue)", peakDecibels)
    }

    /// "them" or "it".
    var them: String { count == 1 ? "it" : "them" }
}
