import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioFile

@Suite("AudioFile round trips")
struct SoundFileRoundTripTests {
    /// Stereo noise quantised to `bits`, so a lossless round trip must return the same floats exactly.
    static func quantisedNoise(frames: Int, bits: Int, rate: Int = 44_100) -> AudioBuffer {
        let scale = Float(1 << (bits - 1))
        var rng = SeededRandom(seed: UInt64(bits))
        let channels = (0..<2).map { _ in
            (0..<frames).map { _ in (rng.nextSigned() * 0.9 * scale).rounded() / scale }
        }
        return AudioBuffer(channelData: channels, sampleRate: SampleRate(checked: rate))
    }

    @Test(
        "lossless formats are bit-exact",
        arguments: [
            (EncodeFormat.wav16, 16, "WAV", "PCM_16"), (.wav24, 24, "WAV", "PCM_24"), (.flac, 16, "FLAC", "PCM_16"),
            (.flac24, 24, "FLAC", "PCM_24"), (.wavf, 24, "WAV", "FLOAT"),
        ])
    func lossless(format: EncodeFormat, bits: Int, container: String, subtype: String) throws {
        let dir = TestFiles.folder("lossless")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = Self.quantisedNoise(frames: 10_007, bits: bits)
        let path = dir + "/x." + (container == "WAV" ? "wav" : "flac")
        try AudioFileEncoder.write(input, to: path, options: EncodeOptions(format: format))
        let decoded = try AudioFileDecoder.decode(path: path)
        #expect(decoded.info.format == container)
        #expect(decoded.info.subtype == subtype)
        #expect(decoded.info.sampleRate == .hz44100)
        #expect(decoded.info.channels == .stereo)
        #expect(decoded.info.frames == 10_007)
        #expect(bufferDifference(decoded.buffer, input) == "")
    }

    /// A chord of three sines: tonal content the lossy codecs keep well.
    static func chord(rate: Int, frames: Int) -> AudioBuffer {
        let a = SignalGenerator.sine(frequency: 220, amplitude: 0.3, frames: frames, sampleRate: rate)
        let b = SignalGenerator.sine(frequency: 330, amplitude: 0.2, frames: frames, sampleRate: rate)
        let c = SignalGenerator.sine(frequency: 550, amplitude: 0.1, frames: frames, sampleRate: rate)
        let mix = (0..<frames).map { a[$0] + b[$0] + c[$0] }
        return AudioBuffer(channelData: [mix, mix.map { $0 * 0.5 }], sampleRate: SampleRate(checked: rate))
    }

    @Test(
        "Ogg Vorbis and Opus keep length and waveform within a stated SNR",
        arguments: [
            // Waveform SNR is a harsh measure for perceptual codecs. This chord at quality 0.8 measures about
            // 38 dB for both (libvorbis 1.3.7, libopus 1.3.1); 30 dB leaves room for other codec builds and
            // still fails on a shift of one frame (28 dB for this chord), a wrong channel or a level change.
            (EncodeFormat.ogg, "ogg", 30.0), (.opus, "opus", 30.0),
        ])
    func lossy(format: EncodeFormat, ext: String, minimumSNR: Double) throws {
        let dir = TestFiles.folder("lossy")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = Self.chord(rate: 48_000, frames: 48_000)
        let path = dir + "/x." + ext
        try AudioFileEncoder.write(input, to: path, options: EncodeOptions(format: format, quality: 0.8))
        let decoded = try AudioFileDecoder.decode(path: path)
        #expect(decoded.info.format == "OGG")
        #expect(decoded.buffer.frameCount == input.frameCount)
        for ch in 0..<2 {
            // The first and last 20 ms hold the codec's start-up and end transients.
            let ref = Array(input.channel(ch).dropFirst(960).dropLast(960))
            let got = Array(decoded.buffer.channel(ch).dropFirst(960).dropLast(960))
            let snr = Tolerance.snr(reference: ref, test: got)
            #expect(snr >= minimumSNR, "\(format) channel \(ch): SNR \(snr) dB")
        }
    }

    @Test("streaming reader: chunks add up to the whole file, then 0 frames at the end")
    func streaming() throws {
        let dir = TestFiles.folder("stream")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = Self.quantisedNoise(frames: 5_000, bits: 16)
        let path = dir + "/s.flac"
        try AudioFileEncoder.write(input, to: path, options: EncodeOptions(format: .flac))
        let reader = try SoundFileReader(path: path)
        var interleaved: [Float] = []
        var scratch = [Float](repeating: 0, count: 777 * 2)
        while true {
            let n = try scratch.withUnsafeMutableBufferPointer {
                try reader.readFrames(into: $0.baseAddress!, maxFrames: 777)
            }
            if n == 0 { break }
            interleaved += scratch[0..<(n * 2)]
        }
        #expect(reader.position == 5_000)
        // Reading past the end keeps returning 0, not an error.
        let again = try scratch.withUnsafeMutableBufferPointer {
            try reader.readFrames(into: $0.baseAddress!, maxFrames: 777)
        }
        #expect(again == 0)
        #expect(interleaved.count == input.frameCount * 2)
        #expect(interleaved == input.interleaved(), "streamed samples differ")
        // Seeking back and reading the rest matches the tail.
        try reader.seek(toFrame: 4_000)
        let tail = try reader.readAll()
        #expect(bufferDifference(tail, input.slice(frames: 4_000..<5_000)) == "")
        reader.close()
        let closed = try scratch.withUnsafeMutableBufferPointer {
            try reader.readFrames(into: $0.baseAddress!, maxFrames: 10)
        }
        #expect(closed == 0)
    }

    @Test("a write replaces an existing file atomically and leaves no temporary file")
    func atomicReplace() throws {
        let dir = TestFiles.folder("atomic")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a.wav"
        try AudioFileEncoder.write(Self.quantisedNoise(frames: 100, bits: 16), to: path, options: .init(format: .wav16))
        let second = Self.quantisedNoise(frames: 200, bits: 24)
        try AudioFileEncoder.write(second, to: path, options: .init(format: .wav24))
        #expect(bufferDifference(try AudioFileDecoder.decode(path: path).buffer, second) == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["a.wav"])
    }

    @Test("withSoundFile reads and closes the file")
    func scopedReader() throws {
        let dir = TestFiles.folder("scoped")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = Self.quantisedNoise(frames: 300, bits: 16)
        try AudioFileEncoder.write(input, to: dir + "/s.wav", options: .init(format: .wav16))
        var kept: SoundFileReader?
        let frames = try withSoundFile(at: dir + "/s.wav") { (reader) throws(EnsoError) -> Int in
            kept = reader
            return try reader.readAll().frameCount
        }
        #expect(frames == 300)
        var scratch = [Float](repeating: 0, count: 20)
        // Closed on the way out: further reads return 0 frames.
        let after = try scratch.withUnsafeMutableBufferPointer {
            try kept!.readFrames(into: $0.baseAddress!, maxFrames: 10)
        }
        #expect(after == 0)
    }

    @Test func mono() throws {
        let dir = TestFiles.folder("mono")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = SignalGenerator.buffer([0.5, -0.5, 0.25, 0], sampleRate: 8_000)
        try AudioFileEncoder.write(input, to: dir + "/m.wav", options: .init(format: .wav16))
        let decoded = try AudioFileDecoder.decode(path: dir + "/m.wav")
        #expect(bufferDifference(decoded.buffer, input) == "")
        #expect(decoded.info.duration == 0.0005)
    }
}
