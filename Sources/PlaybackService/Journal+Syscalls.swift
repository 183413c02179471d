#if canImport(Glibc)
import Glibc
#endif

/// The system calls the journal makes to write, in one place so tests can inject failures (a full disk
/// mid-write) through ``SessionJournal/syscalls``.
///
/// Each is a thin wrapper returning the C result; the caller reads `errno` right after a failure.
struct JournalSyscalls: Sendable {
    /// The corresponding C function is `open` (for writing: the journal, temporary files, probes).
    var open: @Sendable (String, Int32, mode_t) -> Int32 = { path, flags, mode in Glibc.open(path, flags, mode) }
    /// The corresponding C function is `write`.
    var write: @Sendable (Int32, UnsafeRawPointer, Int) -> Int = { fd, p, n in Glibc.write(fd, p, n) }
    /// The corresponding C function is `fsync`.
    var fsync: @Sendable (Int32) -> Int32 = { fd in Glibc.fsync(fd) }
}
