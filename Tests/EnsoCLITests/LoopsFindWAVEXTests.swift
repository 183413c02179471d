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
}
