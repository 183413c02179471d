import AudioCore
import Glibc
import Synchronization
import SystemIO
import Testing

/// The one write loop: short writes continue, EINTR retries, other errors stop with what went through.
@Suite struct WriteAllTests {
    /// A pipe's write end, its read end, and a reader for what arrived.
    static func pipePair() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    static func drain(_ fd: Int32, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, count - got) }
            if n <= 0 { break }
            got += n
        }
        return Array(out[0..<got])
    }

    @Test func shortWritesAndEINTRAreContinued() {
        let (r, w) = Self.pipePair()
        defer { close(r); close(w) }
        let calls = Mutex(0)
        let bytes: [UInt8] = Array(0..<100)
        // Every other call is interrupted; the others write at most 7 bytes.
        let result = writeAll(w, bytes) { fd, p, n in
            let call = calls.withLock { c in
                c += 1; return c
            }
            if call % 2 == 1 {
                errno = EINTR
                return -1
            }
            return Glibc.write(fd, p, min(n, 7))
        }
        #expect(result.written == 100 && result.errno == 0)
        #expect(Self.drain(r, count: 100) == bytes)
    }

    @Test func anErrorStopsWithWhatWentThrough() {
        let (r, w) = Self.pipePair()
        defer { close(r); close(w) }
        let calls = Mutex(0)
        let result = writeAll(w, [UInt8](repeating: 1, count: 50)) { fd, p, n in
            if calls.withLock({ c in
                c += 1; return c
            }) == 1 {
                return Glibc.write(fd, p, 10)
            }
            errno = ENOSPC
            return -1
        }
        #expect(result.written == 10 && result.errno == ENOSPC)
    }

    @Test func aWriteOfNothingIsAnIOErrorNotALoop() {
        let result = writeAll(-1, [1, 2, 3]) { _, _, _ in 0 }
        #expect(result.written == 0 && result.errno == EIO)
    }
}

/// One errno table: the kind a caller acts on, the same wherever the errno came from.
@Suite struct ErrnoKindTests {
    @Test func theTable() {
        for e in [EACCES, EPERM, EROFS] { #expect(ErrorKind(errno: e) == .permission, "\(e)") }
        for e in [ENOENT, ENOTDIR, EISDIR, ENODEV, ENXIO] { #expect(ErrorKind(errno: e) == .unavailable, "\(e)") }
        for e in [EBUSY, EAGAIN] { #expect(ErrorKind(errno: e) == .busy, "\(e)") }
        for e in [ENOSPC, EIO, EDQUOT] { #expect(ErrorKind(errno: e) == .failure, "\(e)") }
    }

    @Test func aFileErrorCarriesTheDetailItsKindAgreesWith() {
        let e = EnsoError(errno: EROFS, "cannot write x", path: "x")
        #expect(e.kind == .permission && e.detail == .permissionDenied && e.code == EROFS)
        #expect(e.message == "cannot write x: Read-only file system")
        #expect(e.module == "SystemIOTests")
        for code in [ENOENT, ENOTDIR, EACCES, EPERM, EROFS, EISDIR, ENOSPC, EIO] {
            #expect(ErrorDetail(errno: code).kind == ErrorKind(errno: code), "\(code)")
        }
    }
}
