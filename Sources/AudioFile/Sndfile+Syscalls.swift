import AudioCore
import CSndFile

// All calls into libsndfile go through this file: one thin function per C function, so that tests
// have a single place to inject faults and the C types stay out of the public API.

typealias SndfileHandle = OpaquePointer

@inline(__always)
func system_sf_open(_ path: String, _ mode: Int32, _ info: inout SF_INFO) -> SndfileHandle? {
    sf_open(path, mode, &info)
}

@inline(__always)
func system_sf_close(_ handle: SndfileHandle) -> Int32 { sf_close(handle) }

@inline(__always)
func system_sf_error(_ handle: SndfileHandle?) -> Int32 { sf_error(handle) }

@inline(__always)
func system_sf_strerror(_ handle: SndfileHandle?) -> String { String(cString: sf_strerror(handle)) }

@inline(__always)
func system_sf_readf_float(_ handle: SndfileHandle, _ ptr: UnsafeMutablePointer<Float>, _ frames: Int64) -> Int64 {
    sf_readf_float(handle, ptr, frames)
}

@inline(__always)
func system_sf_writef_float(_ handle: SndfileHandle, _ ptr: UnsafePointer<Float>, _ frames: Int64) -> Int64 {
    sf_writef_float(handle, ptr, frames)
}

@inline(__always)
func system_sf_seek(_ handle: SndfileHandle, _ frames: Int64, _ whence: Int32) -> Int64 {
    sf_seek(handle, frames, whence)
}

@inline(__always)
func system_sf_command(_ handle: SndfileHandle?, _ cmd: Int32, _ data: UnsafeMutableRawPointer?, _ size: Int32) -> Int32
{
    sf_command(handle, cmd, data, size)
}

@inline(__always)
func system_sf_format_check(_ info: inout SF_INFO) -> Int32 { sf_format_check(&info) }

/// The libsndfile error code as an `ErrorDetail`.
func errorKind(forSndfileCode code: Int32) -> ErrorDetail {
    switch Int(code) {
    case Int(SF_ERR_UNRECOGNISED_FORMAT): return .notAudio
    case Int(SF_ERR_SYSTEM): return .ioFailure
    case Int(SF_ERR_MALFORMED_FILE): return .malformed
    case Int(SF_ERR_UNSUPPORTED_ENCODING): return .unsupported
    default: return .malformed
    }
}

@inline(__always)
func system_sf_writef_int(_ handle: SndfileHandle, _ ptr: UnsafePointer<Int32>, _ frames: Int64) -> Int64 {
    sf_writef_int(handle, ptr, frames)
}
