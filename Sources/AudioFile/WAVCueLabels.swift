import AudioCore
import Glibc

/// Cue labels in a RIFF WAV (`LIST` chunk of type `adtl`, one `labl` per labelled cue), read and written here
/// because libsndfile 1.2 does neither: `SFC_GET_CUE` leaves the names empty and `SFC_SET_CUE` writes the positions
/// only, so a label would be lost on every copy.
///
/// Reading walks the chunk headers (seeking past the data, so a file of any size costs a few reads) and parses the
/// first `adtl` list of at most ``maximumListBytes``. Writing appends one `adtl` list after everything libsndfile
/// wrote and fixes the RIFF size; the file is still the writer's temporary file, renamed into place after.
enum WAVCueLabels {
    /// The largest `adtl` list read: 100 labels of 255 bytes fit many times over; a larger one is not a label list
    /// a person wrote.
    static let maximumListBytes = 1 << 20

    /// The labels of the WAV at `path` by cue id (empty when it is not RIFF WAV or has none).
    static func read(path: String) -> [Int32: String] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [:] }
        defer { close(fd) }
        guard let riff = bytes(fd, at: 0, count: 12), tag(riff, 0) == "RIFF", tag(riff, 8) == "WAVE" else { return [:] }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return [:] }
        var offset: Int64 = 12
        while offset + 8 <= Int64(st.st_size) {
            guard let head = bytes(fd, at: offset, count: 12) else { break }
            let size = Int64(u32(head, 4))
            if tag(head, 0) == "LIST", head.count == 12, tag(head, 8) == "adtl", size <= maximumListBytes,
                let list = bytes(fd, at: offset + 12, count: Int(max(0, size - 4)))
            {
                return parse(list)
            }
            offset += 8 + size + (size & 1)
        }
        return [:]
    }

    /// The `labl` entries of an `adtl` list's body.
    static func parse(_ b: [UInt8]) -> [Int32: String] {
        var labels: [Int32: String] = [:]
        var p = 0
        while p + 12 <= b.count {
            let size = Int(u32(b, p + 4))
            guard size >= 4, p + 8 + size <= b.count else { break }
            if tag(b, p) == "labl" {
                let text = b[(p + 12)..<(p + 8 + size)].prefix { $0 != 0 }
                labels[Int32(bitPattern: u32(b, p + 8))] = String(decoding: text, as: UTF8.self)
            }
            p += 8 + size + (size & 1)
        }
        return labels
    }

    /// Appends the labels of `cues` (those with a name) to the WAV libsndfile wrote and closed at `path`.
    ///
    /// - Throws: `EnsoError` `.ioFailure` naming `name` (the file the user knows) when the file cannot be extended.
    static func append(_ cues: [CuePoint], to path: String, name: String) throws(EnsoError) {
        let named = cues.filter { !$0.name.isEmpty }
        guard !named.isEmpty else { return }
        var list = Array("adtl".utf8)
        for cue in named {
            let text = Array(cue.name.utf8.prefix(255)) + [0]
            list += Array("labl".utf8) + le32(UInt32(4 + text.count)) + le32(UInt32(bitPattern: cue.id)) + text
            if text.count & 1 == 1 { list.append(0) }
        }
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw failure(name) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, let riff = bytes(fd, at: 0, count: 12), tag(riff, 0) == "RIFF" else {
            throw failure(name)
        }
        var chunk = (st.st_size & 1 == 1 ? [0] : []) + Array("LIST".utf8) + le32(UInt32(list.count)) + list
        let end = Int64(st.st_size) + Int64(chunk.count)
        guard end - 8 <= Int64(UInt32.max) else { return }  // an RF64-sized file: no room in a RIFF size
        var size = le32(UInt32(end - 8))
        let wrote = chunk.withUnsafeMutableBytes { pwrite(fd, $0.baseAddress!, $0.count, st.st_size) }
        let fixed = size.withUnsafeMutableBytes { pwrite(fd, $0.baseAddress!, 4, 4) }
        guard wrote == chunk.count, fixed == 4 else { throw failure(name) }
    }

    private static func failure(_ name: String) -> EnsoError {
        EnsoError(.ioFailure, path: name, "\(name): cannot write the cue labels: \(String(cString: strerror(errno)))")
    }

    private static func bytes(_ fd: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var b = [UInt8](repeating: 0, count: count)
        let n = b.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(offset)) }
        return n > 0 ? Array(b[0..<n]) : nil
    }

    private static func tag(_ b: [UInt8], _ at: Int) -> String {
        at + 4 <= b.count ? String(decoding: b[at..<(at + 4)], as: UTF8.self) : ""
    }

    private static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        at + 4 <= b.count ? (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) } : 0
    }

    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }
}
