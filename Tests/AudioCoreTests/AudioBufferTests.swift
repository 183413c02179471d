import AudioCore
import Testing

@Suite("AudioBuffer")
struct AudioBufferTests {
    @Test("interleaving round trips for 1, 2 and 5 channels")
    func interleaveRoundTrip() {
        for channels in [1, 2, 5] {
            let frames = 37
            let interleaved = (0..<(channels * frames)).map { Float($0) }
            let buffer = interleaved.withUnsafeBufferPointer {
                AudioBuffer(interleaved: $0, channels: ChannelCount(checked: channels), sampleRate: .hz48000)
            }
            #expect(buffer.frameCount == frames)
            #expect(buffer[channels - 1, 1] == Float(channels + channels - 1))
            #expect(buffer.interleaved() == interleaved)
        }
    }

    @Test func planarLayoutAndAccessors() {
        var b = AudioBuffer(channelData: [[1, 2, 3], [4, 5, 6]], sampleRate: .hz44100)
        #expect(b.samples == [1, 2, 3, 4, 5, 6])
        #expect(Array(b.channel(1)) == [4, 5, 6])
        b[0, 2] = -7
        #expect(b.peak == 7)
        b.withMutableChannel(1) { $0[0] = 0 }
        #expect(b.withChannel(1) { Array($0) } == [0, 5, 6])
        #expect(b.monoMix() == [0.5, 3.5, -0.5])
        #expect(b.slice(frames: 1..<3) == AudioBuffer(channelData: [[2, -7], [5, 6]], sampleRate: .hz44100))
        let same = AudioBuffer(planarSamples: b.samples, channels: .stereo, sampleRate: .hz44100)
        #expect(same == b)
        #expect(AudioBuffer(channels: .mono, frameCount: 44_100, sampleRate: .hz44100).duration == 1)
    }

    @Test("peak ignores non-finite samples")
    func peakIgnoresNaN() {
        let b = AudioBuffer(channelData: [[0.5, .nan, -.infinity, -0.75]], sampleRate: .hz48000)
        #expect(b.peak == 0.75)
    }

    @Test("peak scan: every lane, the scalar tail, NaN and infinities anywhere")
    func peakScanMatchesAPlainLoop() {
        for n in [0, 1, 7, 8, 9, 16, 23, 100] {
            for at in 0..<max(n, 1) {
                var x: [Float] = (0..<n).map { (i: Int) -> Float in Float((i * 37) % 11) / 100 - 0.05 }
                if at < n { x[at] = -0.9 }
                if n > 3 { x[(at + 1) % n] = .nan; x[(at + 2) % n] = .infinity }
                let expected = x.filter(\.isFinite).map(abs).max() ?? 0
                #expect(x.withUnsafeBufferPointer { PeakScan.absMax($0) } == expected, "n \(n), loudest at \(at)")
            }
        }
    }

    @Test("samples beyond a limit: counted in every lane and the scalar tail, ±infinity counted, NaN and the limit not")
    func countBeyondMatchesAPlainLoop() {
        for n in [0, 1, 7, 8, 9, 16, 23, 100] {
            let x: [Float] = (0..<n).map { (i: Int) -> Float in
                switch i % 7 {
                case 0: 1.0
                case 1: -1.0001
                case 2: .nan
                case 3: 1.5
                case 4: -.infinity
                case 5: -0.25
                default: Float(i) / 50
                }
            }
            let expected = x.filter { abs($0) > 1 }.count
            #expect(x.withUnsafeBufferPointer { PeakScan.countBeyond($0, limit: 1) } == expected, "n \(n)")
            #expect(x.withUnsafeBufferPointer { PeakScan.countBeyond($0, limit: 2) } == x.filter(\.isInfinite).count)
        }
    }

    @Test("first non-finite sample: every lane and the scalar tail, NaN and both infinities")
    func firstNonFiniteMatchesAPlainLoop() {
        for n in [0, 1, 7, 8, 9, 16, 23, 100] {
            let clean: [Float] = (0..<n).map { (i: Int) -> Float in Float((i * 37) % 11) / 100 - 0.05 }
            #expect(clean.withUnsafeBufferPointer { PeakScan.firstNonFinite($0) } == nil, "n \(n), all finite")
            for at in 0..<n {
                for bad: Float in [.nan, .infinity, -.infinity] {
                    var x = clean
                    x[at] = bad
                    if at + 3 < n { x[at + 3] = .nan }
                    #expect(x.withUnsafeBufferPointer { PeakScan.firstNonFinite($0) } == at, "n \(n), \(bad) at \(at)")
                }
            }
        }
        let largest: [Float] = [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 0, -0]
        #expect(largest.withUnsafeBufferPointer { PeakScan.firstNonFinite($0) } == nil)
    }

    @Test("all-zero scan: a single non-zero sample in any lane or the scalar tail is found; −0 counts as zero")
    func allZeroFindsEverySample() {
        for n in [0, 1, 7, 8, 9, 16, 23, 100] {
            var zeros = [Float](repeating: 0, count: n)
            if n > 2 { zeros[1] = -0.0 }
            #expect(zeros.withUnsafeBufferPointer { PeakScan.allZero($0) }, "n \(n), zeros")
            for at in 0..<n {
                for value: Float in [.leastNonzeroMagnitude, -1e-30, 0.5, .nan, -.infinity] {
                    var x = zeros
                    x[at] = value
                    #expect(!x.withUnsafeBufferPointer { PeakScan.allZero($0) }, "n \(n), \(value) at \(at)")
                }
            }
        }
    }
}
