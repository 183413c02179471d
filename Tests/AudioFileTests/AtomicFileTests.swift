import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Glibc
import SystemIO
import Testing

/// Atomic writes over an existing file keep who may read and write it (`loops find --write` rewrites a WAV in place
/// or its sidecar; the temporary file renamed onto it was created with the umask's mode and the writer's owner).
@Suite struct AtomicFileTests {
    static func mode(_ path: String) -> (mode: mode_t, uid: uid_t, gid: gid_t) {
        var st = stat()
        #expect(stat(path, &st) == 0, "stat \(path)")
        return (st.st_mode & 0o7777, st.st_uid, st.st_gid)
    }

    static let tone = LoopSignals.tones(frequencies: [440], frames: 4_800, channels: 1)

    /// A file `name` in a new folder, written and given `mode`: the file a later write replaces.
    static func existing(_ name: String, _ format: EncodeFormat, mode: mode_t) throws -> (dir: String, path: String) {
        let dir = ToolRunner.temporaryDirectory("replace")
        let path = dir + "/" + name
        try AudioFileEncoder.write(Self.tone, to: path, options: EncodeOptions(format: format))
        #expect(chmod(path, mode) == 0)
        return (dir, path)
    }

    @Test func rewritingAFileKeepsItsModeAndOwner() throws {
        let (dir, path) = try Self.existing("bed.wav", .wav16, mode: 0o640)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Root (as in CI) can hand the file to another owner; elsewhere the owner is already the writer.
        let owner: (uid_t, gid_t) = getuid() == 0 ? (1234, 4321) : (getuid(), getgid())
        if getuid() == 0 { #expect(chown(path, owner.0, owner.1) == 0) }
        var looped = EncodeOptions(format: .wav16)
        looped.loops = [LoopRegion(start: 0, end: 4_800)]
        try AudioFileEncoder.write(Self.tone, to: path, options: looped)
        let after = Self.mode(path)
        #expect(after.mode == 0o640)
        #expect(after.uid == owner.0 && after.gid == owner.1)
        #expect(try AudioFileDecoder.decode(path: path).info.loops.count == 1)
    }

    @Test func aStreamedRenderOverAnExistingFileKeepsItsMode() throws {
        let (dir, path) = try Self.existing("render.flac", .flac, mode: 0o604)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = try StreamingFileWriter(path: path, format: .flac, sampleRate: .hz48000, channels: .mono)
        try Self.tone.samples.withUnsafeBufferPointer { try writer.write(interleaved: $0) }
        try writer.finish()
        #expect(Self.mode(path).mode == 0o604)
    }

    @Test func bytesReplaceAFileKeepingItsModeOrNameTheMissingFolder() throws {
        let dir = ToolRunner.temporaryDirectory("replace-bytes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bed.ogg.loop.json"
        try AtomicFile.write(Array("{}\n".utf8), to: path)
        #expect(chmod(path, 0o664) == 0)
        try AtomicFile.write(Array("{\"loop\": 1}\n".utf8), to: path)
        #expect(Self.mode(path).mode == 0o664)
        #expect(
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) == "{\"loop\": 1}\n")
        #expect(throws: EnsoError.self) { try AtomicFile.write([1, 2, 3], to: dir + "/missing/report.html") }
        do {
            try AtomicFile.write([1, 2, 3], to: dir + "/missing/report.html")
        } catch {
            #expect(error.detail == .notFound)
            #expect(
                error.message == "\(dir)/missing/report.html: cannot create: the folder \(dir)/missing does not exist")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["bed.ogg.loop.json"])
    }

    /// A process told to stop removes its unfinished files (``AtomicFile/removeUnfinished(then:)``, `enso render`'s
    /// SIGINT): every temporary file is listed from its name's making until its write is committed or abandoned,
    /// whichever writer made it, and a file that ended so is never listed (nor removed).
    @Test func temporaryFilesAreListedUntilCommittedOrAbandoned() throws {
        let dir = ToolRunner.temporaryDirectory("unfinished")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Other tests write beside this one: only this folder's names are looked at.
        func listed() -> [String] { AtomicFile.unfinishedTemporaries.filter { $0.hasPrefix(dir + "/") }.sorted() }
        let (bytes, fd) = try AtomicFile.create(for: dir + "/a.json")
        #expect(listed() == [bytes])
        try AtomicFile.commit(bytes, fd: fd, to: dir + "/a.json", durability: .processCrash)
        let (dropped, fd2) = try AtomicFile.create(for: dir + "/b.json")
        AtomicFile.abandon(dropped, fd: fd2)
        #expect(listed().isEmpty)
        let finished = try StreamingFileWriter(
            path: dir + "/c.flac", format: .flac, sampleRate: .hz48000, channels: .mono)
        let cancelled = try StreamingFileWriter(
            path: dir + "/d.wav", format: .wav16, sampleRate: .hz48000, channels: .mono)
        #expect(listed().map { ($0 as NSString).lastPathComponent.prefix(11) } == [".c.flac.tmp", ".d.wav.tmp-"])
        try Self.tone.samples.withUnsafeBufferPointer { try finished.write(interleaved: $0) }
        try finished.finish()
        cancelled.cancel()
        try AudioFileEncoder.write(Self.tone, to: dir + "/e.wav", options: EncodeOptions(format: .wav16))
        #expect(listed().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["a.json", "c.flac", "e.wav"])
    }

    @Test func aNewFileGetsTheUmasksMode() throws {
        let dir = ToolRunner.temporaryDirectory("replace-new")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/new.wav"
        // The umask read from /proc (setting it to read it would race with the tests running beside this one).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let mask = try #require(mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8))
        try AudioFileEncoder.write(Self.tone, to: path, options: EncodeOptions(format: .wav16))
        #expect(Self.mode(path).mode == 0o666 & ~mask)
    }
}
