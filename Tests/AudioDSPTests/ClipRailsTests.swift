import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioDSP

/// Rails below full scale (``ClipRails``): a file clipped and then turned down is found, at the rail's own level,
/// whether stored at 16 bits (dithered or not), 24 bits or in floats; unclipped loud sounds, steady low tones and
/// band-limited or softly saturated squares are not; the runs and the tops drawn again are those of the same clipping
/// at full scale.
@Suite struct ClipRailsTests {
    static let rate = 48_000

    /// `x` as a file stores it: floats (`bits` nil), or `bits`-bit integers, rounded, with sox's TPDF dither (±1 step)
    /// when `dither`.
    static func stored(_ x: [Double], bits: Int?, dither: Bool, seed: UInt64 = 5) -> [Float] {
        guard let bits else { return x.map { Float($0) } }
        let steps = Double(1 << (bits - 1))
        var rng = SeededRandom(seed: seed)
        return x.map { v in
            let d = dither ? rng.nextUnit() - rng.nextUnit() : 0
            return Float(min(steps - 1, max(-steps, (v * steps + d).rounded())) / steps)
        }
    }

    static func buffer(_ x: [Float]) -> AudioBuffer {
        AudioBuffer(channelData: [x], sampleRate: SampleRate(rate)!)
    }

    /// A temple bell (2 s, mono) `over` dB over full scale, clipped there, as sox writes `gain 20` at 24 bits.
    static func clippedBell(over: Double = 20) -> [Double] {
        let bell = BellSignals.bell(seconds: 2).samples
        let g = pow(10, over / 20)
        return bell.map { min(1, max(-1, Double($0) * g)) }
    }

    /// A bell clipped 20 dB over and turned down 6 or 20 dB, stored at 16 bits (with and without dither), 24 bits or
    /// in floats, is clipped at its rail's own level (within 0.05 dB: the dither's step at −26 dBFS is 0.002 dB), with
    /// the runs the full-scale clipping had (within 2 %: a sample within the rail's width of it, or dither at 16 bits,
    /// may join or split a run at its ends).
    @Test(arguments: [(16, true), (16, false), (24, false), (nil, false)] as [(Int?, Bool)], [6.0, 20.0])
    func aFileClippedThenTurnedDownIsClippedAtItsRail(format: (bits: Int?, dither: Bool), down: Double) throws {
        let clipped = Self.clippedBell()
        let atFullScale = SignalDefectScan(Self.buffer(Self.stored(clipped, bits: 24, dither: false)))
        #expect(atFullScale.clipRuns > 100 && atFullScale.clipRails == nil)
        let g = pow(10, -down / 20)
        let turnedDown = Self.stored(clipped.map { $0 * g }, bits: format.bits, dither: format.dither)
        let scan = SignalDefectScan(Self.buffer(turnedDown))
        let rails = try #require(scan.clipRails, "\(format) −\(down) dB: no rail")
        let level = try #require(rails.levels.compactMap { $0 }.max())
        #expect(abs(level + down) < 0.05, "\(format) −\(down) dB: rail at \(level) dBFS")
        #expect(rails.positive < SignalDefectScan.fullScale && rails.negative < SignalDefectScan.fullScale)
        #expect(rails.levels.allSatisfy { abs(($0 ?? 0) + down) < 0.05 }, "\(rails.levels)")
        let runs = Double(scan.clipRuns) / Double(atFullScale.clipRuns)
        let samples = Double(scan.clippedSamples) / Double(atFullScale.clippedSamples)
        #expect(
            abs(runs - 1) < 0.02 && abs(samples - 1) < 0.02, "\(format) −\(down) dB: \(scan) against \(atFullScale)")
    }

    /// The tops drawn again on a rail below full scale are those drawn at full scale, turned down as the file was
    /// (``ClippedTops`` reads the rails it is given, and nothing else changes): the same samples within 1e-5 (float
    /// rounding of the gain, −100 dBFS) but for the runs whose edge sample lies within the rail's width of it (a sample
    /// the dither could have put there is taken as on the rail: at most 2 % of the samples drawn), and the same level
    /// within 0.01 dB.
    @Test(arguments: [6.0, 20.0])
    func theTopsUnderARailAreDrawnAsAtFullScale(down: Double) throws {
        let clipped = Self.clippedBell().map { Float($0) }
        let g = Float(pow(10, -down / 20))
        let turnedDown = Self.buffer(clipped.map { $0 * g })
        let scan = SignalDefectScan(turnedDown)
        let filled = ClippedTops.filled(turnedDown, rails: scan.rails)
        let reference = ClippedTops.filled(Self.buffer(clipped))
        var differ = 0
        for (a, b) in zip(filled.samples, reference.samples) where abs(a - b * g) > 1e-5 { differ += 1 }
        let drawn = zip(filled.samples, turnedDown.samples).filter { $0 != $1 }.count
        #expect(drawn > 10_000 && Double(differ) < 0.02 * Double(drawn), "\(differ) of \(drawn) drawn samples differ")
        func power(_ x: [Float]) -> Double { x.reduce(0.0) { $0 + Double($1) * Double($1) } }
        let level = 10 * log10(power(filled.samples) / power(reference.samples)) + down
        #expect(abs(level) < 0.01, "level \(level) dB off")
        // Without the rails, a turned-down file's tops are left flat.
        #expect(ClippedTops.filled(turnedDown).samples == turnedDown.samples)
    }

    /// Loud sounds that are not clipped have no rail: a temple bell peaking at −0.1 and −6 dBFS (16-bit dithered and
    /// float), a steady 100 Hz sine at −6 dBFS (its top within two 16-bit steps for 3 samples, 480 times a second,
    /// but curved: no corner), a decaying 100 Hz tone at 8 bits (its top flat for several samples within one step of
    /// its own quantisation), and square-ish synth tones at −6 dBFS: a band-limited square (its odd harmonics up to
    /// 20 kHz; its tops ripple) and a sine saturated through tanh (rounded tops).
    @Test func loudUnclippedSoundsHaveNoRail() {
        let bell = BellSignals.bell(seconds: 2).samples
        let peak = Double(bell.map(abs).max()!)
        let n = Self.rate
        func phase(_ hertz: Double, _ i: Int) -> Double { 2 * Double.pi * hertz * Double(i) / Double(Self.rate) }
        var cases: [(String, [Float])] = []
        for (level, bits, dither) in [(-0.1, 16, true), (-6.0, 16, true), (-0.1, 24, false)] as [(Double, Int?, Bool)] {
            let g = pow(10, level / 20) / peak
            cases.append(
                (
                    "bell \(level) dBFS \(bits ?? 32)",
                    Self.stored(bell.map { Double($0) * g }, bits: bits, dither: dither)
                ))
        }
        let sine = (0..<n).map { 0.5 * sin(phase(100, $0)) }
        cases.append(("100 Hz sine −6 dBFS, 16-bit", Self.stored(sine, bits: 16, dither: false)))
        cases.append(("100 Hz sine −6 dBFS, 16-bit dithered", Self.stored(sine, bits: 16, dither: true)))
        cases.append(("100 Hz sine −6 dBFS, float", Self.stored(sine, bits: nil, dither: false)))
        let decaying = (0..<n).map { 0.9 * exp(-Double($0) / Double(n)) * sin(phase(100, $0)) }
        cases.append(("decaying 100 Hz tone, 8-bit", Self.stored(decaying, bits: 8, dither: false)))
        let square = (0..<n).map { i in
            stride(from: 1, through: 199, by: 2).reduce(0.0) { $0 + sin(phase(100 * Double($1), i)) / Double($1) }
        }
        let squarePeak = square.map(abs).max()!
        cases.append(
            ("band-limited square −6 dBFS", Self.stored(square.map { 0.5 * $0 / squarePeak }, bits: 16, dither: true)))
        let saturated = (0..<n).map { tanh(3 * sin(phase(220, $0))) }
        let saturatedPeak = saturated.map(abs).max()!
        cases.append(
            (
                "tanh-saturated sine −6 dBFS",
                Self.stored(saturated.map { 0.5 * $0 / saturatedPeak }, bits: 24, dither: false)
            ))
        for (name, x) in cases {
            let scan = SignalDefectScan(Self.buffer(x))
            #expect(scan.clipRails == nil && scan.clipRuns == 0, "\(name): \(scan)")
        }
    }

    /// A naive square wave (two levels, nothing between) is held flat against a top nothing exceeds, and jumps into
    /// it: it is what a clipper makes of a sine, and its samples cannot tell the two apart, so its tops are a rail
    /// (docs/bells.md, "Clipping below full scale").
    @Test func aNaiveSquareIsARail() throws {
        let square = (0..<Self.rate).map { i -> Float in (i / 120) % 2 == 0 ? 0.5 : -0.5 }
        let scan = SignalDefectScan(Self.buffer(square))
        let level = try #require(scan.clipRails?.levels.compactMap { $0 }.max())
        #expect(abs(level + 6.02) < 0.01 && scan.clipRuns > 0)
    }

    /// A waveform drawn flat-topped at every level it plays at is no rail, though its top holds flat runs with
    /// corners: a clipper flattens only the tops that reach its rail (docs/bells.md, "Clipping below full scale").
    /// A naive square whose level steps down with its envelope, as an 8-bit game sound draws it (the corpus's proxy
    /// `chime-zelda-info`), and a decaying tone quantised to 8-bit levels but stored finer (k/127, as `lbreakout2`'s
    /// `exp.wav` is: the samples' own step reads as 16-bit, and each of its tops holds its 8-bit level for a dozen
    /// samples, one 8-bit step over its neighbours) both read clipped at their loudest level without that test.
    @Test func aWaveformFlatAtEveryLevelIsNoRail() {
        let n = Self.rate
        let stepped = (0..<n).map { i -> Float in
            let level = Float(20 - 12 * i / n) / 128  // 20/128 down to 9/128 in twelve steps
            return (i / 60) % 2 == 0 ? level : -level
        }
        let coarse = (0..<n).map { i -> Float in
            let v = 0.9 * exp(-Double(i) / Double(n)) * sin(2 * Double.pi * 100 * Double(i) / Double(Self.rate))
            return Float((v * 127).rounded() / 127)
        }
        for (name, x) in [("stepped square", stepped), ("a decaying tone at 8-bit levels, k/127", coarse)] {
            let scan = SignalDefectScan(Self.buffer(x))
            #expect(scan.clipRails == nil && scan.clipRuns == 0, "\(name): \(scan)")
        }
    }

    /// A sawtooth drawn in held steps (as a tracker's 8-bit voice: each level held 4 samples, 3/128 apart, its top
    /// held and left by the reset's drop) meets its top in a cornered run, and no lobe under it is flat with a corner
    /// (each step is 1.5 widths): it read clipped at −6.6 dBFS. Its samples off the top are all held, as a sampled
    /// sound's never are: no rail (``ClipRails/heldOffTheRails(_:highest:lowest:width:)``). `chime-zelda-success`, three
    /// naive voices summed, read clipped at −8.3 dBFS so.
    @Test func aWaveformHeldInStepsOffTheRailsIsNoRail() {
        let ramp = (0..<41).flatMap { k in [Float](repeating: Float(-60 + 3 * k) / 128, count: 4) }
        let x = Array((0..<60).map { _ in ramp }.joined())
        let scan = SignalDefectScan(Self.buffer(x))
        #expect(scan.clipRails == nil && scan.clipRuns == 0, "\(scan)")
        x.withUnsafeBufferPointer { p in
            #expect(ClipRails.hasCorneredRun(p, 0..<x.count, sign: 1, band: 58.0 / 128, corner: 44.0 / 128))
        }
    }

    /// Digital silence, a file with one polarity only (a rectified tone: its negative top is 0) and a top held with
    /// no corner (a constant level) are no rail.
    @Test func flatFilesAndOneSidedFilesHaveNoRail() {
        let silence = [Float](repeating: 0, count: 4800)
        let rectified = (0..<Self.rate).map { Float(max(0, 0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000))) }
        let constant = [Float](repeating: 0.3, count: 4800)
        for x in [silence, rectified, constant] {
            let scan = SignalDefectScan(Self.buffer(x))
            #expect(scan.clipRails == nil && scan.clipRuns == 0, "\(scan)")
        }
    }

    /// The quantisation step is read from the samples: 2⁻¹⁵ at 16 bits, 2⁻⁷ at 8 bits; the width is two steps and at
    /// least two 16-bit steps.
    @Test func theWidthIsTwoStepsOfTheFilesOwnQuantisation() {
        let x16: [Float] = [0.5, 3.0 / 32768, -0.25]
        let x8: [Float] = [0.5, 3.0 / 128, -0.25]
        x16.withUnsafeBufferPointer { #expect(ClipRails.quantisationStep($0, 0..<3) == 1.0 / 32768) }
        x8.withUnsafeBufferPointer { #expect(ClipRails.quantisationStep($0, 0..<3) == 1.0 / 128) }
        #expect(ClipRails.width(step: 1.0 / 128) == 2.0 / 128)
        #expect(ClipRails.width(step: 1.0 / 8_388_608) == ClipRails.minimumWidth)
    }
}
