import AudioCore
import AudioTestSupport
import Foundation
import Glibc
import Testing

@testable import AudioFile

/// Standard input spooled within bounds (issue 47, item 7): a header that declares more than any decodable file is
/// read alone, input over the bound is refused with the figure, input no decoder knows is refused after its first
/// 64 KiB, and the spools of dead processes are swept.
/// Serialized: each test compares this process's spool files before and after, so a spool another of its tests
/// holds at that moment read as left behind (a fresh-clone run failed so).
@Suite(.serialized) struct StandardStreamSpoolTests {
    /// A 44-byte WAV header: 16-bit stereo at 48 kHz whose data chunk declares `dataBytes`.
    static func wavHeader(dataBytes: UInt32) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        return Array("RIFF".utf8) + le32(dataBytes &+ 36) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(2)
            + le32(48_000) + le32(48_000 * 4) + le16(4) + le16(16) + Array("data".utf8) + le32(dataBytes)
    }

    /// A file holding `bytes`, opened for reading: standard input as the spool sees it.
    static func source(_ bytes: [UInt8], in dir: String) -> Int32 {
        let path = dir + "/input-\(UInt32.random(in: 0...UInt32.max))"
        _ = writeTestFile(path, Data(bytes))
        return open(path, O_RDONLY)
    }

    /// This process's spools in the temporary folder.
    static func spools() -> [String] {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix("enso-stdin-\(getpid())-")
        }
    }

    @Test func aHeaderDeclaringMoreThanTheBoundIsReadAloneWithoutSpoolingTheRest() throws {
        let dir = ToolRunner.temporaryDirectory("spool-header")
        // 4 GB of declared data (16-bit stereo: 1 billion frames, 6 h 12 min), 3 MiB of it present.
        let declared: UInt32 = 4_000_000_000
        let fd = Self.source(Self.wavHeader(dataBytes: declared) + [UInt8](repeating: 0, count: 3 << 20), in: dir)
        defer { close(fd) }
        let spool = try StandardStream.spoolInput(from: fd, limit: 1 << 20)
        defer { StandardStream.discard(spool) }
        var st = stat()
        #expect(stat(spool, &st) == 0)
        // The header's length, as a hole: at most the 64 KiB read are on disk.
        #expect(Int64(st.st_size) == 44 + Int64(declared))
        #expect(Int64(st.st_blocks) * 512 <= 128 << 10, "\(st.st_blocks) blocks")
        // Only the header was read from the input.
        #expect(lseek(fd, 0, SEEK_CUR) == off_t(StandardStream.headerBytes))
        let info = try SoundFileReader(path: spool).info
        #expect(info.frames == Int64(declared / 4) && info.channels.count == 2 && info.sampleRate.hertz == 48_000)
        // Its samples are over the decode limit: refused from the header, with the figure.
        let error = #expect(throws: EnsoError.self) { try AudioFileDecoder.decode(path: spool) }
        #expect(error?.detail == .tooLarge)
        #expect(error?.message.contains("the limit is \(DecodeLimits.maxDecodedSamples) samples") == true)
    }

    @Test func anRF64DeclaresItsLengthInItsDS64Chunk() throws {
        func le(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        // 6 GB of 16-bit stereo (over what a RIFF size holds), as EBU Tech 3306 lays it out.
        let declared: UInt64 = 6_000_000_000
        let header =
            Array("RF64".utf8) + le(0xFFFF_FFFF, 4) + Array("WAVEds64".utf8) + le(28, 4) + le(declared + 72, 8)
            + le(declared, 8) + le(declared / 4, 8) + le(0, 4) + Array("fmt ".utf8) + le(16, 4) + le(1, 2) + le(2, 2)
            + le(48_000, 4) + le(192_000, 4) + le(4, 2) + le(16, 2) + Array("data".utf8) + le(0xFFFF_FFFF, 4)
        #expect(header.count == 80)
        let padded = header + [UInt8](repeating: 0, count: StandardStream.headerBytes)
        #expect(StandardStream.declaredData(Array(padded.prefix(StandardStream.headerBytes)))! == (80, 6_000_000_000))
        let dir = ToolRunner.temporaryDirectory("spool-rf64")
        let fd = Self.source(padded, in: dir)
        defer { close(fd) }
        let spool = try StandardStream.spoolInput(from: fd, limit: 1 << 20)
        defer { StandardStream.discard(spool) }
        #expect(try SoundFileReader(path: spool).info.frames == Int64(declared / 4))
    }

    @Test func inputOverTheBoundIsRefusedWithTheFigureAndNothingKept() throws {
        let dir = ToolRunner.temporaryDirectory("spool-bound")
        // A streamed WAV (length unknown: 0xFFFFFFFF) of 2 MiB, against a 1 MiB bound.
        let fd = Self.source(Self.wavHeader(dataBytes: 0xFFFF_FFFF) + [UInt8](repeating: 0, count: 2 << 20), in: dir)
        defer { close(fd) }
        let before = Self.spools()
        let error = #expect(throws: EnsoError.self) { try StandardStream.spoolInput(from: fd, limit: 1 << 20) }
        #expect(error?.detail == .tooLarge)
        #expect(error?.message.hasPrefix("-: standard input is over 1 MiB") == true, "\(String(describing: error))")
        #expect(Self.spools() == before, "the refused spool is removed")
        // Within the bound, the same input is spooled whole.
        let small = Self.source(Self.wavHeader(dataBytes: 0xFFFF_FFFF) + [UInt8](repeating: 0, count: 100_000), in: dir)
        defer { close(small) }
        let spool = try StandardStream.spoolInput(from: small, limit: 1 << 20)
        defer { StandardStream.discard(spool) }
        var st = stat()
        #expect(stat(spool, &st) == 0 && st.st_size == 44 + 100_000)
        // The real bound is the decode limit's: 2^27 samples of at most 8 bytes, and 16 MiB of headers.
        #expect(StandardStream.maxSpoolBytes == (1 << 30) + (16 << 20))
    }

    @Test func inputNoDecoderKnowsIsRefusedAfterItsHeader() throws {
        let zero = open("/dev/zero", O_RDONLY)
        defer { close(zero) }
        let before = Self.spools()
        // /dev/zero never ends: only its first 64 KiB are read.
        let error = #expect(throws: EnsoError.self) {
            try StandardStream.spoolInput(from: zero, limit: StandardStream.maxSpoolBytes)
        }
        #expect(error?.detail == .notAudio)
        #expect(error?.message.contains("not a sound file Enso reads") == true, "\(String(describing: error))")
        #expect(Self.spools() == before)
    }

    @Test func spoolsOfDeadProcessesAreSweptAndLiveOnesKept() throws {
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let staleIn = folder + "/enso-stdin-\(dead.processIdentifier)-test01.in"
        let staleOut = folder + "/enso-stdout-\(dead.processIdentifier)-test01"
        let live = folder + "/enso-stdin-\(getppid())-test01.in"
        _ = writeTestFile(staleIn, Data([1, 2, 3]))
        _ = writeTestFile(live, Data([1, 2, 3]))
        try FileManager.default.createDirectory(atPath: staleOut, withIntermediateDirectories: true)
        _ = writeTestFile(staleOut + "/out.wav", Data([1, 2, 3]))
        defer { unlink(live) }
        StandardStream.removeStaleSpools()
        #expect(!FileManager.default.fileExists(atPath: staleIn))
        #expect(!FileManager.default.fileExists(atPath: staleOut))
        #expect(FileManager.default.fileExists(atPath: live), "a live process's spool is kept")
    }
}
