/// The server's first line: `{"event":"hello", "protocol":1, "server":…, "commands":[…], "events":[…], …}`.
///
/// A client checks `protocol` (``ProtocolVersion/current``) and may check `commands` and `events` for the
/// capabilities it needs; the lists only grow within one protocol version.
public struct Hello: Sendable, Equatable {
    /// The server's name and version (`enso 0.1.0`).
    public var server: String
    /// The protocol version.
    public var protocolVersion: Int
    /// The commands the server accepts.
    public var commands: [String]
    /// The event kinds it sends.
    public var events: [EventKind]
    /// The output the sound goes to (`null`, `alsa:default`, `file:PATH`).
    public var output: String
    /// The engine's sample rate; frame numbers in events count at this rate.
    public var sampleRate: Int

    public init(
        server: String, output: String, sampleRate: Int, protocolVersion: Int = ProtocolVersion.current,
        commands: [String] = ControlCommand.names, events: [EventKind] = EventKind.all
    ) {
        self.server = server
        self.output = output
        self.sampleRate = sampleRate
        self.protocolVersion = protocolVersion
        self.commands = commands
        self.events = events
    }

    /// The line's JSON object.
    public var json: JSONValue {
        .object([
            "event": "hello",
            "protocol": .number(Double(protocolVersion)),
            "server": .string(server),
            "commands": .array(commands.map { .string($0) }),
            "events": .array(events.map { .string($0.rawValue) }),
            "errors": .array(ErrorCode.all.map { .string($0.rawValue) }),
            "maxLineBytes": .number(Double(LineFramer.maxLineBytes)),
            "output": .string(output),
            "sampleRate": .number(Double(sampleRate)),
        ])
    }

    /// The line to send, newline included.
    public var line: [UInt8] { MessageEncoder.line(json) }
}
