import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

@Suite struct SignalDefectScanTests {
    @Test func cleanBellHasNoDefects() {
        let s = SignalDefectScan(BellSignals.bell(seconds: 3, channels: 2))
        #expect(s.clippedSamples == 0 && s.nonFinite == 0 && s.dcOffset < 0.001)
        #expect(s.channelCorrelation! > 0.99 && s.channelBalance > -0.01)
    }

    @Test func clippingDCNonFiniteAndChannels() {
        let b = BellSignals.bell(seconds: 3, channels: 2)
        #expect(SignalDefectScan(BellSignals.clipped(b)).clipRuns > 10)
        // 2 % DC on a zero-mean bell: the mean is 0.02 within the bell's own tiny mean.
        #expect(abs(SignalDefectScan(BellSignals.dcOffset(b)).dcOffset - 0.02) < 0.001)
        var nan = b
        nan[1, 4800] = .nan
        let scan = SignalDefectScan(nan)
        #expect(scan.nonFinite == 1 && scan.firstNonFinite == 0.1)
        var inverted = b
        inverted.withMutableChannel(1) { p in for i in p.indices { p[i] = -p[i] } }
        #expect(SignalDefectScan(inverted).channelCorrelation! < -0.99)
        var quiet = b
        quiet.withMutableChannel(1) { p in for i in p.indices { p[i] *= 0.001 } }
        #expect(abs(SignalDefectScan(quiet).channelBalance + 60) < 0.1)
    }

    /// A tone above a quarter of the rate, clipped: its half-cycles hold two samples each, so the flattened tops
    /// alternate in sign from one sample to the next. A triangle's 11.2 kHz at 44.1 kHz with 12 dB over full scale
    /// (a held-out recording built as the corpus's clipping defects are) was clean when a run had to keep one sign.
    @Test func aHighToneClippedRailToRailIsClipping() {
        let tone: [Double] = (0..<44_100).map { i in 4 * sin(2 * Double.pi * 11_200 * Double(i) / 44_100) }
        let clipped = tone.map { Float(min(max($0, -1), 32767.0 / 32768)) }
        var longestOneSign = 0
        var run = 0
        for i in clipped.indices {
            let top = abs(clipped[i]) >= SignalDefectScan.fullScale
            run = top && i > 0 && run > 0 && (clipped[i] > 0) == (clipped[i - 1] > 0) ? run + 1 : (top ? 1 : 0)
            longestOneSign = max(longestOneSign, run)
        }
        #expect(longestOneSign == 2)
        let scan = SignalDefectScan(AudioBuffer(channelData: [clipped], sampleRate: SampleRate(44_100)!))
        #expect(scan.clipRuns > 100 && scan.longestClipRun > 10)
        // The same tone at full scale, unclipped, touches the rail at most one sample at a time.
        let clean = tone.map { Float($0 / 4) }
        #expect(SignalDefectScan(AudioBuffer(channelData: [clean], sampleRate: SampleRate(44_100)!)).clipRuns == 0)
    }

    /// The block fast path against a plain sample-by-sample reference: clipping runs across block edges, runs that
    /// end on a block edge, NaN in one block, DC and correlation.
    @Test func blockFastPathMatchesSampleBySample() {
        var rng = SeededRandom(seed: 44)
        for trial in 0..<12 {
            let n = 3000 + Int(rng.nextUnit() * 5000)
            var data = (0..<2).map { _ in (0..<n).map { _ in 0.3 * rng.nextSigned() + 0.01 } }
            for _ in 0..<4 {
                let at = Int(rng.nextUnit() * Double(n - 20))
                let length = 2 + Int(rng.nextUnit() * 8)
                for i in at..<(at + length) { data[0][i] = 1 }
            }
            // A run that ends exactly on a block edge, and one that crosses it.
            for i in (SignalDefectScan.block - 5)..<SignalDefectScan.block { data[1][i] = -1 }
            for i in (2 * SignalDefectScan.block - 2)..<(2 * SignalDefectScan.block + 3) where i < n { data[1][i] = 1 }
            if trial % 3 == 0 { data[1][n / 2] = .nan }
            let scan = SignalDefectScan(AudioBuffer(channelData: data, sampleRate: SampleRate(48_000)!))
            // Reference: runs of ≥ 3 full-scale samples of either sign, Double sums, two-pass correlation.
            var clipped = 0, runs = 0, longest = 0, bad = 0
            var dc = 0.0
            for x in data {
                var run = 0
                var sum = 0.0
                func close() {
                    if run >= 3 { clipped += run; runs += 1; longest = max(longest, run) }
                    run = 0
                }
                for v in x {
                    guard v.isFinite else { bad += 1; close(); continue }
                    sum += Double(v)
                    if abs(v) >= 0.999 {
                        run += 1
                    } else {
                        close()
                    }
                }
                close()
                dc = max(dc, abs(sum / Double(n)))
            }
            #expect(
                scan.clippedSamples == clipped && scan.clipRuns == runs && scan.longestClipRun == longest,
                "trial \(trial)")
            #expect(scan.nonFinite == bad)
            #expect(abs(scan.dcOffset - dc) < 1e-6, "trial \(trial): \(scan.dcOffset) vs \(dc)")
            var ma = 0.0, mb = 0.0
            for i in 0..<n where data[0][i].isFinite && data[1][i].isFinite {
                ma += Double(data[0][i]); mb += Double(data[1][i])
            }
            ma /= Double(n)
            mb /= Double(n)
            var sab = 0.0, saa = 0.0, sbb = 0.0
            for i in 0..<n where data[0][i].isFinite && data[1][i].isFinite {
                let x = Double(data[0][i]) - ma
                let y = Double(data[1][i]) - mb
                sab += x * y
                saa += x * x
                sbb += y * y
            }
            #expect(abs(scan.channelCorrelation! - sab / (saa * sbb).squareRoot()) < 1e-5, "trial \(trial)")
            // The peak: full scale here, and in a quieter copy a spike inside a fast-path block, or in its tail.
            #expect(scan.peak == 1, "trial \(trial)")
            var quieter = data.map { $0.map { $0 * 0.5 } }
            let spikeAt = trial % 2 == 0 ? Int(rng.nextUnit() * Double(n - 1)) : n - 1
            quieter[trial % 2][spikeAt] = -0.77
            let finitePeak = quieter.joined().filter(\.isFinite).map(abs).max() ?? 0
            #expect(finitePeak == 0.77)
            #expect(
                SignalDefectScan(AudioBuffer(channelData: quieter, sampleRate: SampleRate(48_000)!)).peak == finitePeak,
                "trial \(trial)")
        }
    }
}
