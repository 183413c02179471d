import CSndFile

/// Access to `SF_INSTRUMENT.loops`, which Swift cannot import (an array of an anonymous struct).
///
/// The loops array follows `loop_count` directly: 16 entries of `{int mode; uint32 start, end, count}`.
/// The layout is checked at run time against the struct's size; remove this once the field imports.
enum SndfileInstrument {
    typealias Loop = (mode: Int32, start: UInt32, end: UInt32, count: UInt32)

    static let loopsOffset: Int = {
        let offset = MemoryLayout<SF_INSTRUMENT>.offset(of: \SF_INSTRUMENT.loop_count)! + MemoryLayout<Int32>.size
        precondition(
            offset + 16 * 16 == MemoryLayout<SF_INSTRUMENT>.size,
            "SF_INSTRUMENT layout differs from sndfile.h 1.2 (loops[16] of 16 bytes after loop_count)")
        return offset
    }()

    static func loops(of inst: inout SF_INSTRUMENT) -> [Loop] {
        let count = Int(max(0, min(inst.loop_count, 16)))
        return withUnsafeBytes(of: &inst) { raw in
            (0..<count).map { i in
                let base = loopsOffset + i * 16
                return (
                    raw.load(fromByteOffset: base, as: Int32.self),
                    raw.load(fromByteOffset: base + 4, as: UInt32.self),
                    raw.load(fromByteOffset: base + 8, as: UInt32.self),
                    raw.load(fromByteOffset: base + 12, as: UInt32.self)
                )
            }
        }
    }

    static func setLoops(_ loops: [Loop], in inst: inout SF_INSTRUMENT) {
        inst.loop_count = Int32(min(loops.count, 16))
        withUnsafeMutableBytes(of: &inst) { raw in
            for (i, loop) in loops.prefix(16).enumerated() {
                let base = loopsOffset + i * 16
                raw.storeBytes(of: loop.mode, toByteOffset: base, as: Int32.self)
                raw.storeBytes(of: loop.start, toByteOffset: base + 4, as: UInt32.self)
                raw.storeBytes(of: loop.end, toByteOffset: base + 8, as: UInt32.self)
                raw.storeBytes(of: loop.count, toByteOffset: base + 12, as: UInt32.self)
            }
        }
    }
}
