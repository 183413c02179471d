import CALSA
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Every call into alsa-lib goes through this file
//
// One thin internal function per C function: the rest of the module never touches `CALSA`, and
// tests have a single place to see what the module asks of ALSA. A negative return is `-errno`.

/// alsa-lib's last diagnostic on the calling thread, kept by ``alsaKeepError`` instead of printed.
private let alsaLastError = Mutex<String>("")

/// A thread-local alsa-lib error handler (`snd_lib_error_set_local`) that keeps the message rather than printing
/// "ALSA lib pcm.c:…" to stderr ahead of Enso's own error.
private let alsaKeepError: snd_local_error_handler_t = { _, _, _, _, format, arguments in
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    alsaLastError.withLock { $0 = message }
}

/// The corresponding C function is `snd_pcm_open`. alsa-lib's own diagnostic for a failure (such as
/// "Unknown PCM x") is kept instead of printed (`snd_lib_error_set_local`, this thread only) and returned.
func alsa_pcm_open(_ name: String, nonBlocking: Bool) -> (OpaquePointer?, Int32, String) {
    alsaLastError.withLock { $0 = "" }
    let previous = snd_lib_error_set_local(alsaKeepError)
    defer { snd_lib_error_set_local(previous) }
    var pcm: OpaquePointer?
    let rc = snd_pcm_open(&pcm, name, SND_PCM_STREAM_PLAYBACK, nonBlocking ? SND_PCM_NONBLOCK : 0)
    return (pcm, rc, rc == 0 ? "" : alsaLastError.withLock { $0 })
}

/// The corresponding C function is `snd_pcm_close`.
@discardableResult
func alsa_pcm_close(_ pcm: OpaquePointer) -> Int32 { snd_pcm_close(pcm) }

/// The corresponding C function is `snd_pcm_nonblock`.
func alsa_pcm_nonblock(_ pcm: OpaquePointer, _ nonBlocking: Bool) -> Int32 {
    snd_pcm_nonblock(pcm, nonBlocking ? 1 : 0)
}

/// The corresponding C function is `snd_strerror`.
func alsa_strerror(_ code: Int32) -> String { String(cString: snd_strerror(code)) }

// MARK: - Hardware parameters

/// The corresponding C function is `snd_pcm_hw_params_malloc`.
func alsa_hw_params_malloc() -> OpaquePointer? {
    var p: OpaquePointer?
    return snd_pcm_hw_params_malloc(&p) == 0 ? p : nil
}

/// The corresponding C function is `snd_pcm_hw_params_free`.
func alsa_hw_params_free(_ p: OpaquePointer) { snd_pcm_hw_params_free(p) }

/// The corresponding C function is `snd_pcm_hw_params_any`.
func alsa_hw_params_any(_ pcm: OpaquePointer, _ p: OpaquePointer) -> Int32 { snd_pcm_hw_params_any(pcm, p) }

/// The corresponding C function is `snd_pcm_hw_params_set_access` (interleaved read/write access).
func alsa_hw_params_set_access_interleaved(_ pcm: OpaquePointer, _ p: OpaquePointer) -> Int32 {
    snd_pcm_hw_params_set_access(pcm, p, SND_PCM_ACCESS_RW_INTERLEAVED)
}

/// The corresponding C function is `snd_pcm_hw_params_test_format`.
func alsa_hw_params_test_format(_ pcm: OpaquePointer, _ p: OpaquePointer, _ f: SampleFormat) -> Int32 {
    snd_pcm_hw_params_test_format(pcm, p, f.alsaFormat)
}

/// The corresponding C function is `snd_pcm_hw_params_set_format`.
func alsa_hw_params_set_format(_ pcm: OpaquePointer, _ p: OpaquePointer, _ f: SampleFormat) -> Int32 {
    snd_pcm_hw_params_set_format(pcm, p, f.alsaFormat)
}

/// The corresponding C function is `snd_pcm_hw_params_set_channels_near`.
func alsa_hw_params_set_channels_near(_ pcm: OpaquePointer, _ p: OpaquePointer, _ channels: inout UInt32) -> Int32 {
    snd_pcm_hw_params_set_channels_near(pcm, p, &channels)
}

/// The corresponding C function is `snd_pcm_hw_params_set_rate_resample` (off: Enso resamples itself, once).
func alsa_hw_params_set_rate_resample(_ pcm: OpaquePointer, _ p: OpaquePointer, _ on: Bool) -> Int32 {
    snd_pcm_hw_params_set_rate_resample(pcm, p, on ? 1 : 0)
}

/// The corresponding C function is `snd_pcm_hw_params_set_rate_near`.
func alsa_hw_params_set_rate_near(_ pcm: OpaquePointer, _ p: OpaquePointer, _ rate: inout UInt32) -> Int32 {
    var dir: Int32 = 0
    return snd_pcm_hw_params_set_rate_near(pcm, p, &rate, &dir)
}

/// The corresponding C function is `snd_pcm_hw_params_set_period_size_near`.
func alsa_hw_params_set_period_size_near(_ pcm: OpaquePointer, _ p: OpaquePointer, _ frames: inout UInt) -> Int32 {
    var dir: Int32 = 0
    return snd_pcm_hw_params_set_period_size_near(pcm, p, &frames, &dir)
}

/// The corresponding C function is `snd_pcm_hw_params_set_buffer_size_near`.
func alsa_hw_params_set_buffer_size_near(_ pcm: OpaquePointer, _ p: OpaquePointer, _ frames: inout UInt) -> Int32 {
    snd_pcm_hw_params_set_buffer_size_near(pcm, p, &frames)
}

/// The corresponding C function is `snd_pcm_hw_params`.
func alsa_hw_params_install(_ pcm: OpaquePointer, _ p: OpaquePointer) -> Int32 { snd_pcm_hw_params(pcm, p) }

/// The corresponding C functions are `snd_pcm_hw_params_get_period_size` and `snd_pcm_hw_params_get_buffer_size`.
func alsa_hw_params_get_sizes(_ p: OpaquePointer) -> (period: UInt, buffer: UInt) {
    var period: UInt = 0
    var dir: Int32 = 0
    var buffer: UInt = 0
    _ = snd_pcm_hw_params_get_period_size(p, &period, &dir)
    _ = snd_pcm_hw_params_get_buffer_size(p, &buffer)
    return (period, buffer)
}

// MARK: - Software parameters

/// The corresponding C functions are `snd_pcm_sw_params_malloc`, `snd_pcm_sw_params_current`,
/// `snd_pcm_sw_params_set_start_threshold`, `snd_pcm_sw_params_set_avail_min`, `snd_pcm_sw_params` and
/// `snd_pcm_sw_params_free`.
func alsa_sw_params_install(_ pcm: OpaquePointer, startThreshold: UInt, availMin: UInt) -> Int32 {
    var sw: OpaquePointer?
    var rc = snd_pcm_sw_params_malloc(&sw)
    guard rc == 0, let sw else { return rc < 0 ? rc : -ENOMEM }
    defer { snd_pcm_sw_params_free(sw) }
    rc = snd_pcm_sw_params_current(pcm, sw)
    if rc < 0 { return rc }
    rc = snd_pcm_sw_params_set_start_threshold(pcm, sw, startThreshold)
    if rc < 0 { return rc }
    rc = snd_pcm_sw_params_set_avail_min(pcm, sw, availMin)
    if rc < 0 { return rc }
    return snd_pcm_sw_params(pcm, sw)
}

// MARK: - Streaming (render thread)

/// The corresponding C function is `snd_pcm_writei`. Returns frames written or `-errno`.
@inline(__always)
func alsa_pcm_writei(_ pcm: OpaquePointer, _ buffer: UnsafeRawPointer, _ frames: Int) -> Int {
    snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(frames))
}

/// The corresponding C function is `snd_pcm_delay`. Returns 0 and sets `frames`, or `-errno`.
@inline(__always)
func alsa_pcm_delay(_ pcm: OpaquePointer, _ frames: inout Int) -> Int32 {
    var d: snd_pcm_sframes_t = 0
    let rc = snd_pcm_delay(pcm, &d)
    frames = d
    return rc
}

/// The corresponding C function is `snd_pcm_recover` (silent: the caller counts xruns itself).
@inline(__always)
func alsa_pcm_recover(_ pcm: OpaquePointer, _ code: Int32) -> Int32 { snd_pcm_recover(pcm, code, 1) }

/// The corresponding C function is `snd_pcm_drain`.
@discardableResult
func alsa_pcm_drain(_ pcm: OpaquePointer) -> Int32 { snd_pcm_drain(pcm) }

/// The corresponding C function is `snd_pcm_drop`.
@discardableResult
func alsa_pcm_drop(_ pcm: OpaquePointer) -> Int32 { snd_pcm_drop(pcm) }

/// The corresponding C function is `snd_pcm_prepare`.
@discardableResult
func alsa_pcm_prepare(_ pcm: OpaquePointer) -> Int32 { snd_pcm_prepare(pcm) }

// MARK: - Device names

/// The corresponding C functions are `snd_device_name_hint`, `snd_device_name_get_hint` and
/// `snd_device_name_free_hint`. Returns `(NAME, DESC, IOID)` triples and 0, or no triples and `-errno`.
func alsa_device_name_hints(interface: String) -> ([(name: String, description: String?, ioid: String?)], Int32) {
    var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    let rc = snd_device_name_hint(-1, interface, &hints)
    guard rc == 0, let hints else { return ([], rc < 0 ? rc : -EINVAL) }
    defer { snd_device_name_free_hint(hints) }
    func take(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
        guard let c = snd_device_name_get_hint(hint, id) else { return nil }
        defer { free(c) }
        return String(cString: c)
    }
    var out: [(name: String, description: String?, ioid: String?)] = []
    var i = 0
    while let hint = hints[i] {
        if let name = take(hint, "NAME") { out.append((name, take(hint, "DESC"), take(hint, "IOID"))) }
        i += 1
    }
    return (out, 0)
}

// MARK: - Format constants

extension SampleFormat {
    /// The ALSA format for this sample format (native little-endian).
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        case .int32: SND_PCM_FORMAT_S32_LE
        case .int24: SND_PCM_FORMAT_S24_LE
        case .int24Packed: SND_PCM_FORMAT_S24_3LE
        case .int16: SND_PCM_FORMAT_S16_LE
        }
    }
}
