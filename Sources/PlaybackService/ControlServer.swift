import AudioCore
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
/// ``LineFramer``), answering through each client's `RequestDispatcher` (which calls the ``SessionController``),
/// polling it for events every 20 ms and
/// writing each client's bounded queue as the client accepts bytes. Nothing it does blocks on a client,
/// so a client that stops reading, floods commands or disconnects mid-session never stalls the others or
/// the session (which plays on its output's own render thread). Nor does it decode: a request that must load a
/// bell or theme waits for a worker thread to load it while the loop serves everyone else (``RequestScheduler``).
///
/// - Thread safety: ``run()`` on one thread; nothing else.
public final class ControlServer {
    /// Where clients come from.
    public enum Transport: Sendable, Equatable {
        /// One client: requests on stdin, replies and events on stdout. The server ends at the end of its input, or
        /// when its output breaks (the reader of the pipe has gone).
        case stdio
        /// Any number of clients on a Unix socket at `path`.
        case socket(path: String)
    }

    public let transport: Transport
    public let controller: SessionController
    public let hello: Hello
    private var listener: SocketListener?
    private var clients: [ClientConnection] = []
    /// When each request runs, and the worker that loads assets.
    private let scheduler: RequestScheduler
    private var nextClientID = 1
    private var shuttingDown = false
    private var lastPoll = ContinuousClock.now
    /// The listener is not polled before this instant after `accept` failed (out of descriptors), so the loop
    /// backs off instead of spinning on a connection it cannot take.
    private var acceptPausedUntil = ContinuousClock.now
    /// A descriptor held in reserve (`/dev/null`): given up for a moment at the descriptor limit to accept the
    /// waiting client and tell it why it is refused.
    private var reserveFD: Int32 = -1
    private var acceptFailing = false
    /// The log lines for refused clients, one a second at most.
    private var refusals = RefusalLog()

    /// The most socket clients at once: 64, fewer when the descriptor limit would not leave
    /// ``reservedDescriptors`` for the journal, the output and asset files.
    public static let maxClients = 64
    /// Descriptors kept free of clients under the process's limit (`RLIMIT_NOFILE`).
    public static let reservedDescriptors = 32
    private let log: (String) -> Void

    /// A server for `transport`; `log` receives lines for stderr (never part of the protocol).
    ///
    /// - Throws: `EnsoError` when the socket cannot be set up (see ``SocketListener``), or the asset-loading worker's
    ///   pipe cannot be made.
    public init(
        transport: Transport, controller: SessionController, hello: Hello, log: @escaping (String) -> Void
    ) throws(EnsoError) {
        self.transport = transport
        self.controller = controller
        self.hello = hello
        self.log = log
        scheduler = try RequestScheduler(controller: controller)
        switch transport {
        case .stdio:
            addClient(readFD: STDIN_FILENO, writeFD: STDOUT_FILENO, isSocket: false)
        case .socket(let path):
            listener = try SocketListener(path: path)
            reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
    }

    /// The client cap under the current descriptor limit.
    static func clientCap() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return maxClients
        }
        return max(1, min(maxClients, Int(clamping: limit.rlim_cur) - reservedDescriptors))
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
        while !shuttingDown && !controller.shutdownRequested {
            if terminationRequested.load(ordering: .relaxed) {
                log("signal received; stopping")
                shuttingDown = true
                break
            }
            step(timeoutMs: 20)
        }
        scheduler.abandon(clients)
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
        if reserveFD >= 0 { close(reserveFD) }
        reserveFD = -1
    }

    // MARK: - The loop

    private func step(timeoutMs: Int32, acceptInput: Bool = true) {
        var fds: [pollfd] = []
        var owners: [(client: ClientConnection?, isWrite: Bool)] = []
        if let listener, acceptInput, ContinuousClock.now >= acceptPausedUntil {
            fds.append(pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0))
            owners.append((nil, false))
        }
        // A finished load: the owner with neither client nor write.
        fds.append(pollfd(fd: scheduler.worker.wakeFD, events: Int16(POLLIN), revents: 0))
        owners.append((nil, true))
        for c in clients where c.closeReason == nil {
            if acceptInput && !c.inputEnded {
                fds.append(pollfd(fd: c.readFD, events: Int16(POLLIN), revents: 0))
                owners.append((c, false))
            } else if c.isSocket && c.hasWork {
                // Its input has ended and requests of it wait: a hang-up says it has gone altogether.
                fds.append(pollfd(fd: c.readFD, events: 0, revents: 0))
                owners.append((c, false))
            }
            if c.hasPendingOutput {
                fds.append(pollfd(fd: c.writeFD, events: Int16(POLLOUT), revents: 0))
                owners.append((c, true))
            } else if !c.isSocket {
                // Asked for nothing, stdout still reports an error or hang-up: a pipe whose reader has gone.
                fds.append(pollfd(fd: c.writeFD, events: 0, revents: 0))
                owners.append((c, true))
            }
        }
        _ = poll(&fds, nfds_t(fds.count), timeoutMs)
        for (i, p) in fds.enumerated() where p.revents != 0 {
            let owner = owners[i]
            guard let c = owner.client else {
                if owner.isWrite { scheduler.collectFinished(clients, between: keepSchedule) } else { acceptClients() }
                continue
            }
            if owner.isWrite {
                c.flush()
                if !c.isSocket && c.closeReason == nil && !c.hasPendingOutput
                    && p.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
                {
                    c.closeReason = "output closed"
                }
            } else {
                if !c.inputEnded {
                    for frame in c.readFrames() { scheduler.receive(frame, from: c) }
                }
                // A socket whose peer has closed both ways (not only its writing side) hangs up: the client has gone
                // and nobody will read what its requests would answer (its last lines were read above).
                if c.isSocket && c.inputEnded && p.revents & Int16(POLLHUP | POLLERR) != 0 {
                    c.closeReason = "disconnected"
                    scheduler.drop(c, from: clients, between: keepSchedule)
                }
                scheduler.runReady(clients, between: keepSchedule)
            }
        }
        // Every request of a stdio client has been answered before its end of input ends the server.
        if let c = clients.first(where: { !$0.isSocket }), c.inputEnded && !c.hasWork && !shuttingDown {
            log("end of input; stopping")
            shuttingDown = true
        }
        pollController()
        scheduler.collectOutputFreed(clients, between: keepSchedule)
        reapClients()
        if let line = refusals.due(at: .now) { log(line) }
    }

    /// However much a client sends in one read, the session's checkpoints and events keep their schedule.
    private func keepSchedule() {
        if lastPoll.duration(to: .now) > .milliseconds(20) { pollController() }
    }

    private func pollController() {
        lastPoll = .now
        broadcast(controller.poll())
        for w in controller.takeWarnings() { log("warning: \(w)") }
    }

    private func acceptClients() {
        guard let listener else { return }
        let cap = Self.clientCap()
        while true {
            switch listener.accept() {
            case .none: return
            case .client(let fd):
                acceptFailing = false
                if clients.count(where: { $0.isSocket }) >= cap {
                    refuse(fd, "too many clients (\(cap) connected); try again when one disconnects")
                } else {
                    addClient(readFD: fd, writeFD: fd, isSocket: true)
                }
            case .failed(let e):
                if (e == EMFILE || e == ENFILE) && reserveFD >= 0 {
                    // Give up the reserve to take the waiting client, tell it why, and take the reserve back.
                    close(reserveFD)
                    if case .client(let fd) = listener.accept() {
                        refuse(fd, "the server is out of file descriptors; try again later")
                    }
                    reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
                }
                if !acceptFailing {
                    log("cannot accept clients: \(String(cString: strerror(e))); retrying every 100 ms")
                }
                acceptFailing = true
                acceptPausedUntil = .now + .milliseconds(100)
                return
            }
        }
    }

    /// Sends a client that cannot be served one error line (if its socket takes it now) and closes it.
    private func refuse(_ fd: Int32, _ why: String) {
        let line = Reply.failure(nil, ProtocolError(.busy, why)).line
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(fd)
        if let line = refusals.refused(why, at: .now) { log(line) }
    }

    private func addClient(readFD: Int32, writeFD: Int32, isSocket: Bool) {
        let c = ClientConnection(
            id: nextClientID, readFD: readFD, writeFD: writeFD, isSocket: isSocket,
            dispatcher: RequestDispatcher(service: controller))
        nextClientID += 1
        clients.append(c)
        c.enqueue(hello.line)
        c.flush()
    }

    private func reapClients() {
        // A client whose input ended stays until its requests are answered.
        func gone(_ c: ClientConnection) -> Bool {
            c.closeReason != nil || (c.isSocket && c.inputEnded && !c.hasPendingOutput && !c.hasWork)
        }
        for c in clients where gone(c) {
            if let reason = c.closeReason { log("client \(c.id): \(reason)") }
            if c.hasWork { scheduler.drop(c, from: clients, between: keepSchedule) }
            // A stdio front end whose output broke is gone, whether or not its input has ended: nobody could stop a
            // session it leaves playing.
            if !c.isSocket && !shuttingDown {
                log("the front end's output is gone; stopping")
                shuttingDown = true
            }
            closeClient(c)
        }
        clients.removeAll(where: gone)
    }

    private func closeClient(_ c: ClientConnection) {
        if c.isSocket { close(c.readFD) }
    }

    // MARK: - Events

    private func broadcast(_ events: [ProtocolEvent]) {
        for e in events {
            let line = e.line
            for c in clients where c.closeReason == nil {
                // A `state.changed` is narrowed to what each client observes; the rest go out as they are.
                guard let mine = c.dispatcher.delivery(of: e) else { continue }
                if case .stateChanged = mine { c.enqueue(mine.line) } else { c.enqueue(line) }
            }
        }
        if !events.isEmpty { for c in clients { c.flush() } }
    }
}
