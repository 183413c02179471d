import AudioCore
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

/// A sink that writes the converted stream, unpaced, to a raw file, atomically.
///
/// Frames go to a temporary file beside the destination (``AtomicFile/create(for:mode:)``); `drain` completes it
/// (fsync, rename into place, fsync of the folder: it survives a power cut), `drop` removes it, so the destination
/// is either complete or untouched.
///
/// - Thread safety: see ``PCMSink``.
final class FileSink: PCMSink, @unchecked Sendable {
    let deviceName: String
    let path: String
    /// Bytes per frame of the converted stream.
    let bytesPerFrame: Int
    private let temporaryPath: String
    private var fd: Int32

    /// Creates the temporary file beside `path`, for frames of `bytesPerFrame` bytes.
    ///
    /// - Throws: ``EnsoError`` of kind `unavailable` (folder missing), `permission` (a read-only mount included),
    ///   or `failure`.
    init(path: String, bytesPerFrame: Int) throws(EnsoError) {
        self.path = path
        self.bytesPerFrame = bytesPerFrame
        deviceName = "file:\(path)"
        do {
            (temporaryPath, fd) = try AtomicFile.create(for: path)
        } catch {
            var e = error
            e.message = "cannot write '\(path)': \(e.code.map(systemReason) ?? e.message)"
            throw e
        }
    }

    deinit { drop() }

    func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
        guard fd >= 0 else { return Int(-EBADFD) }
        let failure = writeAll(fd, UnsafeRawBufferPointer(start: data, count: frames * bytesPerFrame)).errno
        return failure == 0 ? frames : Int(-failure)
    }

    func delay(_ frames: inout Int) -> Int32 {
        frames = 0
        return 0
    }

    func recover(_ code: Int32) -> Int32 { code }

    func prepare() -> Int32 { fd >= 0 ? 0 : -EBADFD }

    /// Why the file could not be completed (fsynced and renamed into place), if it could not.
    private(set) var finishError: EnsoError?

    func drain() {
        guard fd >= 0 else { return }
        let open = fd
        fd = -1
        do {
            try AtomicFile.commit(temporaryPath, fd: open, to: path, durability: .powerLoss)
        } catch {
            finishError = error
        }
    }

    func drop() {
        guard fd >= 0 else { return }
        AtomicFile.abandon(temporaryPath, fd: fd)
        fd = -1
    }
}
