import CZlib

// All calls into zlib go through this file: one thin function per C function.

/// The C function is `compressBound`: the largest size `compress2` can produce for `length` bytes.
@inline(__always)
func system_compressBound(_ length: Int) -> Int {
    Int(compressBound(uLong(length)))
}

/// The C function is `compress2`: deflates `source` into `destination` at `level` (0...9); returns zlib's code
/// (`Z_OK` on success) and the bytes written.
@inline(__always)
func system_compress2(
    _ destination: UnsafeMutablePointer<UInt8>, capacity: Int, _ source: UnsafePointer<UInt8>, count: Int, level: Int32
) -> (code: Int32, written: Int) {
    var size = uLong(capacity)
    let rc = compress2(destination, &size, source, uLong(count), level)
    return (rc, Int(size))
}

/// zlib's success code, `Z_OK`.
let zlibOK = Z_OK
