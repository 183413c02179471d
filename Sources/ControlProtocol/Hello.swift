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
    public var json: JSONValue { MessageEncoder.value(self) }

    /// The line to send, newline included.
    public var line: [UInt8] { MessageEncoder.line(json) }
}

extension Hello: Codable {
    private enum CodingKeys: String, CodingKey {
        case event, protocolVersion = "protocol", server, commands, events, errors, maxLineBytes, output, sampleRate
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            server: try c.decode(String.self, forKey: .server), output: try c.decode(String.self, forKey: .output),
            sampleRate: try c.decode(Int.self, forKey: .sampleRate),
            protocolVersion: try c.decode(Int.self, forKey: .protocolVersion),
            commands: try c.decode([String].self, forKey: .commands),
            events: try c.decode([EventKind].self, forKey: .events))
    }

    /// `event` is always `hello`; `errors` and `maxLineBytes` are this build's (``ErrorCode/all``,
    /// ``LineFramer/maxLineBytes``).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("hello", forKey: .event)
        try c.encode(protocolVersion, forKey: .protocolVersion)
        try c.encode(server, forKey: .server)
        try c.encode(commands, forKey: .commands)
        try c.encode(events, forKey: .events)
        try c.encode(ErrorCode.all, forKey: .errors)
        try c.encode(LineFramer.maxLineBytes, forKey: .maxLineBytes)
        try c.encode(output, forKey: .output)
        try c.encode(sampleRate, forKey: .sampleRate)
    }
}
