import AudioCore
import AudioDevice
import CLISupport
import ControlProtocol
import Foundation
import PlaybackService

/// `enso serve --stdio | --socket [PATH]`: the JSON-lines control server for front ends (docs/protocol.md).
enum ServeCommand {
    static let command = Command(
        name: "serve",
        abstract: "Serve the JSON-lines control protocol to front ends over stdio or a Unix socket.",
        discussion: """
            Protocol: docs/protocol.md. With --stdio one front end talks on stdin/stdout and the server ends
            at end of input; with --socket (default $XDG_RUNTIME_DIR/enso/control.sock, folder 0700, socket
            0600) up to 64 clients connect. The socket folder is never a symbolic link planted by someone
            else nor writable by other users (a --socket folder may be sticky, like /tmp); the journal's
            folder must not be writable by others either. Lines are at most 64 KiB and 32 levels deep.
            Logs go to stderr, never into the protocol. A session left by a server that died is recovered
            into the journal as 'interrupted' at start. Limits: docs/protocol.md, "Security and limits".
            Exit codes: 0 served and shut down, 1 the socket could not be set up (another server is
            listening, no permission, a folder that is a link or open to others), 64 bad usage.
            """,
        arguments: [ArgumentSpec("path", help: "The socket path for --socket.", optional: true)],
        options: [
            .flag("stdio", help: "Talk to one front end on stdin/stdout."),
            .flag("socket", help: "Listen on a Unix socket (at <path>, or the default)."),
            DeviceOptions.output.spec, DeviceOptions.device.spec,
            SessionsCommand.journalOption,
            .value(
                "assets", valueName: "DIR", help: "The asset pack folder (default $ENSO_ASSETS or the bundled pack)."),
            .value("rate", valueName: "HZ", help: "The rate to ask the output for (8000...192000, default 48000)."),
            .value(
                "checkpoint-interval", valueName: "SECONDS",
                help: "Seconds between journal checkpoints of a session in progress (0.1...60, default 5)."),
        ],
        run: { args, _ in try run(args) })

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        guard args.flag("stdio") != args.flag("socket") else {
            throw UsageError("give exactly one of --stdio and --socket")
        }
        if args.flag("stdio") && !args.positionals.isEmpty { throw UsageError("a path is only taken with --socket") }
        guard args.positionals.count <= 1 else { throw UsageError("give at most one socket path") }
        let output = try DeviceOptions.choice(args)
        let rate = SampleRate(try args.int("rate", in: 8000...192_000) ?? 48_000)!
        let interval = try args.double("checkpoint-interval", in: 0.1...60) ?? 5
        let journal = SessionJournal(path: args.value("journal") ?? SessionJournal.defaultPath())
        JournalOptions.recover(journal)
        let controller = SessionController(
            output: output, journal: journal, assets: AssetLibrary(directory: args.value("assets")),
            checkpointInterval: interval, preferredRate: rate)
        let transport: ControlServer.Transport =
            args.flag("stdio") ? .stdio : .socket(path: args.positionals.first ?? ControlServer.defaultSocketPath())
        let hello = Hello(server: ensoVersion, output: output.description, sampleRate: rate.hertz)
        let server = try makeServer(transport: transport, controller: controller, hello: hello)
        if case .socket(let path) = transport { Terminal.err("listening on \(path)") }
        server.run()
        return .success
    }

    static func makeServer(
        transport: ControlServer.Transport, controller: SessionController, hello: Hello
    ) throws(CommandFailure) -> ControlServer {
        let made = Result(catching: { () throws(EnsoError) in
            try ControlServer(transport: transport, controller: controller, hello: hello) { Terminal.err($0) }
        })
        switch made {
        case .success(let server): return server
        case .failure(let e): throw CommandFailure(e.message)
        }
    }
}
