import AudioCore
import ControlProtocol

/// When each request runs: at once, unless it must load an asset first, which a worker does while every other
/// client is served.
///
/// The rules (docs/protocol.md, "Loading"):
/// - A request that would load (a `start`, `set`, `strike` or `preview` whose asset is not cached, a `plan` whose
///   bell is not, the first `assets`) is *parked*: its loads run on the ``LoadingWorker`` and the request runs on the control
///   thread once they are done, finding them ready. Its reply comes then.
/// - A client's requests run in the order it sent them: the ones after a parked request wait behind it.
/// - While a `start` loads, the session commands of other clients (`start`, `pause`, `resume`, `stop`, `set`,
///   `strike`, `preview`, `shutdown`) wait for it, in the order they came, as if the start had run when it was received: a
///   second `start` then gets `busy`, a `stop` stops the session that started. Queries (`status`, `assets`, `plan`,
///   `devices`, `sessions.*`, `subscribe`) are answered meanwhile.
/// - Across clients, a `set`, `strike` or `plan` that loads acts when its asset is ready; other clients' commands
///   act at once meanwhile.
/// - A `start` or `preview` while a preview plays waits, parked the same way, for that preview to fade out and be
///   heard through (an output buffer): the output is taken by one at a time, and nobody waits for the fade.
/// - The worker takes the clients' loads in turn (``LoadingWorker``): one client's loads hold another's up for at
///   most the load running. A client that goes before its reply withdraws its requests: those not run yet are not
///   run, and their loads not started are dropped (``drop(_:from:between:)``).
///
/// - Thread safety: the server's loop thread only.
final class RequestScheduler {
    /// A request received and not run yet.
    struct Held {
        /// The order the server received it in, across clients.
        var sequence: Int
        var frame: LineFramer.Frame
        /// Its id and command; `nil` when it is not a valid request (the dispatcher answers the error).
        var decoded: (id: JSONValue?, command: ControlCommand)?
    }

    /// A request waiting for its loads.
    struct Parked {
        var id: JSONValue?
        var command: ControlCommand
        /// The worker's tickets not finished yet, and the asset each loads (summaries store themselves).
        var waitingOn: [Int: AssetSource?]
        var outcomes: [AssetSource: AssetLibrary.Outcome] = [:]
    }

    let controller: SessionController
    let worker: LoadingWorker
    private var nextSequence = 0
    private var nextTicket = 0
    /// The client whose `start` is loading: other clients' session commands wait for it.
    private(set) var startingClient: ClientConnection?
    /// Parked requests' clients by the tickets they wait on (a client that has gone is taken out: ``drop(_:)``).
    private var waiting: [Int: ClientConnection] = [:]
    /// Clients whose `start` or `preview` waits for the playing preview to fade out, oldest first.
    private var awaitingOutput: [ClientConnection] = []
    /// The rate the last session's output gave: a start preloads at it (the output may negotiate another rate than
    /// the one asked for).
    private var lastStartRate: SampleRate?

    /// - Throws: `EnsoError` when the worker's wake-up pipe cannot be made.
    init(controller: SessionController) throws(EnsoError) {
        self.controller = controller
        worker = try LoadingWorker()
    }

    /// Takes `frame` from `client`, to be run by ``runReady(_:between:)``.
    func receive(_ frame: LineFramer.Frame, from client: ClientConnection) {
        var decoded: (JSONValue?, ControlCommand)?
        if case .line(let bytes) = frame, let request = try? Request.parse(bytes),
            let command = try? ControlCommand(request)
        {
            decoded = (request.id, command)
        }
        client.held.append(Held(sequence: nextSequence, frame: frame, decoded: decoded))
        nextSequence += 1
    }

    /// Runs every held request that may run now, the oldest first across `clients`; `between` runs after each.
    func runReady(_ clients: [ClientConnection], between: () -> Void = {}) {
        while let client = nextReady(clients) {
            run(client.held.removeFirst(), from: client)
            between()
        }
    }

    /// Runs the parked requests whose loads have finished, then whatever they held up.
    func collectFinished(_ clients: [ClientConnection], between: () -> Void = {}) {
        for finished in worker.takeFinished() {
            guard let client = waiting.removeValue(forKey: finished.ticket), var parked = client.parked else {
                continue
            }
            if let source = parked.waitingOn.removeValue(forKey: finished.ticket) ?? nil, let outcome = finished.outcome
            {
                parked.outcomes[source] = outcome
                // Held for the request until it runs: counted against the memory bound, and not dropped meanwhile.
                if case .success(let entry) = outcome { controller.assets.cache.use(entry.asset) }
            }
            client.parked = parked
            guard parked.waitingOn.isEmpty else { continue }
            runParked(parked, of: client)
            between()
        }
        runReady(clients, between: between)
    }

    /// Runs the requests that waited for a preview to fade out, once it has been heard and has ended (the server
    /// calls this after each poll of the controller), then whatever they held up.
    func collectOutputFreed(_ clients: [ClientConnection], between: () -> Void = {}) {
        guard !awaitingOutput.isEmpty, controller.preview == nil else { return }
        let ready = awaitingOutput
        awaitingOutput.removeAll()
        for client in ready {
            guard let parked = client.parked else { continue }
            // A preview an earlier one started is faded out in turn: this one parks again.
            runParked(parked, of: client)
            between()
        }
        runReady(clients, between: between)
    }

    /// Forgets a client that has gone (closed its connection, or was disconnected): its requests not run yet are not
    /// run, its loads not started are dropped (one running finishes into the cache, for whoever asks next), and the
    /// session commands that waited for its `start` run now, before it.
    func drop(_ client: ClientConnection, from clients: [ClientConnection], between: () -> Void = {}) {
        worker.cancel(owner: client.id)
        waiting = waiting.filter { $0.value !== client }
        awaitingOutput.removeAll { $0 === client }
        if let parked = client.parked { release(parked.outcomes) }
        client.parked = nil
        client.held.removeAll()
        guard startingClient === client else { return }
        startingClient = nil
        runReady(clients.filter { $0 !== client }, between: between)
    }

    /// Answers every request not run yet with `unavailable` (the server is ending): parked ones are not run, since
    /// a start after the shutdown would begin a session nobody ends.
    func abandon(_ clients: [ClientConnection]) {
        let error = ProtocolError(.unavailable, "the server is shutting down; the request was not run")
        for client in clients {
            if let parked = client.parked {
                send(.failure(parked.id, error), to: client)
                release(parked.outcomes)
            }
            for held in client.held { send(.failure(held.decoded?.id, error), to: client) }
            client.parked = nil
            client.held.removeAll()
        }
        waiting.removeAll()
        awaitingOutput.removeAll()
        startingClient = nil
    }

    // MARK: - Running

    private func nextReady(_ clients: [ClientConnection]) -> ClientConnection? {
        var best: ClientConnection?
        for client in clients where client.parked == nil && client.closeReason == nil {
            guard let head = client.held.first else { continue }
            if let starting = startingClient, starting !== client,
                let command = head.decoded?.command, Self.isSessionCommand(command)
            {
                continue
            }
            if let b = best, b.held[0].sequence < head.sequence { continue }
            best = client
        }
        return best
    }

    private func run(_ held: Held, from client: ClientConnection) {
        guard let (id, command) = held.decoded else {
            send(client.dispatcher.reply(to: held.frame), to: client)
            return
        }
        let preloads = controller.preloads(for: command, startRate: lastStartRate)
        guard !preloads.isEmpty else {
            execute(id, command, prepared: [:], for: client)
            return
        }
        var parked = Parked(id: id, command: command, waitingOn: [:])
        let library = controller.assets
        for preload in preloads {
            let ticket = nextTicket
            nextTicket += 1
            waiting[ticket] = client
            switch preload {
            case .asset(let source):
                parked.waitingOn[ticket] = source
                let (cache, loader) = (library.cache, library.loader)
                worker.submit(ticket: ticket, owner: client.id) {
                    AssetLibrary.load(source, cache: cache, loader: loader)
                }
            case .summary(let source):
                parked.waitingOn[ticket] = .some(nil)
                let (table, loader) = (library.summaries, library.loader)
                worker.submit(ticket: ticket, owner: client.id) {
                    AssetLibrary.summarize(source, loader: loader, into: table)
                    return nil
                }
            }
        }
        client.parked = parked
        if case .start = command { startingClient = client }
    }

    /// Runs a parked request whose wait is over (it may park again, for the output).
    private func runParked(_ parked: Parked, of client: ClientConnection) {
        client.parked = nil
        if startingClient === client { startingClient = nil }
        execute(parked.id, parked.command, prepared: parked.outcomes, for: client)
    }

    private func execute(
        _ id: JSONValue?, _ command: ControlCommand, prepared: [AssetSource: AssetLibrary.Outcome],
        for client: ClientConnection
    ) {
        // A preview holds the output: it fades out while every client is served, and this runs when it has.
        if controller.takesOutputFromPreview(command, prepared: prepared) {
            controller.releaseOutput()
            client.parked = Parked(id: id, command: command, waitingOn: [:], outcomes: prepared)
            awaitingOutput.append(client)
            if case .start = command { startingClient = client }
            return
        }
        let outcome = controller.assets.withPrepared(prepared) { client.dispatcher.execute(command) }
        release(prepared)
        send(Reply(id: id, outcome: outcome), to: client)
        if case .start = command, let s = controller.session { lastStartRate = s.rate }
    }

    /// Ends the request's hold on the assets it was prepared (``collectFinished(_:between:)``).
    private func release(_ outcomes: [AssetSource: AssetLibrary.Outcome]) {
        for case .success(let entry) in outcomes.values { controller.assets.cache.release(entry.asset) }
    }

    private func send(_ reply: Reply, to client: ClientConnection) {
        client.enqueue(reply: reply)
        client.flush()
    }

    /// The commands that act on the session (or end the server): they wait for a loading `start` of another client.
    static func isSessionCommand(_ command: ControlCommand) -> Bool {
        switch command {
        case .start, .pause, .resume, .stop, .set, .strike, .preview, .shutdown: return true
        default: return false
        }
    }
}
