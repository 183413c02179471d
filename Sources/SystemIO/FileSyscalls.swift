import Glibc

/// The system calls that write files, in one value so a test can inject a failure (a full disk mid-write, an fsync
/// that fails) into the one writer that takes it (the session journal's ``SessionJournal/syscalls``).
///
/// Each is a thin wrapper returning the C result; the caller reads `errno` right after a failure.
package struct FileSyscalls: Sendable {
    /// The corresponding C function is `open`.
    package var open: @Sendable (String, Int32, mode_t) -> Int32 = { path, flags, mode in
        Glibc.open(path, flags, mode)
    }
    /// The corresponding C function is `write`.
    package var write: @Sendable (Int32, UnsafeRawPointer, Int) -> Int = { fd, p, n in Glibc.write(fd, p, n) }
    /// The corresponding C function is `fsync`.
    package var fsync: @Sendable (Int32) -> Int32 = { fd in Glibc.fsync(fd) }

    /// The system's own calls.
    package static let system = FileSyscalls()

    package init() {}
}
