import AudioDevice
import Testing

@Suite struct SampleFormatTests {
    /// Converts `values` to `format` and returns the raw bytes.
    func bytes(_ values: [Float], _ format: SampleFormat) -> [UInt8] {
        var out = [UInt8](repeating: 0xAA, count: values.count * format.bytesPerSample)
        values.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBytes { format.convert(src.baseAddress!, count: values.count, into: $0.baseAddress!) }
        }
        return out
    }

    func ints16(_ values: [Float]) -> [Int16] {
        let b = bytes(values, .int16)
        return stride(from: 0, to: b.count, by: 2).map { Int16(bitPattern: UInt16(b[$0]) | UInt16(b[$0 + 1]) << 8) }
    }

    func ints32(_ values: [Float], _ format: SampleFormat) -> [Int32] {
        let b = bytes(values, format)
        return stride(from: 0, to: b.count, by: 4).map {
            Int32(
                bitPattern: UInt32(b[$0]) | UInt32(b[$0 + 1]) << 8 | UInt32(b[$0 + 2]) << 16 | UInt32(b[$0 + 3]) << 24)
        }
    }

    @Test func sixteenBitScalesRoundsAndClips() {
        // Full scale is 32768 steps; +1 maps to the largest code, beyond ±1 clips, NaN is silence.
        #expect(
            ints16([0, 1, -1, 0.5, -0.5, 1.5, -3, .nan, .infinity, -.infinity]) == [
                0, 32767, -32768, 16384, -16384, 32767, -32768, 0, 32767, -32768,
            ])
        // Rounds to nearest: 1.4 and 1.6 steps.
        #expect(ints16([1.4 / 32768, 1.6 / 32768, -1.6 / 32768]) == [1, 2, -2])
    }

    @Test func twentyFourBitInThirtyTwoIsSignExtended() {
        #expect(
            ints32([0, 1, -1, 0.5, -0.25, 2], .int24) == [0, 8_388_607, -8_388_608, 4_194_304, -2_097_152, 8_388_607])
    }

    @Test func packedTwentyFourBitIsThreeLittleEndianBytes() {
        #expect(bytes([0.5, -1, 1], .int24Packed) == [0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0xFF, 0xFF, 0x7F])
    }

    @Test func thirtyTwoBitKeepsFloatPrecision() {
        #expect(ints32([0, 1, -1, 0.5, 3], .int32) == [0, Int32.max, Int32.min, 1 << 30, Int32.max])
        // The smallest step a Float near 0.25 carries (2^-25) is 64 codes at 32-bit: nothing is lost.
        let x: Float = 0.25 + 1.0 / 33_554_432
        let code: Int32 = (1 << 29) + 64
        #expect(ints32([x], .int32) == [code])
    }

    @Test func floatClipsAndSilencesNaN() {
        let b = bytes([0.25, 1.5, -1.5, .nan], .float32)
        let f = stride(from: 0, to: b.count, by: 4).map {
            Float(
                bitPattern: UInt32(b[$0]) | UInt32(b[$0 + 1]) << 8 | UInt32(b[$0 + 2]) << 16 | UInt32(b[$0 + 3]) << 24)
        }
        #expect(f == [0.25, 1, -1, 0])
    }

    @Test func sizesAndNames() {
        #expect(SampleFormat.allCases.map(\.bytesPerSample) == [4, 4, 4, 3, 2])
        #expect(SampleFormat(rawValue: "s16") == .int16)
        #expect(SampleFormat.preference.first == .float32)
    }
}
