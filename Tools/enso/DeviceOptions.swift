import AudioCore
import AudioDevice
import CLISupport

/// The output options shared by `enso play` and `enso strike`: where the sound goes and how it is buffered.
enum DeviceOptions {
    static let specs: [OptionSpec] = [
        .value("output", valueName: "KIND", help: "alsa (default), null (paced, no sound: machines without a device) or file:PATH (raw float32 stereo, unpaced)."),
        .value("device", valueName: "NAME", help: "ALSA device (default 'default'); 'enso devices' lists them."),
        .value("period", valueName: "FRAMES", help: "Frames per period, a power of two, 64...16384 (default 2048)."),
        .value("buffer", valueName: "FRAMES", help: "Frames in the device buffer, a power of two, 2...64 periods (default 8192)."),
    ]

    /// Opens the output the options ask for, at `rate` (the device may give another rate: use the output's).
    ///
    /// - Throws: `UsageError` (exit 64) for bad sizes or kinds; `CommandFailure` (exit 1) when the device
    ///   cannot be opened (the message names the device and what to try).
    static func open(_ args: ParsedArguments, rate: SampleRate) throws -> any AudioOutput {
        var config = OutputConfig()
        config.sampleRate = rate
        if let device = args.value("device") { config.device = device }
        if let p = try args.int("period", in: 64...16_384) { config.periodFrames = p }
        if let b = try args.int("buffer", in: 128...1_048_576) { config.bufferFrames = b }
        if args.value("period") != nil && args.value("buffer") == nil { config.bufferFrames = 4 * config.periodFrames }
        for (name, value) in [("period", config.periodFrames), ("buffer", config.bufferFrames)] where value & (value - 1) != 0 {
            throw UsageError("--\(name): \(value) is not a power of two")
        }
        guard config.bufferFrames >= 2 * config.periodFrames, config.bufferFrames <= 64 * config.periodFrames else {
            throw UsageError("--buffer: \(config.bufferFrames) frames must be 2...64 periods of \(config.periodFrames)")
        }
        let kind = args.value("output") ?? "alsa"
        do {
            switch kind {
            case "alsa": return try ALSAOutput(config: config)
            case "null": return try NullOutput(config: config)
            default:
                guard kind.hasPrefix("file:"), kind.count > 5 else {
                    throw UsageError("--output: '\(kind)' is not alsa, null or file:PATH")
                }
                return try FileOutput(path: String(kind.dropFirst(5)), sampleFormat: .float32, config: config)
            }
        } catch let e as EnsoError {
            if e.kind == .invalidInput { throw UsageError(e.message) }
            throw CommandFailure(e.message)
        }
    }

    /// Whether `output` writes to a file (unpaced: no keys, no status, a fixed length).
    static func isFile(_ output: any AudioOutput) -> Bool { output is FileOutput }
}
