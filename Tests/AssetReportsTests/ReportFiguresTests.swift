import AudioCore
import AudioDSP
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline
@testable import AssetReports

@Suite struct ReportFiguresTests {
    @Test func clippedRunsFollowTheAuditionsRuleAndAreMarkedOnTheWaveform() {
        let clean = BellSignals.bell(seconds: 3)
        #expect(ReportFigures.clippedRuns(clean).isEmpty)
        #expect(!ReportFigures.waveform(clean, clipped: [], cutEnd: nil, title: "w").contains("clipped"))
        let clipped = BellSignals.clipped(clean, gain: 12)
        let runs = ReportFigures.clippedRuns(clipped)
        #expect(runs.count == SignalDefectScan(clipped).clipRuns && runs.count > 0)
        #expect(runs.allSatisfy { $0.count >= SignalDefectScan.minimumRun })
        let svg = ReportFigures.waveform(clipped, clipped: runs, cutEnd: "cut at −15 dB", title: "w")
        #expect(svg.contains("clipped ×\(runs.count)") && svg.contains("cut at −15 dB"))
        #expect(svg.contains("<rect class=\"mark\""))
        // Clipped and then turned down 6 dB: the runs on its rails at −6 dBFS (``ClipRails``), those of the clipping
        // at full scale but where a run's edge sample lies within the rail's width (2 %).
        let down = ReportFigures.clippedRuns(BellSignals.scaled(clipped, decibels: -6))
        #expect(abs(down.count - runs.count) <= runs.count / 50 && !down.isEmpty, "\(down.count) of \(runs.count)")
        // Two samples at full scale are a peak that touches it, not a clipped run.
        var touch = AudioBuffer(channelData: [[0, 1, 1, 0, -1, -1, -1, 0]], sampleRate: SampleRate(checked: 48_000))
        #expect(ReportFigures.clippedRuns(touch) == [4..<7])
        touch.samples[3] = 1
        #expect(ReportFigures.clippedRuns(touch) == [1..<4, 4..<7])
    }

    /// A bell after 1.5 s of digital silence is analysed from its first sample (``BellAnalysis/soundStart``); its
    /// decay is drawn on the file's clock, from 1.5 s, on its card and in the overview's band, as its waveform is.
    @Test func aDecayIsDrawnWhereItsSoundStartsInTheFile() throws {
        let padded = BellSignals.preRoll(BellSignals.bell(seconds: 2), seconds: 1.5)
        let analysis = BellAudition.analyse(padded, file: "late.wav", profile: .temple)
        let decay = try #require(analysis.decay)
        #expect(abs(decay.curveStart - Double(analysis.soundStart) / 48_000) < 1e-12 && analysis.soundStart >= 72_000)
        let plot = ReportPlot.decay([
            (label: nil, db: decay.curve, hop: decay.curveHop, start: decay.curveStart, style: "s0")
        ])
        let first = try #require(plot.lines.first?.points.first)
        #expect(first.0 == decay.curveStart && plot.x.range.upperBound >= 3.49)
        // In the overview's band, a curve is silent (−80 dB) before its sound starts, and read after.
        let (_, median) = BellReport.density([decay], seconds: 3.5)
        #expect(median.filter { $0.0 < 1.45 }.allSatisfy { $0.1 == -80 })
        #expect(median.contains { $0.0 > 1.6 && $0.0 < 2 && $0.1 > -40 })
    }

    @Test func spectrogramHasLogFrequencyAndTimeTicks() {
        let tone = LoopSignals.tones(frequencies: [1000], frames: 96_000, channels: 1)
        let svg = ReportFigures.spectrogram(tone.samples, sampleRate: 48_000, fftSize: 4096, title: "s")
        for tick in [">100<", ">1k<", ">10k<", ">0.5<", ">1.5<"] { #expect(svg.contains(tick), "\(tick)") }
        #expect(svg.contains("href=\"data:image/png;base64,"))
        #expect(ReportFigures.spectrogram([Float](repeating: 0, count: 100), sampleRate: 48_000, title: "s").isEmpty)
    }

    /// A band's loudest bin, eight at a time, is the loudest bin by bin: every start and length (the whole lanes and
    /// the rest), equal values, zeros, and a NaN that never wins.
    @Test func aBandsLoudestBinIsTheLargestBinByBin() {
        var power = (0..<64).map { Float(sin(Double($0) * 1.7) * sin(Double($0) * 0.3)).magnitude * 1e-3 }
        power[9] = 0.5
        power[10] = 0.5
        power[33] = .nan
        power.withUnsafeBufferPointer { p in
            for start in 0..<40 {
                for length in 0..<(64 - start) {
                    let band = start..<(start + length)
                    var v: Float = 0
                    for b in band where p[b] > v { v = p[b] }
                    #expect(ReportFigures.loudest(p, band) == v, "\(band)")
                }
            }
        }
    }

    /// A column's lowest and highest sample, eight at a time, are those sample by sample (with 0): every start and
    /// length, a −0 that never replaces 0, equal extremes.
    @Test func aColumnsExtremesAreTheSampleBySampleOnes() {
        var x = (0..<80).map { Float(sin(Double($0) * 2.3) * cos(Double($0) * 0.7)) }
        x[5] = -0.0
        x[20] = 0.9
        x[21] = 0.9
        x[30] = -0.9
        x.withUnsafeBufferPointer { p in
            for start in 0..<40 {
                for length in 0..<(80 - start) {
                    var (low, high): (Float, Float) = (0, 0)
                    for i in start..<(start + length) {
                        low = p[i] < low ? p[i] : low
                        high = p[i] > high ? p[i] : high
                    }
                    let e = ReportFigures.extremes(p, start..<(start + length))
                    #expect(e.low.bitPattern == low.bitPattern && e.high.bitPattern == high.bitPattern)
                }
            }
        }
        let negativeZero = [Float](repeating: -0.0, count: 9)
        negativeZero.withUnsafeBufferPointer { p in
            #expect(ReportFigures.extremes(p, 0..<9).low.sign == .plus)
        }
    }
}
