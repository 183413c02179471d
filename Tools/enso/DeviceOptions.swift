import AudioCore
import AudioDevice
import CLISupport

/// The output options of `enso play`, `strike`, `bells --listen`, `loops --listen` and `serve`: where the sound goes
/// (one grammar, ``OutputChoice``) and how it is buffered.
enum DeviceOptions {
    /// `--output`: the one spelling of where sound goes.
    static let output = Option<String>(
        "output", valueName: "OUTPUT", completing: outputKinds,
        help: "Where sound goes: \(OutputChoice.grammar) (default alsa: the device 'default'; null is paced with no "
            + "sound; a file is raw float32 stereo, unpaced).")
    /// What shells complete `--output` to: the openings of ``OutputChoice/grammar``'s spellings (a device name or a
    /// path is then typed after `alsa:` or `file:`).
    static let outputKinds = ["alsa", "alsa:", "null", "file:"]
    /// `--device`: `--output alsa:NAME` spelt long.
    static let device = Option<String>(
        "device", valueName: "NAME", help: "ALSA device, the same as --output alsa:NAME; 'enso devices' lists them.")

    /// `--period`: the period sizes `OutputConfig` accepts (1.3 ms to a third of a second at 48 kHz).
    static let period = Option<Int>(
        "period", valueName: "FRAMES", range: 64...16_384, default: OutputConfig().periodFrames,
        help: "Frames per period, a power of two.")
    /// `--buffer`: two of the smallest periods at least, a million frames (about 22 s at 48 kHz) at most.
    static let buffer = Option<Int>(
        "buffer", valueName: "FRAMES", range: 128...1_048_576, default: OutputConfig().bufferFrames,
        help: "Frames in the device buffer, a power of two, 2...64 periods; 4 periods with --period alone.")

    static let specs: [OptionSpec] = [output.spec, device.spec, period.spec, buffer.spec]

    /// The output `--output` and `--device` name together: `--device X` is `alsa:X`, and with `--output` it must agree.
    ///
    /// - Throws: `UsageError` (exit 64) naming the option: an unknown spelling, or a `--device` that contradicts
    ///   `--output`.
    static func choice(_ args: ParsedArguments) throws -> OutputChoice {
        let device = try args.value(of: Self.device)
        if let device, device.isEmpty { throw UsageError("--device: give a device name ('enso devices' lists them)") }
        guard let text = try args.value(of: output) else { return .alsa(device: device ?? "default") }
        guard let choice = OutputChoice.parse(text) else {
            throw UsageError("--output: '\(text)' is not \(OutputChoice.grammar)", help: "--output <output>")
        }
        guard let device else { return choice }
        switch choice {
        case .alsa(let named) where text == "alsa" || named == device: return .alsa(device: device)
        case .alsa(let named):
            throw UsageError("--device: '\(device)' contradicts --output alsa:\(named); give the device once")
        case .null, .file:
            throw UsageError("--device: '\(device)' names an ALSA device, but --output is \(choice)")
        }
    }

    /// The output configuration `--period` and `--buffer` ask for, at `rate`.
    ///
    /// - Throws: `UsageError` (exit 64) for sizes that are not powers of two or do not fit each other.
    static func config(_ args: ParsedArguments, rate: SampleRate) throws -> OutputConfig {
        var config = OutputConfig()
        config.sampleRate = rate
        if let p = try args.value(of: period) { config.periodFrames = p }
        if let b = try args.value(of: buffer) { config.bufferFrames = b }
        if args.has(period) && !args.has(buffer) { config.bufferFrames = 4 * config.periodFrames }
        for (name, value) in [("period", config.periodFrames), ("buffer", config.bufferFrames)]
        where value & (value - 1) != 0 {
            throw UsageError("--\(name): \(value) is not a power of two")
        }
        guard config.bufferFrames >= 2 * config.periodFrames, config.bufferFrames <= 64 * config.periodFrames else {
            throw UsageError("--buffer: \(config.bufferFrames) frames must be 2...64 periods of \(config.periodFrames)")
        }
        return config
    }

    /// Opens the output the options ask for, at `rate` (the device may give another rate: use the output's).
    ///
    /// - Throws: `UsageError` (exit 64) for bad sizes or spellings; `CommandFailure` (exit 1) when the device
    ///   cannot be opened (the message names the device and what to try).
    static func open(_ args: ParsedArguments, rate: SampleRate) throws -> any AudioOutput {
        let choice = try choice(args)
        let config = try config(args, rate: rate)
        do {
            return try choice.open(config: config)
        } catch {
            if error.kind == .invalidInput { throw UsageError(error.message) }
            throw CommandFailure(error.message)
        }
    }

    /// Whether `output` writes to a file (unpaced: no keys, no status, a fixed length).
    static func isFile(_ output: any AudioOutput) -> Bool { output is FileOutput }
}
