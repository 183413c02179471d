import AudioCore

/// Where a live session's sound goes: `alsa[:DEVICE]`, `null` (paced in real time, no sound) or `file:PATH` (raw
/// interleaved samples, unpaced).
///
/// The one grammar of `--output` for `enso play`, `strike`, `bells --listen`, `loops --listen` and `serve`
/// (``grammar``); `--device NAME` is `alsa:NAME` spelt long.
///
/// - Thread safety: value type, any thread.
public enum OutputChoice: Sendable, Equatable, CustomStringConvertible {
    case alsa(device: String)
    case null
    case file(path: String)

    /// The spellings ``parse(_:)`` accepts, for help and error messages.
    public static let grammar = "alsa[:DEVICE], null or file:PATH"

    /// Whether the output runs unpaced (a file written as fast as the session renders): its time is the frame
    /// count, not the wall clock.
    public var isUnpaced: Bool {
        if case .file = self { return true }
        return false
    }

    /// Parses an `--output` spelling: `alsa` (the device `default`), `alsa:DEVICE`, `null` or `file:PATH`.
    ///
    /// - Returns: `nil` for anything else (an empty device or path included).
    public static func parse(_ text: String) -> OutputChoice? {
        if text == "null" { return .null }
        if text == "alsa" { return .alsa(device: "default") }
        if text.hasPrefix("alsa:"), text.count > 5 { return .alsa(device: String(text.dropFirst(5))) }
        if text.hasPrefix("file:"), text.count > 5 { return .file(path: String(text.dropFirst(5))) }
        return nil
    }

    public var description: String {
        switch self {
        case .alsa(let device): "alsa:\(device)"
        case .null: "null"
        case .file(let path): "file:\(path)"
        }
    }

    /// Opens the output with `config`'s rate and sizes (the device may negotiate another rate; read its `format`).
    ///
    /// `config.device` is replaced by the choice's device. The null and file outputs run without real-time priority
    /// or locked memory: they need neither. A file is written as float32.
    ///
    /// - Throws: `EnsoError` naming the device or file when it cannot be opened.
    public func open(config: OutputConfig = OutputConfig()) throws(EnsoError) -> any AudioOutput {
        var config = config
        switch self {
        case .alsa(let device):
            config.device = device
            return try ALSAOutput(config: config)
        case .null:
            config.realtimePriority = nil
            config.lockMemory = false
            return try NullOutput(config: config)
        case .file(let path):
            config.realtimePriority = nil
            config.lockMemory = false
            return try FileOutput(path: path, sampleFormat: .float32, config: config)
        }
    }

    /// Opens the output at `rate` with the default sizes.
    public func open(rate: SampleRate) throws(EnsoError) -> any AudioOutput {
        var config = OutputConfig()
        config.sampleRate = rate
        return try open(config: config)
    }
}
