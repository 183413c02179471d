import AudioCore
import Glibc
import SystemIO

/// `-` as a file name: standard input for a file Enso reads, standard output for one it writes (as in sox and
/// ffmpeg).
///
/// Both go through a private temporary file (mode 0600 in `$TMPDIR`, else `/tmp`), removed afterwards, so every
/// format works both ways: libsndfile's readers seek (a WAV's chunk list, FLAC metadata, an Ogg stream's last
/// page for its length) and its WAV and FLAC writers go back to fill in the header when the data is complete,
/// which a pipe allows neither of. The output reaches stdout only once it is complete: a failed write sends
/// nothing.
///
/// - Thread safety: any thread, but standard input can be read once per process.
/// - Real-time safe: no (file I/O).
public enum StandardStream {
    /// The file name that means standard input or output.
    public static let name = "-"

    /// Whether `path` is ``name``.
    public static func isStandard(_ path: String) -> Bool { path == name }

    /// Copies all of standard input into a new temporary file and returns its path; the caller removes it.
    ///
    /// - Throws: `EnsoError` `.empty` (nothing came in), `.ioFailure` (reading stdin or writing the
    ///   temporary file failed); the message names `-`.
    public static func spoolInput() throws(EnsoError) -> String {
        let (fd, path) = try makeTemporary(suffix: ".in")
        let copied = copy(from: STDIN_FILENO, to: fd)
        close(fd)
        switch copied {
        case .success(let total) where total > 0:
            return path
        case .success:
            unlink(path)
            throw EnsoError(.empty, path: name, "-: standard input is empty")
        case .failure(.read(let code)):
            unlink(path)
            throw EnsoError(
                .ioFailure, path: name, "-: reading standard input failed: \(systemReason(code))", code: code)
        case .failure(.write(let code)):
            unlink(path)
            throw EnsoError(
                .ioFailure, path: name, "-: spooling standard input to \(path) failed: \(systemReason(code))",
                code: code)
        }
    }

    /// A path in a new private temporary folder where an output bound for stdout is written first (the file
    /// itself is not created, so the atomic writers create it); `extension` keeps format inference working.
    /// Pass it to ``sendToOutput(_:)`` when the file is complete, or to ``discard(_:)``.
    ///
    /// - Throws: `EnsoError` `.ioFailure` when no temporary folder can be made.
    public static func temporaryOutputPath(extension ext: String) throws(EnsoError) -> String {
        var template = Array((temporaryFolder() + "/enso-stdout-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            let code = errno
            throw EnsoError(
                .ioFailure, path: name, "-: cannot make a temporary folder: \(systemReason(code))", code: code)
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "/out." + ext
    }

    /// Copies the complete file at `path` (from ``temporaryOutputPath(extension:)``) to standard output, then
    /// removes it and its folder.
    ///
    /// - Throws: `EnsoError` `.ioFailure` when stdout is closed or full (a reader that stopped reading).
    public static func sendToOutput(_ path: String) throws(EnsoError) {
        defer { discard(path) }
        // A reader that stops early (`| head -c 100`) is an EPIPE here, not a SIGPIPE that would kill the process
        // before the temporary file is removed.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw EnsoError(.ioFailure, path: name, "-: \(path): \(systemReason(code))", code: code)
        }
        defer { close(fd) }
        switch copy(from: fd, to: STDOUT_FILENO) {
        case .success: return
        case .failure(.read(let code)):
            throw EnsoError(.ioFailure, path: name, "-: reading \(path) failed: \(systemReason(code))", code: code)
        case .failure(.write(let code)):
            throw EnsoError(
                .ioFailure, path: name, "-: writing standard output failed: \(systemReason(code))", code: code)
        }
    }

    /// Which side of a ``copy(from:to:)`` failed, with its errno.
    private enum CopyFailure: Error {
        case read(Int32)
        case write(Int32)
    }

    /// Copies everything `source` holds to `destination`, 64 KiB at a time: a read interrupted by a signal is
    /// retried, each chunk goes through `writeAll`; returns the bytes copied.
    private static func copy(from source: Int32, to destination: Int32) -> Result<Int, CopyFailure> {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            if n == 0 { return .success(total) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.read(errno))
            }
            let code = buffer.withUnsafeBytes {
                writeAll(destination, UnsafeRawBufferPointer(rebasing: $0[0..<n])).errno
            }
            if code != 0 { return .failure(.write(code)) }
            total += n
        }
    }

    /// Removes a file from ``temporaryOutputPath(extension:)`` or ``spoolInput()`` (and the folder the former
    /// made); a missing file is fine.
    public static func discard(_ path: String) {
        unlink(path)
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if folder.hasPrefix(temporaryFolder() + "/enso-stdout-") { rmdir(folder) }
    }

    private static func temporaryFolder() -> String {
        if let raw = getenv("TMPDIR") {
            let dir = String(cString: raw)
            if dir.hasPrefix("/") { return dir.hasSuffix("/") && dir.count > 1 ? String(dir.dropLast()) : dir }
        }
        return "/tmp"
    }

    private static func makeTemporary(suffix: String) throws(EnsoError) -> (Int32, String) {
        var template = Array((temporaryFolder() + "/enso-stdin-XXXXXX" + suffix).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else {
            let code = errno
            throw EnsoError(
                .ioFailure, path: name, "-: cannot make a temporary file: \(systemReason(code))", code: code)
        }
        return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }
}
