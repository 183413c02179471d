import AudioCore
import AudioTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@testable import AudioFile

/// Every way opening a file can fail: the error kind, and a message that names the file.
@Suite("AudioFile errors")
struct AudioFileErrorTests {
    /// Opens `path` expecting failure; checks the kind and that the message names the file.
    func expectFailure(_ path: String, _ kind: ErrorDetail, mentioning words: [String] = []) {
        do {
            _ = try AudioFileDecoder.decode(path: path)
            Issue.record("\(path) decoded, expected \(kind)")
        } catch {
            #expect(error.detail == kind, "\(error.message)")
            #expect(error.message.contains(path), "message does not name the file: \(error.message)")
            #expect(error.path == path)
            for word in words { #expect(error.message.contains(word), "\(error.message) lacks \"\(word)\"") }
        }
    }

    @Test func missingFile() {
        let dir = TestFiles.folder("missing")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        expectFailure(dir + "/nope.wav", .notFound)
        expectFailure(dir + "/no-such-folder/nope.wav", .notFound)
    }

    @Test func directory() {
        let dir = TestFiles.folder("dir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        expectFailure(dir, .isDirectory, mentioning: ["directory"])
    }

    @Test("unreadable (mode 000); as root, through an injected EACCES")
    func unreadable() {
        let dir = TestFiles.folder("perm")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/locked.wav"
        TestFiles.write(TestFiles.wav(), to: path)
        chmod(path, 0)
        if geteuid() == 0 {
            // Root reads mode-000 files, so the permission check only fails through the fault layer.
            SyscallFaults.inject(errno: EACCES, forPath: path)
            defer { SyscallFaults.remove(forPath: path) }
            expectFailure(path, .permissionDenied, mentioning: ["Permission denied"])
        } else {
            expectFailure(path, .permissionDenied, mentioning: ["Permission denied"])
        }
    }

    @Test func emptyFile() {
        let dir = TestFiles.folder("empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        TestFiles.write([], to: dir + "/empty.wav")
        expectFailure(dir + "/empty.wav", .empty, mentioning: ["empty"])
        // A valid header with no frames is empty too.
        TestFiles.write(TestFiles.wav(frames: 0), to: dir + "/noframes.wav")
        expectFailure(dir + "/noframes.wav", .empty)
    }

    @Test func notAudio() {
        let dir = TestFiles.folder("text")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        TestFiles.write(Array(String(repeating: "hello, not audio\n", count: 20).utf8), to: dir + "/notes.wav")
        expectFailure(dir + "/notes.wav", .notAudio)
        // An .mp3 holding no MPEG frame (noise, or an ID3 tag alone) read "File does not exist or is not a regular
        // file (possibly a pipe?)", libsndfile's words for what its MPEG decoder gives up on.
        // Bytes that never hold 0xFF hold no MPEG frame sync: no chance of a frame.
        TestFiles.write((0..<2_000).map { UInt8(($0 * 37 + 11) % 255) }, to: dir + "/noise.mp3")
        TestFiles.write(Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, 10] + Array("0123456789".utf8), to: dir + "/tag.mp3")
        for name in ["noise.mp3", "tag.mp3"] {
            expectFailure(dir + "/" + name, .notAudio, mentioning: ["no MPEG audio frame its decoder can read"])
        }
    }

    /// libsndfile keeps a failed open's error in one variable of the process, which every other open sets again: on a
    /// batch's threads a broken file read "cannot read audio: No Error." when a good file was opened between its open
    /// and the reading of the error (`enso info --jobs 4` over 41 broken and 40 good files: 9 such of 205 in five runs).
    /// Opened beside good files on four threads, every broken file says what it is.
    @Test func aBrokenFileOpenedBesideGoodOnesSaysWhatItIs() {
        let dir = TestFiles.folder("race")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        TestFiles.write(Array("RIFF not really a wave".utf8), to: dir + "/broken.wav")
        TestFiles.write(TestFiles.wav(), to: dir + "/good.wav")
        let said = Mutex<[String: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for k in 0..<400 where (k + thread) % 2 == 0 {
                _ = try? AudioFileDecoder.info(path: dir + "/good.wav")
                do throws(EnsoError) {
                    _ = try AudioFileDecoder.info(path: dir + "/broken.wav")
                } catch {
                    said.withLock { $0["\(error.name): \(error.message)", default: 0] += 1 }
                }
            }
        }
        let messages = said.withLock { $0 }
        #expect(messages.keys.count == 1 && messages.keys.first?.hasPrefix("not-audio: ") == true, "\(messages)")
    }

    @Test("a cut WAV or AIFF is truncated; a FLAC cut mid-frame is malformed")
    func truncated() throws {
        let dir = TestFiles.folder("trunc")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let wav = TestFiles.wav(frames: 1000)
        TestFiles.write(Array(wav.prefix(500)), to: dir + "/cut.wav")
        expectFailure(dir + "/cut.wav", .truncated, mentioning: ["truncated"])
        let aiff = TestFiles.aiff(frames: 1000)
        TestFiles.write(Array(aiff.prefix(600)), to: dir + "/cut.aiff")
        expectFailure(dir + "/cut.aiff", .truncated, mentioning: ["truncated"])
        // A FLAC cut in half: the header (STREAMINFO) still declares the full length.
        let noise = SignalGenerator.whiteNoise(frames: 48_000, amplitude: 0.5, seed: 3)
        try AudioFileEncoder.write(
            SignalGenerator.buffer(noise, sampleRate: 48_000), to: dir + "/full.flac",
            options: EncodeOptions(format: .flac))
        let flac = try Data(contentsOf: URL(fileURLWithPath: dir + "/full.flac"))
        TestFiles.write(Array(flac.prefix(flac.count / 2)), to: dir + "/cut.flac")
        expectFailure(dir + "/cut.flac", .malformed)
    }

    @Test("an unknown WAV format tag is unsupported")
    func unsupportedSubtype() {
        let dir = TestFiles.folder("unsup")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        TestFiles.write(TestFiles.wav(formatTag: 0x1234), to: dir + "/odd.wav")
        expectFailure(dir + "/odd.wav", .unsupported, mentioning: ["0x1234"])
    }

    @Test(
        "absurd header values are invalid-header",
        arguments: [
            (0, 44_100, "0 channels"), (65, 44_100, "65 channels"), (1, 500, "500 Hz"), (1, 0, "0 Hz"),
            (1, 1_000_000, "1000000 Hz"),
        ])
    func absurdHeader(channels: Int, rate: Int, words: String) {
        let dir = TestFiles.folder("absurd")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/absurd.wav"
        TestFiles.write(TestFiles.wav(channels: channels, rate: rate, frames: 10), to: path)
        expectFailure(path, .invalidHeader, mentioning: [words])
    }

    @Test("0 channels in an AIFF header is invalid-header")
    func absurdAIFF() {
        let dir = TestFiles.folder("absurd-aiff")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        TestFiles.write(TestFiles.aiff(frames: 10, channels: 0), to: dir + "/zero.aiff")
        expectFailure(dir + "/zero.aiff", .invalidHeader, mentioning: ["0 channels"])
    }

    @Test("a failed write leaves nothing behind and names the file")
    func failedWrite() {
        let dir = TestFiles.folder("write")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let buffer = SignalGenerator.buffer([0.1, 0.2, 0.3], sampleRate: 44_100)
        let missingFolder = dir + "/absent/out.wav"
        do {
            try AudioFileEncoder.write(buffer, to: missingFolder, options: .init(format: .wav16))
            Issue.record("a file was written into a missing folder")
        } catch {
            #expect(error.detail == .notFound)
            #expect(
                error.message == "\(missingFolder): cannot create: the folder \(dir)/absent does not exist",
                "\(error.message)")
        }
        do {
            try AudioFileEncoder.write(buffer, to: dir + "/out.opus", options: .init(format: .opus))
            Issue.record("Opus at 44.1 kHz was accepted")
        } catch {
            #expect(error.detail == .invalidArgument)
            #expect(error.message.contains(dir + "/out.opus"))
        }
        // Nothing half-written: no output, no temporary file.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir)) == [])
    }
}
