import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// 16-bit output with TPDF dither: the quantisation error of a -60 dBFS sine is noise, not harmonics.
@Suite struct TPDFDitherTests {
    /// A -60 dBFS (amplitude 0.001, 32.8 LSB) 1 kHz sine at 48 kHz: 48 frames a period, so plain rounding's error
    /// repeats every period and lands entirely on the harmonics of 1 kHz.
    static let sine = (0..<65_536).map { Float(0.001 * sin(2 * Double.pi * 1000 * Double($0) / 48_000 + 0.3)) }

    /// The quantisation error's averaged power spectrum (Welch: 16 Hann-windowed segments of 4096 frames), bins
    /// 1 ..< 2048; returns the strongest bin over the median bin, dB.
    static func spurOverFloor(_ error: [Double]) -> Double {
        let n = 4096
        var power = [Double](repeating: 0, count: n / 2)
        for segment in 0..<(error.count / n) {
            var re = (0..<n).map { error[segment * n + $0] * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
            var im = [Double](repeating: 0, count: n)
            fft(&re, &im)
            for k in 0..<(n / 2) { power[k] += re[k] * re[k] + im[k] * im[k] }
        }
        let bins = Array(power[1...])
        let median = bins.sorted()[bins.count / 2]
        return 10 * log10(bins.max()! / median)
    }

    /// In-place iterative radix-2 FFT.
    static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var len = 2
        while len <= n {
            let angle = -2 * Double.pi / Double(len)
            for start in stride(from: 0, to: n, by: len) {
                for k in 0..<(len / 2) {
                    let wr = cos(angle * Double(k))
                    let wi = sin(angle * Double(k))
                    let a = start + k
                    let b = a + len / 2
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            len <<= 1
        }
    }

    /// Writes `sine` to a 16-bit WAV (streamed or in one go) and returns the read-back minus the input.
    static func error(streamed: Bool, dither: Bool, format: EncodeFormat = .wav16) throws -> [Double] {
        let dir = ToolRunner.temporaryDirectory("dither")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/sine." + (format == .flac ? "flac" : "wav")
        if streamed {
            let writer = try StreamingFileWriter(
                path: path, format: format, sampleRate: .hz48000, channels: .mono, durability: .processCrash,
                dither: dither)
            for start in stride(from: 0, to: sine.count, by: 1000) {
                try sine[start..<min(sine.count, start + 1000)].withUnsafeBufferPointer {
                    try writer.write(interleaved: $0)
                }
            }
            try writer.finish()
        } else {
            let buffer = AudioBuffer(channelData: [sine], sampleRate: .hz48000)
            try AudioFileEncoder.write(buffer, to: path, options: EncodeOptions(format: format, dither: dither))
        }
        let back = try AudioFileDecoder.decode(path: path).buffer.channel(0)
        return zip(back, sine).map { Double($0) - Double($1) }
    }

    @Test func plainRoundingLeavesHarmonicSpurs() throws {
        // The test's own check is live: without dither the error is harmonics, far above its median bin.
        #expect(Self.spurOverFloor(try Self.error(streamed: true, dither: false)) > 20)
        #expect(Self.spurOverFloor(try Self.error(streamed: false, dither: false)) > 20)
    }

    @Test(arguments: [true, false])
    func withTPDFTheErrorIsNoise(streamed: Bool) throws {
        for format in [EncodeFormat.wav16, .flac] {
            let e = try Self.error(streamed: streamed, dither: true, format: format)
            // A flat spectrum: no bin stands out of the noise (an averaged white spectrum's largest of 2047 bins is
            // ~4 dB over its median; the harmonics of plain rounding stand 20 dB and more above it).
            let spur = Self.spurOverFloor(e)
            #expect(spur < 8, "\(format) streamed \(streamed): spur \(spur) dB over the floor")
            // TPDF's error power: 1/12 LSB² of rounding plus 1/6 of dither = 1/4 LSB² (RMS 0.5 LSB), whatever the signal.
            let rms = (e.map { $0 * $0 }.reduce(0, +) / Double(e.count)).squareRoot() * 32_768
            #expect(abs(rms - 0.5) < 0.03, "rms \(rms) LSB")
        }
    }

    @Test func sixteenBitMaterialPassesBitForBit() throws {
        // On the grid already: nothing to quantise, so nothing is added (a 16-bit file converted stays itself).
        let grid: [Float] = (0..<4_800).map { (i: Int) -> Float in
            let code: Int = Int((Double(i) * 0.37).truncatingRemainder(dividingBy: 2000)) - 1000
            return Float(code) / 32_768
        }
        let dir = ToolRunner.temporaryDirectory("dither-grid")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileEncoder.write(
            AudioBuffer(channelData: [grid], sampleRate: .hz48000), to: dir + "/g.flac",
            options: EncodeOptions(format: .flac, dither: true))
        #expect(Array(try AudioFileDecoder.decode(path: dir + "/g.flac").buffer.channel(0)) == grid)
    }

    @Test func digitalSilenceStaysSilent() throws {
        let dir = ToolRunner.temporaryDirectory("dither-silence")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/silence.wav"
        let writer = try StreamingFileWriter(
            path: path, format: .wav16, sampleRate: .hz48000, channels: .stereo, durability: .processCrash, dither: true
        )
        try [Float](repeating: 0, count: 2000).withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.finish()
        #expect(try AudioFileDecoder.decode(path: path).buffer.samples.allSatisfy { $0 == 0 })
    }
}
