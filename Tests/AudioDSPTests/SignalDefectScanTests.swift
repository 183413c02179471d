import AudioCore
import AudioTestSupport
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
}
