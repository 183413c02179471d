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
            """,
        arguments: [ArgumentSpec("path", help: "The socket path for --socket.", optional: true)],
        options: [
            stdio.spec, socket.spec,
            DeviceOptions.output.spec, DeviceOptions.device.spec,
            SessionsCommand.journalOption,
            assets.spec, rate.spec, checkpointInterval.spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Served and shut down."),
            ExitCodeMeaning(
                .failure,
                "The socket could not be set up (another server is listening, no permission, a folder that is a link or open to others)."
            ),
            JournalOptions.missingFolder, .usage,
        ],
        run: { args, _ in try run(args) })

    static let stdio = Flag("stdio", help: "Talk to one front end on stdin/stdout.")
    static let socket = Flag("socket", help: "Listen on a Unix socket (at <path>, or the default).")
    static let assets = Option<String>(
        "assets", valueName: "DIR", help: "The asset pack folder (default $ENSO_ASSETS or the bundled pack).")
    static let rate = Option<Int>(
        "rate", valueName: "HZ", range: 8000...192_000, default: 48_000, help: "The rate to ask the output for.")
    static let checkpointInterval = Option<Double>(
        "checkpoint-interval", valueName: "SECONDS", range: 0.1...60, default: 5,
        help: "Seconds between journal checkpoints of a session in progress.")

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        guard args[stdio] != args[socket] else {
            throw UsageError("give exactly one of --stdio and --socket")
        }
        if args[stdio] && !args.positionals.isEmpty { throw UsageError("a path is only taken with --socket") }
        guard args.positionals.count <= 1 else { throw UsageError("give at most one socket path") }
        let output = try DeviceOptions.choice(args)
        let rate = SampleRate(try args.valueOrDefault(of: Self.rate))!
        let interval = try args.valueOrDefault(of: checkpointInterval)
        let journal = try JournalOptions.named(args)
        JournalOptions.recover(journal)
        let library = AssetLibrary(directory: try args.value(of: assets))
        // The server runs without a pack (sounds named by path still play), but says so where its operator looks.
        if let problem = library.packProblem {
            Terminal.err("Warning: \(problem): a sound named by id is refused; one named by its file still plays")
        }
        let controller = SessionController(
            output: output, journal: journal, assets: library, checkpointInterval: interval, preferredRate: rate)
        let transport: ControlServer.Transport =
            args[stdio] ? .stdio : .socket(path: args.positionals.first ?? ControlServer.defaultSocketPath())
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
