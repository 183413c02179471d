import ControlProtocol
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT/SIGTERM; the server loop ends the session gracefully and exits.
private let terminationRequested = Atomic<Bool>(false)

/// The `enso serve` loop: reads request lines from every client, answers them, and sends every client the
/// events it subscribed to.
///
/// One thread does everything with `poll(2)`: accepting socket clients, reading (through each client's
/// ``LineFramer``), dispatching to the ``SessionController``, polling it for events every 20 ms and
/// writing each client's bounded queue as the client accepts bytes. Nothing it does blocks on a client,
/// so a client that stops reading, floods commands or disconnects mid-session never stalls the others or
/// the session (which plays on its output's own render thread).
///
/// - Thread safety: ``run()`` on one thread; nothing else.
public final class ControlServer {
    /// Where clients come from.
    public enum Transport: Sendable, Equatable {
        /// One client: requests on stdin, replies and events on stdout. The server ends at EOF.
        case stdio
        /// Any number of clients on a Unix socket at `path`.
        case socket(path: String)
    }

    public let transport: Transport
    public let controller: SessionController
    public let hello: Hello
    private var listener: SocketListener?
    private var clients: [ClientConnection] = []
    private var nextClientID = 1
    private var shuttingDown = false
    private let log: (String) -> Void

    /// A server for `transport`; `log` receives lines for stderr (never part of the protocol).
    ///
    /// - Throws: `PlaybackServiceError` when the socket cannot be set up (see ``SocketListener``).
    public init(
        transport: Transport, controller: SessionController, hello: Hello, log: @escaping (String) -> Void
    ) throws(PlaybackServiceError) {
        self.transport = transport
        self.controller = controller
        self.hello = hello
        self.log = log
        switch transport {
        case .stdio:
            addClient(readFD: STDIN_FILENO, writeFD: STDOUT_FILENO, isSocket: false)
        case .socket(let path):
            listener = try SocketListener(path: path)
        }
    }

    /// The resolved socket path (for `--socket` without a path).
    public static func defaultSocketPath() -> String { SocketListener.defaultPath() }

    /// Serves until `shutdown`, a signal, or (stdio) the end of input; then ends any session as `stopped`,
    /// flushes what clients can take, and removes the socket.
    public func run() {
        signal(SIGPIPE, SIG_IGN)
        // A parent may have spawned us with these blocked (Foundation's Process passes its mask on).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        terminationRequested.store(false, ordering: .relaxed)
        signal(SIGINT) { _ in terminationRequested.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in terminationRequested.store(true, ordering: .relaxed) }
        while !shuttingDown {
            if terminationRequested.load(ordering: .relaxed) {
                log("signal received; stopping")
                shuttingDown = true
                break
            }
            step(timeoutMs: 20)
        }
        broadcast(controller.shutdown())
        for w in controller.takeWarnings() { log("warning: \(w)") }
        let deadline = Date().addingTimeInterval(1)
        while clients.contains(where: { $0.hasPendingOutput && $0.closeReason == nil }) && Date() < deadline {
            step(timeoutMs: 20, acceptInput: false)
        }
        for c in clients { closeClient(c) }
        clients.removeAll()
        listener?.close()
        listener = nil
    }

    // MARK: - The loop

    private func step(timeoutMs: Int32, acceptInput: Bool = true) {
        var fds: [pollfd] = []
        var owners: [(client: ClientConnection?, isWrite: Bool)] = []
        if let listener, acceptInput {
            fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
            owners.append((nil, false))
        }
        for c in clients where c.closeReason == nil {
            if acceptInput && !c.inputEnded {
                fds.append(pollfd(fd: c.readFD, events: Int16(POLLIN), revents: 0))
                owners.append((c, false))
            }
            if c.hasPendingOutput {
                fds.append(pollfd(fd: c.writeFD, events: Int16(POLLOUT), revents: 0))
                owners.append((c, true))
            }
        }
        _ = poll(&fds, nfds_t(fds.count), timeoutMs)
        for (i, p) in fds.enumerated() where p.revents != 0 {
            let owner = owners[i]
            guard let c = owner.client else {
                acceptClients()
                continue
            }
            if owner.isWrite {
                c.flush()
            } else {
                for frame in c.readFrames() { handle(frame, from: c) }
                if c.inputEnded && !c.isSocket {
                    log("end of input; stopping")
                    shuttingDown = true
                }
            }
        }
        broadcast(controller.poll())
        for w in controller.takeWarnings() { log("warning: \(w)") }
        reapClients()
    }

    private func acceptClients() {
        while let fd = listener?.accept() {
            addClient(readFD: fd, writeFD: fd, isSocket: true)
        }
    }

    private func addClient(readFD: Int32, writeFD: Int32, isSocket: Bool) {
        let c = ClientConnection(id: nextClientID, readFD: readFD, writeFD: writeFD, isSocket: isSocket)
        nextClientID += 1
        clients.append(c)
        c.enqueue(hello.line)
        c.flush()
    }

    private func reapClients() {
        for c in clients where c.closeReason != nil || (c.isSocket && c.inputEnded && !c.hasPendingOutput) {
            if let reason = c.closeReason { log("client \(c.id): \(reason)") }
            closeClient(c)
        }
        clients.removeAll { $0.closeReason != nil || ($0.isSocket && $0.inputEnded && !$0.hasPendingOutput) }
    }

    private func closeClient(_ c: ClientConnection) {
        if c.isSocket { close(c.readFD) }
    }

    // MARK: - Requests

    private func handle(_ frame: LineFramer.Frame, from client: ClientConnection) {
        let reply = RequestDispatcher.reply(to: frame) { command in
            switch command {
            case .subscribe(let kinds):
                client.subscriptions.formUnion(kinds ?? EventKind.all)
                return .success(Self.subscriptionJSON(client))
            case .unsubscribe(let kinds):
                client.subscriptions.subtract(kinds ?? EventKind.all)
                return .success(Self.subscriptionJSON(client))
            case .shutdown:
                shuttingDown = true
                return .success(["stopping": .bool(controller.isActive)])
            default:
                return controller.handle(command)
            }
        }
        client.enqueue(reply.line)
        client.flush()
    }

    private static func subscriptionJSON(_ c: ClientConnection) -> JSONValue {
        ["events": .array(EventKind.all.filter { c.subscriptions.contains($0) }.map { .string($0.rawValue) })]
    }

    private func broadcast(_ events: [ProtocolEvent]) {
        for e in events {
            let line = e.line
            for c in clients where c.closeReason == nil && c.subscriptions.contains(e.kind) {
                c.enqueue(line)
            }
        }
        if !events.isEmpty { for c in clients { c.flush() } }
    }
}
