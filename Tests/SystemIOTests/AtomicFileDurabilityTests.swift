import AudioCore
import AudioTestSupport
import Foundation
import Glibc
import Synchronization
import SystemIO
import Testing

/// The durability a caller chooses is the durability it gets; a new file gets the mode it asks for.
@Suite struct AtomicFileDurabilityTests {
    final class Count: Sendable {
        let value = Mutex(0)
    }

    /// The system's calls, counting fsyncs.
    static func counting(_ fsyncs: Count) -> FileSyscalls {
        var s = FileSyscalls()
        s.fsync = { fd in
            fsyncs.value.withLock { $0 += 1 }
            return Glibc.fsync(fd)
        }
        return s
    }

    static func contents(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 64) }
        return Array(buffer[0..<max(n, 0)])
    }

    @Test(arguments: [(AtomicFile.Durability.powerLoss, 1), (.processCrash, 0)])
    func fsyncsWhatTheCallerChose(durability: AtomicFile.Durability, expected: Int) throws {
        let path = ToolRunner.temporaryDirectory("atomic-durability") + "/f"
        let fsyncs = Count()
        try AtomicFile.write([1, 2, 3], to: path, mode: 0o666, durability: durability, syscalls: Self.counting(fsyncs))
        #expect(fsyncs.value.withLock { $0 } == expected)
        #expect(Self.contents(path) == [1, 2, 3])
    }

    @Test func aNewFileTakesTheModeAskedFor() throws {
        let path = ToolRunner.temporaryDirectory("atomic-mode") + "/private"
        try AtomicFile.write([7], to: path, mode: 0o600)
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
    }

    @Test func aFailedFsyncLeavesTheOldFileAndNoTemporary() throws {
        let dir = ToolRunner.temporaryDirectory("atomic-fsync")
        let path = dir + "/f"
        try AtomicFile.write([1], to: path)
        var failing = FileSyscalls()
        failing.fsync = { _ in
            errno = EIO
            return -1
        }
        #expect(throws: EnsoError.self) {
            try AtomicFile.write([2, 2], to: path, mode: 0o666, durability: .powerLoss, syscalls: failing)
        }
        #expect(Self.contents(path) == [1])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        #expect(names == ["f"])
    }
}
