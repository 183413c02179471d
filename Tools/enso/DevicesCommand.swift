import AudioDevice
import CLISupport

/// `enso devices`: the ALSA playback devices, as `aplay -L` lists them.
enum DevicesCommand {
    static let json = Flag("json", help: "Print a JSON array of {name, description} objects.")

    static let command = Command(
        name: "devices",
        abstract: "List the ALSA playback devices 'enso play --device' accepts.",
        discussion: """
            One device per entry: its name (what --device takes) and ALSA's description, indented.
            'default' follows the system's choice (PulseAudio or PipeWire when one runs); 'hw:' devices
            are the raw hardware, 'plughw:' the same with format and rate conversion.
            """,
        options: [json.spec],
        exitCodes: [
            ExitCodeMeaning(.success, "Listed."), ExitCodeMeaning(.failure, "ALSA could not read its configuration."),
            .usage,
        ],
        run: { args, _ in try run(args) })

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        let devices: [PlaybackDevice]
        do {
            devices = try PlaybackDevice.all()
        } catch {
            throw CommandFailure(error.message, code: error.name)
        }
        if args[json] {
            try JSONOutput.print(devices)
            return .success
        }
        for d in devices {
            Terminal.out(([d.name] + d.description.map { "    " + $0 }).joined(separator: "\n"))
        }
        return .success
    }
}
