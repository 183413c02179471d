import AudioCore
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

/// An open, configured ALSA playback PCM: the handle, the negotiated format and the calls the render loop makes.
///
/// Opening negotiates the stream (``StreamFormat``): interleaved access, the first format from the
/// config the device accepts, the nearest channel count and rate (ALSA's own resampler is turned off:
/// Enso resamples its assets once at load), the period and buffer sizes, and a start threshold of one
/// period. `deinit` closes the handle.
///
/// - Thread safety: see ``PCMSink``.
final class ALSAPCM: PCMSink, @unchecked Sendable {
    let deviceName: String
    let format: StreamFormat
    private let handle: OpaquePointer

    /// Opens and configures `config.device`.
    ///
    /// - Throws: ``EnsoError``: `unavailable` (no such device), `busy` (another program holds it),
    ///   `permission`, `unsupported` (no acceptable format, rate, channel count or sizes), `invalidInput`
    ///   (a config field out of range).
    init(config: OutputConfig) throws(EnsoError) {
        try config.validate()
        deviceName = config.device
        let (opened, rc, detail) = alsa_pcm_open(config.device, nonBlocking: true)
        guard rc == 0, let pcm = opened else { throw Self.openError(config.device, rc, detail: detail) }
        // Opened non-blocking so a busy device fails at once instead of hanging; stream blocking.
        _ = alsa_pcm_nonblock(pcm, false)
        do {
            format = try Self.configure(pcm, config)
        } catch {
            alsa_pcm_close(pcm)
            throw error
        }
        handle = pcm
    }

    deinit { alsa_pcm_close(handle) }

    // MARK: - PCMSink

    @inline(__always)
    func write(_ data: UnsafeRawPointer, frames: Int) -> Int { alsa_pcm_writei(handle, data, frames) }

    @inline(__always)
    func delay(_ frames: inout Int) -> Int32 { alsa_pcm_delay(handle, &frames) }

    @inline(__always)
    func recover(_ code: Int32) -> Int32 { alsa_pcm_recover(handle, code) }

    func prepare() -> Int32 { alsa_pcm_prepare(handle) }

    func drain() { alsa_pcm_drain(handle) }

    func drop() { alsa_pcm_drop(handle) }

    // MARK: - Negotiation

    private static func configure(_ pcm: OpaquePointer, _ config: OutputConfig) throws(EnsoError) -> StreamFormat {
        let name = config.device
        guard let hw = alsa_hw_params_malloc() else { throw EnsoError(.failure, "out of memory opening '\(name)'") }
        defer { alsa_hw_params_free(hw) }
        func check(_ rc: Int32, _ what: String) throws(EnsoError) {
            if rc < 0 {
                throw EnsoError(
                    .unsupported, "device '\(name)': cannot set \(what): \(alsa_strerror(rc))", code: rc)
            }
        }
        try check(alsa_hw_params_any(pcm, hw), "any configuration")
        try check(alsa_hw_params_set_access_interleaved(pcm, hw), "interleaved access")
        guard let sampleFormat = config.formats.first(where: { alsa_hw_params_test_format(pcm, hw, $0) == 0 }) else {
            throw EnsoError(
                .unsupported,
                "device '\(name)' accepts none of the sample formats \(config.formats.map(\.rawValue).joined(separator: ", ")); try 'plughw:' or 'default', which convert"
            )
        }
        try check(alsa_hw_params_set_format(pcm, hw, sampleFormat), "format \(sampleFormat)")
        var channels = UInt32(config.channels.count)
        try check(alsa_hw_params_set_channels_near(pcm, hw, &channels), "\(config.channels) output")
        _ = alsa_hw_params_set_rate_resample(pcm, hw, false)
        var rate = UInt32(config.sampleRate.hertz)
        try check(alsa_hw_params_set_rate_near(pcm, hw, &rate), "rate \(config.sampleRate.hertz) Hz")
        var period = UInt(config.periodFrames)
        try check(alsa_hw_params_set_period_size_near(pcm, hw, &period), "period \(config.periodFrames) frames")
        var buffer = UInt(config.bufferFrames)
        try check(alsa_hw_params_set_buffer_size_near(pcm, hw, &buffer), "buffer \(config.bufferFrames) frames")
        try check(alsa_hw_params_install(pcm, hw), "the hardware parameters")
        let sizes = alsa_hw_params_get_sizes(hw)
        guard let gotRate = SampleRate(Int(rate)), let gotChannels = ChannelCount(Int(channels)),
            sizes.period > 0, sizes.buffer >= sizes.period
        else {
            throw EnsoError(
                .unsupported,
                "device '\(name)' offered an unusable stream (\(rate) Hz, \(channels) channels, period \(sizes.period), buffer \(sizes.buffer))"
            )
        }
        try check(
            alsa_sw_params_install(pcm, startThreshold: sizes.period, availMin: sizes.period),
            "the start threshold")
        return StreamFormat(
            sampleRate: gotRate, channels: gotChannels, sampleFormat: sampleFormat, periodFrames: Int(sizes.period),
            bufferFrames: Int(sizes.buffer))
    }

    /// The error for a failed `snd_pcm_open`, with what to try; `detail` is alsa-lib's own diagnostic, if any.
    static func openError(_ name: String, _ rc: Int32, detail: String = "") -> EnsoError {
        let trimmed = String(detail.split(whereSeparator: \.isNewline).first ?? "")
        let reason = alsa_strerror(rc) + (trimmed.isEmpty ? "" : " (alsa-lib: \(trimmed))")
        // Any other reason (no such PCM, no such card) means there is no device to open under that name.
        switch ErrorKind(errno: -rc) {
        case .busy:
            return EnsoError(
                .busy,
                "device '\(name)' is busy (\(reason)): close the program using it, or pick another with --device (see 'enso devices')",
                code: rc)
        case .permission:
            return EnsoError(
                .permission, "no permission to open device '\(name)' (\(reason)): add the user to the 'audio' group",
                code: rc)
        default:
            return EnsoError(
                .unavailable, "cannot open device '\(name)': \(reason); see 'enso devices' for the devices there are",
                code: rc)
        }
    }
}
