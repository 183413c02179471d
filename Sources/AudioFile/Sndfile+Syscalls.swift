import AudioCore
import CSndFile
import Glibc
import Synchronization
import SystemIO

// All calls into libsndfile go through this file: one thin function per C function, so that tests
// have a single place to inject faults and the C types stay out of the public API.

typealias SndfileHandle = OpaquePointer

/// libsndfile keeps the error of a failed `sf_open` in one variable of the process, which `sf_error(NULL)` and
/// `sf_strerror(NULL)` read and every other `sf_open` sets again: read after the call returned, on a batch's threads,
/// it may be another file's (a broken file reported "cannot read audio: No Error." while another thread opened a good
/// one). An open and the reading of its failure hold this lock together.
private let sndfileOpen = Mutex(())

/// A file opened by `sf_open` (`handle`), or, when it failed, the error code and text libsndfile left for it and the
/// `errno` the failed call left (read before the lock is let go).
///
/// The corresponding C functions are `sf_open`, `sf_error` and `sf_strerror`, with a NULL handle for the failure.
func system_sf_open(_ path: String, _ mode: Int32, _ info: inout SF_INFO) -> (
    handle: SndfileHandle?, code: Int32, text: String, errno: Int32
) {
    sndfileOpen.withLock { _ in
        guard let handle = sf_open(path, mode, &info) else {
            let e = errno
            return (nil, sf_error(nil), String(cString: sf_strerror(nil)), e)
        }
        return (handle, 0, "", 0)
    }
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

/// Why a libsndfile write or close on `handle` failed, in words, and the code to report: the system's reason and
/// errno when the disk refused the write, else libsndfile's text and code.
///
/// libsndfile's FLAC encoder starts on the first write and reports a write the disk refused as "problem with
/// initialization of the flac decoder" (its `SFE_FLAC_INIT_DECODER`), so a full disk read as a decoder fault.
/// `errno`, read right after the failed call (`e`), still holds the disk's reason: `ENOSPC`, `EDQUOT`, `EFBIG` and
/// `EIO` are set only by a write that failed, so they are believed over libsndfile's text.
///
/// The corresponding C functions are `sf_error` and `sf_strerror`.
func writeFailure(_ handle: SndfileHandle?, errno e: Int32) -> (reason: String, code: Int32) {
    if [ENOSPC, EDQUOT, EFBIG, EIO].contains(e) { return (systemReason(e), e) }
    return (system_sf_strerror(handle), system_sf_error(handle))
}

/// libsndfile's internal error `SFE_BAD_FILE` ("File does not exist or is not a regular file (possibly a pipe?)"),
/// which `sf_error` returns as it is (sndfile.h exports only the first five codes): its MPEG decoder gives it for a
/// stream in which it finds no frame.
let sndfileBadFile: Int32 = 7

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
