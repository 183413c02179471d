import AudioCore
import Foundation

extension SignalDefectScan {
    /// The whole-file channel figures of a sound read in chunks (a long soundscape checked without holding it):
    /// each channel's sum and sum of squares, the first two channels' cross sums, and the peak, added chunk by chunk
    /// (``add(_:)``), then written into a scan (``apply(to:)``) by the formulas ``SignalDefectScan/init(_:)`` uses on
    /// a whole buffer: `channelCorrelation`, `channelBalance`, `quietestChannel`, `dcOffset` and `peak`.
    ///
    /// Chunks must hold finite samples only (a streamed read refuses any other); the clipping figures stay those of
    /// the scan written into.
    ///
    /// - Thread safety: a value type.
    public struct ChannelSums: Sendable {
        private var sum: [Double]
        private var squares: [Double]
        private var cross = 0.0
        private var frames = 0
        private var peak: Float = 0

        /// Sums for a sound of `channels` channels.
        public init(channels: Int) {
            sum = Array(repeating: 0, count: channels)
            squares = Array(repeating: 0, count: channels)
        }

        /// Adds the frames of `chunk` (as many channels as this was made for).
        public mutating func add(_ chunk: AudioBuffer) {
            precondition(chunk.channels == sum.count, "a chunk of another channel count")
            for c in 0..<chunk.channels {
                chunk.withChannel(c) { x in
                    var (s, q) = (0.0, 0.0)
                    for v in x {
                        s += Double(v)
                        q += Double(v) * Double(v)
                        peak = max(peak, abs(v))
                    }
                    sum[c] += s
                    squares[c] += q
                }
            }
            if chunk.channels >= 2 {
                chunk.withChannel(0) { a in
                    chunk.withChannel(1) { b in
                        var p = 0.0
                        for i in 0..<a.count { p += Double(a[i]) * Double(b[i]) }
                        cross += p
                    }
                }
            }
            frames += chunk.frameCount
        }

        /// `scan` with the channel figures of every frame added.
        public func apply(to scan: inout SignalDefectScan) {
            guard frames > 0 else { return }
            let n = Double(frames)
            scan.dcOffset = sum.map { abs($0 / n) }.max() ?? 0
            scan.peak = peak
            let rms = squares.map { ($0 / n).squareRoot() }
            (scan.channelBalance, scan.quietestChannel) = SignalDefectScan.balance(rms)
            scan.channelCorrelation =
                sum.count >= 2 && frames > 1
                ? SignalDefectScan.pearson(
                    sa: sum[0], sb: sum[1], sab: cross, saa: squares[0], sbb: squares[1], pairs: frames, frames: frames)
                : nil
        }
    }
}
