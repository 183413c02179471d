import CSampleRate

// All calls into libsamplerate go through this file: one thin function per C function, so that tests
// have a single place to inject faults and the C types stay out of the public API.

typealias SamplerateHandle = OpaquePointer

@inline(__always)
func system_src_new(_ converter: Int32, _ channels: Int32, _ error: inout Int32) -> SamplerateHandle? {
    src_new(converter, channels, &error)
}

@inline(__always)
func system_src_delete(_ handle: SamplerateHandle) { _ = src_delete(handle) }

@inline(__always)
func system_src_process(_ handle: SamplerateHandle, _ data: inout SRC_DATA) -> Int32 {
    src_process(handle, &data)
}

@inline(__always)
func system_src_reset(_ handle: SamplerateHandle) -> Int32 { src_reset(handle) }

@inline(__always)
func system_src_is_valid_ratio(_ ratio: Double) -> Bool { src_is_valid_ratio(ratio) != 0 }

@inline(__always)
func system_src_strerror(_ code: Int32) -> String {
    guard let text = src_strerror(code) else { return "libsamplerate error \(code)" }
    return String(cString: text)
}
