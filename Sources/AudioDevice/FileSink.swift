import AudioCore
#if canImport(Glibc)
import Glibc
#endif

/// A sink that writes the converted stream, unpaced, to a raw file, atomically.
///
/// Frames go to a temporary file beside the destination; `drain` fsyncs it and renames it into place,
/// `drop` removes it, so the destination is either complete or untouched.
///
/// - Thread safety: see ``PCMSink``.
final class FileSink: PCMSink, @unchecked Sendable {
    let deviceName: String
    let path: String
    private let temporaryPath: String
    private var fd: Int32

    /// Creates the temporary file beside `path`.
    ///
    /// - Throws: ``EnsoError`` of kind `unavailable` (folder missing), `permission`, or `failure`.
    init(path: String) throws(EnsoError) {
        self.path = path
        deviceName = "file:\(path)"
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryPath = (folder.isEmpty ? "" : folder + "/") + ".\(base).\(getpid()).partial"
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 {
            let e = errno
            let kind: ErrorKind = e == ENOENT ? .unavailable : (e == EACCES || e == EPERM ? .permission : .failure)
            throw EnsoError(
                kind, "cannot write '\(path)': \(String(cString: strerror(e)))", code: -e)
        }
    }

    deinit { drop() }

    func write(_ data: UnsafeRawPointer, frames: Int, bytesPerFrame: Int) -> Int {
        guard fd >= 0 else { return Int(-EBADFD) }
        var offset = 0
        let total = frames * bytesPerFrame
        while offset < total {
            let n = Glibc.write(fd, data + offset, total - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return Int(-errno)
            }
            offset += n
        }
        return frames
    }

    /// Bytes per frame of the stream, set by ``FileOutput`` before the first write.
    var bytesPerFrame = 0

    func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
        write(data, frames: frames, bytesPerFrame: bytesPerFrame)
    }

    func delay(_ frames: inout Int) -> Int32 {
        frames = 0
        return 0
    }

    func recover(_ code: Int32) -> Int32 { code }

    func prepare() -> Int32 { fd >= 0 ? 0 : -EBADFD }

    /// Whether the file was completed (fsynced and renamed into place), and the errno when it was not.
    private(set) var finishError: Int32 = 0

    func drain() {
        guard fd >= 0 else { return }
        var rc: Int32 = 0
        if fsync(fd) != 0 { rc = errno }
        close(fd)
        fd = -1
        if rc == 0 && rename(temporaryPath, path) != 0 { rc = errno }
        if rc != 0 {
            unlink(temporaryPath)
            finishError = rc
        }
    }

    func drop() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporaryPath)
    }
}
