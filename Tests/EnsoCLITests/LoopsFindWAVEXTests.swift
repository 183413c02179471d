import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `loops find --write` on a WAV in WAVE_FORMAT_EXTENSIBLE (what sox writes for 24-bit): the loop goes into the
/// file's `smpl` chunk, as docs/loops.md promises for WAV, and the file stays WAVEX with the same samples.
@Suite struct LoopsFindWAVEXTests {
    let fixture = CLIFixture("wavex")

    /// `buffer` as sox writes a 24-bit WAV: a 40-byte `fmt ` chunk with tag 0xFFFE, 24 valid bits, the channel
    /// mask, the PCM sub-format GUID; then `data`.
    static func soxLikeWAVEX24(_ buffer: AudioBuffer) -> Data {
        func le(_ v: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + le(body.count, 4) + body }
        let channels = buffer.channels
        let rate = buffer.sampleRate.hertz
        let pcmGUID: [UInt8] = [
            0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
        ]
        let fmt =
            le(0xFFFE, 2) + le(channels, 2) + le(rate, 4) + le(rate * channels * 3, 4) + le(channels * 3, 2)
            + le(24, 2) + le(22, 2) + le(24, 2) + le(channels == 2 ? 3 : 4, 4) + pcmGUID
        let data = buffer.interleaved().flatMap { le(Int(($0 * 8_388_607).rounded()), 3) }
        let body = Array("WAVE".utf8) + chunk("fmt ", fmt) + chunk("data", data)
        return Data(Array("RIFF".utf8) + le(body.count, 4) + body)
    }

    @Test func writeStoresTheLoopInTheSmplChunkOfAWAVEX() throws {
        let path = fixture.dir + "/sox24.wav"
        let cut = LoopSignals.periodicNoise(period: 12_000, frames: 12_000 * 5 + 3_333, seed: 4)
        try Self.soxLikeWAVEX24(cut).write(to: URL(fileURLWithPath: path))
        let before = try AudioFileDecoder.decode(path: path)
        #expect(before.info.format == "WAVEX" && before.info.subtype == "PCM_24")
        let w = try ToolRunner.run("enso", ["loops", "find", "--write", path])
        #expect(w.exitCode == 0 && w.stdout.contains("Wrote the best loop to \(path)"), "\(w.stdout)\(w.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path + ".loop.json"))
        let after = try AudioFileDecoder.decode(path: path)
        #expect(after.info.format == "WAVEX" && after.info.subtype == "PCM_24")
        let loop = try #require(after.info.loops.first)
        #expect((loop.end - loop.start) % 12_000 == 0, "\(loop)")
        #expect(after.buffer.samples == before.buffer.samples)
        let v = try ToolRunner.run("enso", ["loops", "verify", "--json", path])
        #expect(v.stdout.contains("\"loopSource\": \"embedded\""), "\(v.stdout)")
    }

    /// `buffer` as a plain 32-bit integer PCM WAV (what `sox -b 32 -e signed-integer` writes).
    static func pcm32WAV(_ buffer: AudioBuffer) -> Data {
        func le(_ v: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + le(body.count, 4) + body }
        let (channels, rate) = (buffer.channels, buffer.sampleRate.hertz)
        let fmt =
            le(1, 2) + le(channels, 2) + le(rate, 4) + le(rate * channels * 4, 4) + le(channels * 4, 2) + le(32, 2)
        // Odd low bits: a rewrite from 32-bit floats (24 bits of mantissa) would change them.
        let data = buffer.interleaved().flatMap { le(Int((Double($0) * 2_147_483_000).rounded()) | 0x55, 4) }
        let body = Array("WAVE".utf8) + chunk("fmt ", fmt) + chunk("data", data)
        return Data(Array("RIFF".utf8) + le(body.count, 4) + body)
    }

    /// A 32-bit integer WAV is not rewritten (its samples, decoded to 32-bit floats, keep 24 of their 32 bits): the
    /// loop goes to the sidecar, and the message says why, where it said only "Wrote the best loop to
    /// FILE.loop.json" beside a help that promised WAV files a smpl chunk.
    @Test func aThirtyTwoBitWAVGetsASidecarAndSaysWhy() throws {
        let path = fixture.dir + "/pcm32.wav"
        let bytes = Self.pcm32WAV(LoopSignals.periodicNoise(period: 12_000, frames: 12_000 * 5 + 3_333, seed: 4))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try AudioFileDecoder.info(path: path).subtype == "PCM_32")
        let w = try ToolRunner.run("enso", ["loops", "find", "--write", path])
        #expect(w.exitCode == 0, "\(w.stdout)\(w.stderr)")
        #expect(
            w.stdout.contains(
                "Wrote the best loop to \(path).loop.json rather than to a smpl chunk: a 32-bit integer WAV is not "
                    + "rewritten, as enso reads samples as 32-bit floats, which hold 24 of its 32 bits"), "\(w.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the file is left as it was")
        let v = try ToolRunner.run("enso", ["loops", "verify", "--json", path])
        #expect(v.stdout.contains("\"loopSource\": \"sidecar\""), "\(v.stdout)")
        let help = try ToolRunner.run("enso", ["loops", "find", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("8/32-bit PCM or 64-bit float WAVs, which a rewrite would change"), "\(help.stdout)")
    }
}
