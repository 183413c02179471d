import AudioCore
import Foundation

/// Sample-level facts that reveal damaged audio: clipping runs, DC offset, non-finite samples, and
/// channels that are inverted copies of each other or nearly silent.
///
/// Definitions:
/// - a clipping run is 3 or more consecutive samples of one channel at ≥ 0.999 of full scale (|x|), all of
///   the same sign; `clippedSamples` counts the samples in such runs, `longestClipRun` is the longest;
/// - `dcOffset` is the largest |mean| of any channel, in full-scale units (0.02 = 2 %);
/// - `nonFinite` counts NaN and ±infinity samples; `firstNonFinite` is the first one's time in seconds;
/// - `channelCorrelation` is the Pearson correlation between the first two channels (nil for mono);
///   `channelBalance` is the quietest channel's RMS relative to the loudest, in dB (0 for mono).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: no.
public struct SignalDefectScan: Sendable, Codable, Equatable {
    public var clippedSamples: Int
    public var longestClipRun: Int
    public var clipRuns: Int
    public var dcOffset: Double
    public var nonFinite: Int
    public var firstNonFinite: Double?
    public var channelCorrelation: Double?
    public var channelBalance: Double

    /// The sample magnitude treated as full scale.
    public static let fullScale: Float = 0.999
    /// The shortest run of full-scale samples counted as clipping.
    public static let minimumRun = 3

    /// Scans `buffer`.
    public init(_ buffer: AudioBuffer) {
        let n = buffer.frameCount
        var clipped = 0
        var longest = 0
        var runs = 0
        var dc = 0.0
        var bad = 0
        var firstBad: Int?
        var rms: [Double] = []
        for ch in 0..<buffer.channels {
            buffer.withChannel(ch) { p in
                var run = 0
                var sign: Float = 0
                var sum = 0.0
                var sq = 0.0
                func close() {
                    if run >= Self.minimumRun {
                        clipped += run
                        runs += 1
                        longest = max(longest, run)
                    }
                    run = 0
                }
                for i in 0..<n {
                    let x = p[i]
                    guard x.isFinite else {
                        bad += 1
                        firstBad = min(firstBad ?? i, i)
                        close()
                        continue
                    }
                    sum += Double(x)
                    sq += Double(x) * Double(x)
                    if abs(x) >= Self.fullScale {
                        let s: Float = x > 0 ? 1 : -1
                        if run > 0 && s != sign { close() }
                        sign = s
                        run += 1
                    } else {
                        close()
                    }
                }
                close()
                if n > 0 {
                    dc = max(dc, abs(sum / Double(n)))
                    rms.append((sq / Double(n)).squareRoot())
                }
            }
        }
        clippedSamples = clipped
        longestClipRun = longest
        clipRuns = runs
        dcOffset = dc
        nonFinite = bad
        firstNonFinite = firstBad.map { buffer.sampleRate.seconds(frames: Int64($0)) }
        if buffer.channels >= 2 && n > 1 {
            channelCorrelation = buffer.withChannel(0) { a in
                buffer.withChannel(1) { b in
                    var ma = 0.0
                    var mb = 0.0
                    for i in 0..<n where a[i].isFinite && b[i].isFinite {
                        ma += Double(a[i])
                        mb += Double(b[i])
                    }
                    ma /= Double(n)
                    mb /= Double(n)
                    var sab = 0.0
                    var saa = 0.0
                    var sbb = 0.0
                    for i in 0..<n where a[i].isFinite && b[i].isFinite {
                        let x = Double(a[i]) - ma
                        let y = Double(b[i]) - mb
                        sab += x * y
                        saa += x * x
                        sbb += y * y
                    }
                    return saa > 0 && sbb > 0 ? sab / (saa * sbb).squareRoot() : 0
                }
            }
        } else {
            channelCorrelation = nil
        }
        if let loud = rms.max(), let quiet = rms.min(), loud > 0 {
            channelBalance = quiet > 0 ? 20 * log10(quiet / loud) : -200
        } else {
            channelBalance = 0
        }
    }
}
