import AudioCore
import AudioDevice

/// Where a served session's sound goes: `alsa[:DEVICE]`, `null` (paced in real time) or `file:PATH`.
public enum OutputChoice: Sendable, Equatable, CustomStringConvertible {
    case alsa(device: String)
    case null
    case file(path: String)

    /// Whether the output runs unpaced (a file written as fast as the session renders): its time is the frame
    /// count, not the wall clock.
    public var isUnpaced: Bool {
        if case .file = self { return true }
        return false
    }

    /// Parses the `--output` spelling.
    ///
    /// - Returns: `nil` for anything else.
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

    /// Opens the output at `rate` (the device may negotiate another; read its `format`).
    ///
    /// The null and file outputs run without real-time priority or locked memory: they need neither.
    ///
    /// - Throws: `EnsoError` naming the device when it cannot be opened.
    public func open(rate: SampleRate) throws(EnsoError) -> any AudioOutput {
        switch self {
        case .alsa(let device):
            var config = OutputConfig(device: device)
            config.sampleRate = rate
            return try ALSAOutput(config: config)
        case .null:
            var config = OutputConfig()
            config.sampleRate = rate
            config.realtimePriority = nil
            config.lockMemory = false
            return try NullOutput(config: config)
        case .file(let path):
            var config = OutputConfig()
            config.sampleRate = rate
            config.realtimePriority = nil
            config.lockMemory = false
            return try FileOutput(path: path, config: config)
        }
    }
}
