import Glibc

/// Writes all of `bytes` to `fd`, the one write loop of every Enso writer (files, the journal, the file output,
/// standard streams).
///
/// The policy: a short write is continued where it stopped; `EINTR` (a signal arrived before anything was written)
/// retries the call; a write that returns 0 for a non-empty request stops with `EIO` (it would loop for ever); any
/// other errno stops at once and is returned, with how many bytes did go through, so a caller that must leave the
/// file as it was (the journal) can cut the partial write back off.
///
/// - Parameters:
///   - write: the `write(2)` to call (``FileSyscalls/write``; tests inject failures through it).
/// - Returns: the bytes written, and the errno that stopped the write (0 when every byte went through).
/// - Real-time safe: no (a system call that may block).
package func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer,
    using write: (Int32, UnsafeRawPointer, Int) -> Int = { Glibc.write($0, $1, $2) }
) -> (written: Int, errno: Int32) {
    guard let base = bytes.baseAddress else { return (0, 0) }
    var written = 0
    while written < bytes.count {
        let n = write(fd, base + written, bytes.count - written)
        if n < 0 {
            let e = errno
            if e == EINTR { continue }
            return (written, e)
        }
        if n == 0 { return (written, EIO) }
        written += n
    }
    return (written, 0)
}

/// ``writeAll(_:_:using:)`` for an array of bytes.
package func writeAll(
    _ fd: Int32, _ bytes: [UInt8], using write: (Int32, UnsafeRawPointer, Int) -> Int = { Glibc.write($0, $1, $2) }
) -> (written: Int, errno: Int32) {
    bytes.withUnsafeBytes { writeAll(fd, $0, using: write) }
}
