import Glibc

/// What the first bytes of a WAV or AIFF file declare, read without libsndfile.
///
/// Used only to explain failures precisely: libsndfile reports a bad channel count or an unknown
/// encoding through internal error numbers that are not part of its stable API, and it silently
/// shortens a data chunk that runs past the end of the file. The probe reads the header chunks
/// (`fmt `/`data` for RIFF WAV, `COMM`/`SSND` for AIFF) from the first 64 KiB and nothing else.
struct AudioHeaderProbe: Equatable {
    /// "WAV" or "AIFF".
    var container: String
    /// The declared channel count.
    var channels: Int
    /// The declared sample rate in Hz (rounded for AIFF's 80-bit float).
    var sampleRate: Double
    /// The WAV format tag (sub-format for `WAVE_FORMAT_EXTENSIBLE`) or the AIFF-C compression type.
    var encoding: String
    /// Whether libsndfile is known to decode `encoding`.
    var encodingKnown: Bool
    /// Bytes the data chunk declares, and bytes the file actually has after the chunk header.
    var declaredDataBytes: Int64?
    var availableDataBytes: Int64?

    /// Whether the data chunk claims more bytes than the file holds (a cut-off file). A WAV data size of
    /// 0 or 0xFFFFFFFF means "length unknown" (written by a streaming tool) and is not counted.
    var isTruncated: Bool {
        guard let declared = declaredDataBytes, let available = availableDataBytes else { return false }
        if container == "WAV" && (declared == 0 || declared == 0xFFFF_FFFF) { return false }
        return declared > available
    }

    private static let knownWAVTags: Set<Int> = [0x0001, 0x0002, 0x0003, 0x0006, 0x0007, 0x0011, 0x0031]
    private static let knownAIFCTypes: Set<String> = [
        "NONE", "none", "sowt", "twos", "raw ", "in24", "42ni", "in32", "23ni", "fl32", "FL32", "fl64", "FL64",
        "ulaw", "ULAW", "alaw", "ALAW", "ima4", "GSM ", "DWVW",
    ]

    /// Probes the file at `path`; `nil` when it is not RIFF WAV or AIFF or cannot be read.
    static func probe(path: String) -> AudioHeaderProbe? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        // The header chunks are nearly always in the first 4 KiB; look further only when the data chunk is not.
        var result: AudioHeaderProbe?
        for size in [4096, 65_536] {
            var bytes = [UInt8](repeating: 0, count: size)
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, size, 0) }
            guard n >= 12 else { return nil }
            if n < size { bytes.removeLast(size - n) }
            result = parse(bytes, fileSize: Int64(st.st_size))
            if result == nil || result?.declaredDataBytes != nil || n < size { break }
        }
        return result
    }

    /// Parses header bytes of a file `fileSize` bytes long.
    static func parse(_ b: [UInt8], fileSize: Int64) -> AudioHeaderProbe? {
        let tag = String(decoding: b[0..<4], as: UTF8.self)
        let form = String(decoding: b[8..<12], as: UTF8.self)
        if tag == "RIFF" && form == "WAVE" {
            return walkChunks(b, fileSize: fileSize, bigEndian: false, format: "fmt ", data: "data") { size, body in
                guard body + 16 <= b.count else { return nil }
                var formatTag = le16(b, body)
                if formatTag == 0xFFFE && size >= 40 && body + 26 <= b.count { formatTag = le16(b, body + 24) }
                return AudioHeaderProbe(
                    container: "WAV", channels: le16(b, body + 2), sampleRate: Double(le32(b, body + 4)),
                    encoding: "format tag 0x" + String(formatTag, radix: 16),
                    encodingKnown: knownWAVTags.contains(formatTag))
            }
        }
        if tag == "FORM" && (form == "AIFF" || form == "AIFC") {
            return walkChunks(b, fileSize: fileSize, bigEndian: true, format: "COMM", data: "SSND") { _, body in
                guard body + 18 <= b.count else { return nil }
                var encoding = "NONE"
                if form == "AIFC" && body + 22 <= b.count {
                    encoding = String(decoding: b[(body + 18)..<(body + 22)], as: UTF8.self)
                }
                return AudioHeaderProbe(
                    container: "AIFF", channels: Int(Int16(bitPattern: UInt16(be16(b, body)))),
                    sampleRate: extended80(b, body + 8), encoding: "compression '\(encoding)'",
                    encodingKnown: knownAIFCTypes.contains(encoding))
            }
        }
        return nil
    }

    /// Walks the chunks after the 12-byte RIFF or FORM header (an id, a 32-bit size in the container's byte
    /// order, the body, a pad byte to an even length): the `format` chunk makes the result (`header` gets its
    /// declared size and body offset, `nil` when the body is cut off), the `data` chunk adds the data sizes and
    /// ends the walk.
    private static func walkChunks(
        _ b: [UInt8], fileSize: Int64, bigEndian: Bool, format: String, data: String,
        header: (_ size: Int64, _ body: Int) -> AudioHeaderProbe?
    ) -> AudioHeaderProbe? {
        var result: AudioHeaderProbe?
        var pos = 12
        while pos + 8 <= b.count {
            let id = String(decoding: b[pos..<(pos + 4)], as: UTF8.self)
            let size = Int64(bigEndian ? be32(b, pos + 4) : le32(b, pos + 4))
            let body = pos + 8
            if id == format, let parsed = header(size, body) {
                result = parsed
            } else if id == data {
                result?.declaredDataBytes = size
                result?.availableDataBytes = fileSize - Int64(body)
                return result
            }
            pos = body + Int(size) + Int(size & 1)
        }
        return result
    }

    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// An IEEE 754 80-bit extended value (AIFF's sample rate field).
    private static func extended80(_ b: [UInt8], _ i: Int) -> Double {
        let exponent = (be16(b, i) & 0x7FFF) - 16383
        var mantissa: UInt64 = 0
        for k in 0..<8 { mantissa = mantissa << 8 | UInt64(b[i + 2 + k]) }
        if mantissa == 0 { return 0 }
        return Double(mantissa) * pow(2, Double(exponent - 63))
    }
}
