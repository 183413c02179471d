import AudioCore
import AudioFile
import AudioTestSupport
import Foundation

/// Byte-level builders for WAV and AIFF test files, so tests can state exactly what a header holds.
enum TestFiles {
    /// A fresh temporary folder for one test.
    static func folder(_ label: String) -> String {
        ToolRunner.temporaryDirectory("audiofile-\(label)")
    }

    static func write(_ bytes: [UInt8], to path: String) {
        precondition(writeTestFile(path, Data(bytes)), "cannot write a test fixture")
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) } }

    static func chunk(_ id: String, _ body: [UInt8], bigEndian: Bool = false) -> [UInt8] {
        Array(id.utf8) + (bigEndian ? be32(body.count) : le32(body.count)) + body + (body.count % 2 == 1 ? [0] : [])
    }

    /// A 16-bit PCM RIFF WAV. `dataBytesDeclared` overrides the data chunk size; `extraChunks` go between
    /// `fmt ` and `data`; `formatTag` 1 is PCM.
    static func wav(
        channels: Int = 1, rate: Int = 44_100, frames: Int = 100, formatTag: Int = 1,
        dataBytesDeclared: Int? = nil, extraChunks: [UInt8] = []
    ) -> [UInt8] {
        let block = max(channels, 1) * 2
        let data = [UInt8](repeating: 0, count: frames * block).enumerated().map { UInt8($0.offset % 7) }
        let fmt = le16(formatTag) + le16(channels) + le32(rate) + le32(rate * block) + le16(block) + le16(16)
        let dataChunk = Array("data".utf8) + le32(dataBytesDeclared ?? data.count) + data
        let body = Array("WAVE".utf8) + chunk("fmt ", fmt) + extraChunks + dataChunk
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    /// A `smpl` chunk with one forward loop whose start and end are stored as given (end inclusive per the spec).
    static func smplChunk(start: Int, endInclusive: Int) -> [UInt8] {
        let header = [0, 0, 22_675, 60, 0, 0, 0, 1, 0].flatMap { le32($0) }
        let loop = [0, 0, start, endInclusive, 0, 0].flatMap { le32($0) }
        return chunk("smpl", header + loop)
    }

    /// What ``AudioFileDecoder/info(path:)`` reads from a 1000-frame WAV whose `smpl` chunk stores one loop as given
    /// (``smplChunk(start:endInclusive:)``), written to a temporary file that is removed afterwards.
    static func infoOfWAV(smplStart start: Int, endInclusive: Int) throws -> AudioFileInfo {
        let dir = folder("smpl")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/loop.wav"
        write(wav(frames: 1000, extraChunks: smplChunk(start: start, endInclusive: endInclusive)), to: path)
        return try AudioFileDecoder.info(path: path)
    }

    /// An AIFF (16-bit big-endian PCM), optionally with a sustain loop between two markers.
    static func aiff(frames: Int = 1000, channels: Int = 1, rate: Int = 44_100, loopMarkers: (Int, Int)? = nil)
        -> [UInt8]
    {
        let comm = be16(channels) + be32(frames) + be16(16) + extended80(Double(rate))
        var body = Array("AIFF".utf8) + chunk("COMM", comm, bigEndian: true)
        if let (start, end) = loopMarkers {
            // Two markers with empty names (a 0 length byte padded to an even size).
            let mark = be16(2) + be16(1) + be32(start) + [0, 0] + be16(2) + be32(end) + [0, 0]
            body += chunk("MARK", mark, bigEndian: true)
            // baseNote, detune, lowNote, highNote, lowVelocity, highVelocity, gain; sustain loop
            // (forward, begin marker 1, end marker 2); release loop off.
            let inst: [UInt8] =
                [60, 0, 0, 127, 0, 127] + be16(0) + be16(1) + be16(1) + be16(2) + be16(0) + be16(0) + be16(0)
            body += chunk("INST", inst, bigEndian: true)
        }
        let samples = (0..<(frames * channels)).flatMap { be16(($0 * 37) % 2000) }
        body += chunk("SSND", be32(0) + be32(0) + samples, bigEndian: true)
        return Array("FORM".utf8) + be32(body.count) + body
    }

    /// IEEE 754 80-bit extended, as AIFF stores the sample rate.
    static func extended80(_ value: Double) -> [UInt8] {
        guard value > 0 else { return [UInt8](repeating: 0, count: 10) }
        let e = Int(floor(log2(value)))
        let mantissa = UInt64(value * pow(2, Double(63 - e)))
        return be16(16_383 + e) + (0..<8).reversed().map { UInt8((mantissa >> (8 * UInt64($0))) & 0xFF) }
    }

    /// The 32-bit little-endian words of the first chunk `id` in a RIFF file.
    static func riffChunkWords(_ bytes: [UInt8], id: String) -> [UInt32]? {
        var pos = 12
        while pos + 8 <= bytes.count {
            let name = String(decoding: bytes[pos..<(pos + 4)], as: UTF8.self)
            let size =
                Int(bytes[pos + 4]) | Int(bytes[pos + 5]) << 8 | Int(bytes[pos + 6]) << 16 | Int(bytes[pos + 7]) << 24
            if name == id {
                return stride(from: pos + 8, to: pos + 8 + size - 3, by: 4).map {
                    UInt32(bytes[$0]) | UInt32(bytes[$0 + 1]) << 8 | UInt32(bytes[$0 + 2]) << 16 | UInt32(bytes[$0 + 3])
                        << 24
                }
            }
            pos += 8 + size + (size & 1)
        }
        return nil
    }
}

/// A short description of how two buffers differ ("" when they are identical), for readable failures.
func bufferDifference(_ a: AudioBuffer, _ b: AudioBuffer) -> String {
    if a == b { return "" }
    if a.channels != b.channels || a.frameCount != b.frameCount || a.sampleRate != b.sampleRate {
        return "shape \(a.channels)x\(a.frameCount)@\(a.sampleRate) vs \(b.channels)x\(b.frameCount)@\(b.sampleRate)"
    }
    var first = -1
    var worst: Float = 0
    var count = 0
    for i in a.samples.indices where a.samples[i] != b.samples[i] {
        if first < 0 { first = i }
        count += 1
        worst = max(worst, abs(a.samples[i] - b.samples[i]))
    }
    return
        "\(count) samples differ, first at \(first) (\(a.samples[first]) vs \(b.samples[first])), max difference \(worst)"
}
