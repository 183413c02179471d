import CEBUR128

// All calls into libebur128 go through this file: one thin function per C function.

typealias EBUR128State = UnsafeMutablePointer<ebur128_state>

/// The libebur128 mode bits for loudness: M, S, I and LRA.
let ebur128ModeLoudness: Int32 =
    Int32(EBUR128_MODE_M.rawValue) | Int32(EBUR128_MODE_S.rawValue) | Int32(EBUR128_MODE_I.rawValue)
    | Int32(EBUR128_MODE_LRA.rawValue)

/// The libebur128 mode bit for the sample peak (a pass over every sample fed).
let ebur128ModeSamplePeak = Int32(EBUR128_MODE_SAMPLE_PEAK.rawValue)

/// The libebur128 mode bits for momentary loudness alone (no gating blocks, no short-term blocks for LRA).
let ebur128ModeMomentary = Int32(EBUR128_MODE_M.rawValue)

/// The libebur128 mode bits for momentary and short-term loudness without the gating and LRA blocks (whose sums
/// cost about 7 multiply-adds per sample: 400 ms every 100 ms, 3 s every second).
let ebur128ModeShortTerm = Int32(EBUR128_MODE_M.rawValue) | Int32(EBUR128_MODE_S.rawValue)

/// The libebur128 mode bit for true peak (oversampled; the costliest part of metering).
let ebur128ModeTruePeak = Int32(EBUR128_MODE_TRUE_PEAK.rawValue)

/// The C function is `ebur128_init`; returns nil when out of memory or the channel/rate is rejected.
@inline(__always)
func system_ebur128_init(channels: UInt32, sampleRate: UInt, mode: Int32) -> EBUR128State? {
    ebur128_init(channels, sampleRate, mode)
}

/// The C function is `ebur128_destroy`.
@inline(__always)
func system_ebur128_destroy(_ state: EBUR128State) {
    var st: EBUR128State? = state
    ebur128_destroy(&st)
}

/// The C function is `ebur128_set_channel`.
@inline(__always)
func system_ebur128_set_channel(_ state: EBUR128State, _ index: UInt32, _ value: Int32) -> Int32 {
    ebur128_set_channel(state, index, value)
}

/// The C function is `ebur128_add_frames_float` (interleaved frames).
@inline(__always)
func system_ebur128_add_frames_float(_ state: EBUR128State, _ src: UnsafePointer<Float>, _ frames: Int) -> Int32 {
    ebur128_add_frames_float(state, src, frames)
}

/// The C function is `ebur128_loudness_global`.
@inline(__always)
func system_ebur128_loudness_global(_ state: EBUR128State, _ out: inout Double) -> Int32 {
    ebur128_loudness_global(state, &out)
}

/// The C function is `ebur128_loudness_momentary`.
@inline(__always)
func system_ebur128_loudness_momentary(_ state: EBUR128State, _ out: inout Double) -> Int32 {
    ebur128_loudness_momentary(state, &out)
}

/// The C function is `ebur128_loudness_shortterm`.
@inline(__always)
func system_ebur128_loudness_shortterm(_ state: EBUR128State, _ out: inout Double) -> Int32 {
    ebur128_loudness_shortterm(state, &out)
}

/// The C function is `ebur128_loudness_window` (loudness of the last `milliseconds`).
@inline(__always)
func system_ebur128_loudness_window(_ state: EBUR128State, _ milliseconds: UInt, _ out: inout Double) -> Int32 {
    ebur128_loudness_window(state, milliseconds, &out)
}

/// The C function is `ebur128_loudness_range`.
@inline(__always)
func system_ebur128_loudness_range(_ state: EBUR128State, _ out: inout Double) -> Int32 {
    ebur128_loudness_range(state, &out)
}

/// The C function is `ebur128_sample_peak`.
@inline(__always)
func system_ebur128_sample_peak(_ state: EBUR128State, _ channel: UInt32, _ out: inout Double) -> Int32 {
    ebur128_sample_peak(state, channel, &out)
}

/// The C function is `ebur128_true_peak`.
@inline(__always)
func system_ebur128_true_peak(_ state: EBUR128State, _ channel: UInt32, _ out: inout Double) -> Int32 {
    ebur128_true_peak(state, channel, &out)
}

/// Channel roles (the C enum `channel`): the values `ebur128_set_channel` takes.
enum EBUR128Channel {
    static let unused = Int32(EBUR128_UNUSED.rawValue)
    static let left = Int32(EBUR128_LEFT.rawValue)
    static let right = Int32(EBUR128_RIGHT.rawValue)
    static let center = Int32(EBUR128_CENTER.rawValue)
    static let leftSurround = Int32(EBUR128_LEFT_SURROUND.rawValue)
    static let rightSurround = Int32(EBUR128_RIGHT_SURROUND.rawValue)
    /// A mono channel counted twice (libebur128 refuses it but as channel 0 of a one-channel state): its filtered
    /// power in each block is doubled, as two equal channels' powers add.
    static let dualMono = Int32(EBUR128_DUAL_MONO.rawValue)
}
