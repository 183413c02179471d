import AudioCore
import AudioFile
import Foundation
import Glibc

/// Input files and signals for the scenarios: made once, deterministic, cached in a temp folder.
enum Fixtures {
    static let directory: String = {
        let path = NSTemporaryDirectory() + "enso-bench-fixtures-v1"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// A music-like stereo signal: a slowly beating chord with a little noise, peak about 0.7.
    static func signal(seconds: Double, rate: Int) -> AudioBuffer {
        let n = Int(seconds * Double(rate))
        var rng: UInt64 = 0x5EED
        let partials: [(Double, Double)] = [
            (110, 0.2), (164.8, 0.15), (220.5, 0.12), (329.6, 0.08), (440.2, 0.05), (1318, 0.02),
        ]
        var left = [Float](repeating: 0, count: n)
        var right = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) / Double(rate)
            var l = 0.0
            var r = 0.0
            for (k, (f, a)) in partials.enumerated() {
                let env = 0.75 + 0.25 * sin(2 * .pi * (0.1 + 0.05 * Double(k)) * t)
                l += a * env * sin(2 * .pi * f * t)
                r += a * env * sin(2 * .pi * f * 1.003 * t + Double(k))
            }
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            let noise = (Double(rng >> 11) * 0x1.0p-53 - 0.5) * 0.01
            left[i] = Float(l + noise)
            right[i] = Float(r - noise)
        }
        return AudioBuffer(channelData: [left, right], sampleRate: SampleRate(checked: rate))
    }

    /// The path of `seconds` of ``signal(seconds:rate:)`` at `rate` in `format`, written when missing.
    static func file(_ format: EncodeFormat, seconds: Double, rate: Int = 48_000) throws -> String {
        let ext =
            format == .ogg ? "ogg" : format == .opus ? "opus" : format == .flac || format == .flac24 ? "flac" : "wav"
        return try stored(
            at: "\(directory)/signal-\(Int(seconds * 1000))ms-\(rate)-\(format.rawValue).\(ext)", format: format
        ) { signal(seconds: seconds, rate: rate) }
    }

    /// The folder `name` in ``directory``, created when missing.
    static func folder(_ name: String) -> String {
        let path = directory + "/" + name
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `path`, written in `format` from what `make` returns when the file is missing (a fixture is made once).
    static func stored(at path: String, format: EncodeFormat, making make: () -> AudioBuffer) throws -> String {
        if access(path, R_OK) == 0 { return path }
        do {
            try AudioFileEncoder.write(make(), to: path, options: EncodeOptions(format: format))
        } catch {
            throw BenchmarkError(error.message)
        }
        return path
    }
}
