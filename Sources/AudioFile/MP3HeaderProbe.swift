import Glibc

/// Whether an MP3 file states its length: a Xing or Info tag (LAME, libsndfile, ffmpeg) or a VBRI tag (Fraunhofer)
/// with a frame count in its first audio frame, read without libsndfile.
///
/// An MP3 has no header of its own: without such a tag, libsndfile (mpg123) estimates the length from the file's
/// size, so a cut file is merely a shorter one and nothing can tell it was cut. With the tag, the length is the
/// encoder's count, exact, and a stream that runs dry before it is truncated, as a FLAC or WAV that ends before its
/// header's length is (``SoundFileReader``).
///
/// The probe skips an ID3v2 tag, finds the first frame header and reads the tag where the encoders write it: after
/// the side information for Xing/Info (17 or 32 bytes in MPEG-1, 9 or 17 in MPEG-2 and 2.5, mono or not), 32 bytes
/// after the header for VBRI.
enum MP3HeaderProbe {
    /// Whether the MP3 at `path` carries a frame count (`false` when it has none or cannot be read).
    static func statesLength(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 10)
        guard read(fd, &head, at: 0) == 10 else { return false }
        var offset: Int64 = 0
        if head[0] == 0x49 && head[1] == 0x44 && head[2] == 0x33 {  // "ID3": syncsafe size, plus a footer if flagged
            let size = head[6...9].reduce(Int64(0)) { $0 << 7 | Int64($1 & 0x7F) }
            offset = 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
        }
        // The first frame header within 64 KiB after the tag (some files pad before it).
        var bytes = [UInt8](repeating: 0, count: 65_536)
        let n = read(fd, &bytes, at: offset)
        guard n > 4 else { return false }
        return statesLength(Array(bytes[0..<n]))
    }

    /// Whether the bytes from the start of the audio (after any ID3v2 tag) hold a tag with a frame count.
    static func statesLength(_ b: [UInt8]) -> Bool {
        var i = 0
        while i + 4 <= b.count && !(b[i] == 0xFF && b[i + 1] & 0xE0 == 0xE0 && b[i + 1] & 0x06 != 0) { i += 1 }
        guard i + 4 <= b.count else { return false }
        let version = (b[i + 1] >> 3) & 0x03  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
        let mono = (b[i + 3] >> 6) == 0x03
        let side = version == 3 ? (mono ? 17 : 32) : (mono ? 9 : 17)
        func tag(at p: Int) -> String? {
            guard p + 4 <= b.count else { return nil }
            return String(decoding: b[p..<(p + 4)], as: UTF8.self)
        }
        let x = i + 4 + side
        if let t = tag(at: x), t == "Xing" || t == "Info", x + 8 <= b.count {
            return b[x + 7] & 0x01 != 0  // flags, big-endian: bit 0 says the frame count follows
        }
        // VBRI always carries its frame count.
        return tag(at: i + 36) == "VBRI"
    }

    private static func read(_ fd: Int32, _ buffer: inout [UInt8], at offset: Int64) -> Int {
        let count = buffer.count
        return max(0, buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(offset)) })
    }
}
