import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Huge and odd files through the CLI (issue 18, items 5 and 13): `info` reads headers, batches carry on with an
/// error row, a bell has a maximum length, non-finite samples are named.
@Suite struct HugeFileTests {
    /// A sparse 16-bit WAV with a valid header declaring `dataBytes` (no disk space used).
    static func sparseWAV(_ path: String, channels: Int, dataBytes: Int) {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let block = channels * 2
        let header =
            Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(channels)
            + le32(48_000) + le32(48_000 * block) + le16(block) + le16(16) + Array("data".utf8) + le32(dataBytes)
        precondition(
            writeTestFile(path, Data(header)), "cannot write a test fixture")
        precondition(truncate(path, off_t(header.count + dataBytes)) == 0, "cannot make a sparse test file")
    }

    @Test func infoReadsTheHeaderOfA4GBFile() throws {
        let dir = ToolRunner.temporaryDirectory("huge-info")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/huge.wav"
        Self.sparseWAV(path, channels: 2, dataBytes: 1 << 32 - 64)
        let r = try ToolRunner.run("enso", ["info", path])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("frames    1073741808"), "\(r.stdout)")
        #expect(r.stdout.contains("peak      not measured"), "\(r.stdout)")
        let j = try ToolRunner.run("enso", ["info", "--json", path])
        #expect(j.exitCode == 0)
        #expect(j.stdout.contains(#""frames": 1073741808"#) && !j.stdout.contains(#""peak""#), "\(j.stdout)")
    }

    /// A file too long to decode whole (6 h 12 min) is judged from the window around its seam, read alone
    /// (docs/loops.md, "A long file"): here digital silence, which passes with nothing to hear. It used to be an
    /// error row ("too long to load whole").
    @Test func loopsVerifyJudgesTheHugeFileFromItsSeamWindowAndCarriesOn() throws {
        let dir = try LoopsCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.removeItem(atPath: dir + "/broken.wav")
        Self.sparseWAV(dir + "/huge.wav", channels: 2, dataBytes: 1 << 32 - 64)
        let r = try ToolRunner.run("enso", ["loops", "verify", "--json", dir])
        #expect(r.exitCode == 1, "\(r.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let huge = try #require(rows.first { ($0["file"] as? String)?.hasSuffix("/huge.wav") == true })
        #expect(huge["verdict"] as? String == "pass", "\(huge)")
        let reasons = (huge["reasons"] as? [String]) ?? []
        #expect(reasons.contains { $0.contains("judged from the 20 s around the seam") }, "\(reasons)")
        #expect(rows.map { $0["verdict"] as? String ?? "" }.sorted() == ["fail", "pass", "pass"])
    }

    @Test func aBellLongerThanTheLimitGetsAnErrorRow() throws {
        let dir = ToolRunner.temporaryDirectory("long-bell")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        Self.sparseWAV(dir + "/six-hours.wav", channels: 1, dataBytes: 6 * 3600 * 96_000)
        let r = try ToolRunner.run("enso", ["bells", "audition", "--json", dir])
        #expect(r.exitCode != 0)
        #expect(
            r.stdout.contains("six-hours.wav") && r.stdout.contains("too long for a bell (at most 120 s)"),
            "\(r.stdout) \(r.stderr)")
    }

    @Test func infoNamesNonFiniteSamples() throws {
        let dir = ToolRunner.temporaryDirectory("inf-info")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var samples = [Float](repeating: 0.25, count: 4_800)
        samples[100] = .infinity
        samples[200] = -.infinity
        let path = dir + "/inf.wav"
        try AudioFileEncoder.write(
            AudioBuffer(planarSamples: samples, channels: .mono, sampleRate: .hz48000), to: path,
            options: EncodeOptions(format: .wavf))
        let r = try ToolRunner.run("enso", ["info", path])
        #expect(
            r.stdout.contains("peak      0.2500 (-12.0 dBFS) over the finite samples; 2 samples are NaN or infinite"),
            "\(r.stdout)")
        let j = try ToolRunner.run("enso", ["info", "--json", path])
        #expect(j.stdout.contains(#""nonFiniteSamples": 2"#), "\(j.stdout)")
    }

    /// (A NUL cannot reach a program through argv; it can through the protocol: see AssetCacheTests.)
    @Test func aFIFOAndADeviceAreNamed() throws {
        let dir = ToolRunner.temporaryDirectory("fifo-info")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        mkfifo(dir + "/pipe.wav", 0o600)
        let r = try ToolRunner.run("enso", ["info", dir + "/pipe.wav", "/dev/zero"])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("pipe.wav: not a regular file (a FIFO"), "\(r.stderr)")
        #expect(r.stderr.contains("/dev/zero: not a regular file (a character device)"), "\(r.stderr)")
    }
}
