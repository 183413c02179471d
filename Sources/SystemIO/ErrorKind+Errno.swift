import AudioCore
import Glibc

// MARK: - The errno table

extension ErrorKind {
    /// The kind of a failed system call's `errno`: the one table every module uses (files, the journal, the socket
    /// folder, the file output, ALSA's negative return values).
    ///
    /// | errno | kind | why |
    /// |-------|------|-----|
    /// | `EACCES`, `EPERM`, `EROFS` | `permission` | the user may not do it here (a read-only mount included) |
    /// | `ENOENT`, `ENOTDIR`, `EISDIR`, `ENODEV`, `ENXIO` | `unavailable` | the file, folder or device is not there |
    /// | `EBUSY`, `EAGAIN` | `busy` | another process holds it; retrying later may work |
    /// | anything else (`ENOSPC`, `EIO`, …) | `failure` | the system failed; the message gives its reason |
    public init(errno code: Int32) {
        switch code {
        case EACCES, EPERM, EROFS: self = .permission
        case ENOENT, ENOTDIR, EISDIR, ENODEV, ENXIO: self = .unavailable
        case EBUSY, EAGAIN: self = .busy
        default: self = .failure
        }
    }
}

extension ErrorDetail {
    /// The finer reason for a failed call on a file path: `notFound` (`ENOENT`, `ENOTDIR`), `permissionDenied`
    /// (`EACCES`, `EPERM`, `EROFS`), `isDirectory` (`EISDIR`), else `ioFailure`. Its kind agrees with
    /// `ErrorKind(errno:)` for every errno but `EBUSY`/`EAGAIN`/`ENODEV`/`ENXIO`, which files do not return.
    public init(errno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self = .notFound
        case EACCES, EPERM, EROFS: self = .permissionDenied
        case EISDIR: self = .isDirectory
        default: self = .ioFailure
        }
    }
}

extension EnsoError {
    /// The error for a system call that failed with `errno`: "`what`: the system's reason", its kind from
    /// `ErrorKind(errno:)` and, when the call was on the file `path`, its detail from `ErrorDetail(errno:)`.
    ///
    ///     throw EnsoError(errno: errno, "cannot write the journal \(path)", path: path)
    public init(
        errno code: Int32, _ what: String, path: String? = nil, fileID: String = #fileID, function: String = #function
    ) {
        self.init(
            ErrorKind(errno: code), "\(what): \(systemReason(code))", path: path, code: code, fileID: fileID,
            function: function)
        if path != nil { detail = ErrorDetail(errno: code) }
    }
}

/// The system's description of `errno` `code` ("No space left on device").
///
/// The corresponding C function is `strerror`.
public func systemReason(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}
