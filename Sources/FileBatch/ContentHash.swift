import AudioCore
import Glibc
import SystemIO

/// The content hash of a batch's rows and shards: XXH3-64 (xxHash, seed 0), printed as 16 lower-case hex digits.
///
/// XXH3 reads several GB/s a core, so hashing a candidate costs a small part of decoding it, and the same bytes
/// give the same hash on every machine (`xxhsum -H3` prints the same digits, as `XXH3_<hex>`), which is what lets a
/// shard on one machine and a resume on another agree on a file.
///
/// - Thread safety: stateless; any thread.
public enum ContentHash {
    /// XXH3-64 of `bytes`.
    public static func of(_ bytes: some Collection<UInt8>) -> UInt64 {
        Array(bytes).withUnsafeBytes { system_XXH3_64bits($0) }
    }

    /// XXH3-64 of a string's UTF-8 (a relative path, for ``Shard``).
    public static func of(utf8 text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { system_XXH3_64bits(UnsafeRawBufferPointer($0)) }
    }

    /// XXH3-64 of the bytes of the file at `path`, read in 256 KiB pieces (its size does not matter).
    ///
    /// - Throws: `EnsoError` from the `open` or `read` that failed (`unavailable`, `permission`, …), naming the file.
    public static func ofFile(_ path: String) throws(EnsoError) -> UInt64 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EnsoError(errno: errno, "\(path): cannot read it", path: path) }
        defer { close(fd) }
        guard let state = system_XXH3_createState() else {
            throw EnsoError(.failure, "\(path): cannot hash it: out of memory", path: path)
        }
        defer { system_XXH3_freeState(state) }
        _ = system_XXH3_64bits_reset(state)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw EnsoError(errno: errno, "\(path): cannot read it", path: path)
            }
            if n == 0 { break }
            _ = system_XXH3_64bits_update(state, UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return system_XXH3_64bits_digest(state)
    }

    /// `hash` as 16 lower-case hex digits, leading zeros kept.
    public static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
