/// One connection's side of the protocol: turns each framed line into its reply, calling a ``ControlService``
/// for what the server does, and keeps the connection's event subscription.
///
/// Envelope checks, command decoding, then the service for a valid command. Every input, however malformed,
/// gets exactly one reply; nothing here can fail otherwise. This is the surface the protocol fuzzer drives.
///
///     var dispatcher = RequestDispatcher(service: controller)
///     for frame in framer.append(bytes) { send(dispatcher.reply(to: frame).line) }
///
/// - Thread safety: a value type; the connection's (the server's control) thread.
public struct RequestDispatcher<Service: ControlService> {
    /// What executes the commands.
    public let service: Service
    /// The event kinds this connection receives (all by default); `subscribe`/`unsubscribe` change it.
    public private(set) var subscriptions = Set(EventKind.all)
    /// The state properties this connection observes (none by default); `observe`/`unobserve` change it.
    public private(set) var observed = Set<StateProperty>()

    public init(service: Service) { self.service = service }

    /// The reply to `frame`: a line, or an oversized line that was dropped.
    public mutating func reply(to frame: LineFramer.Frame) -> Reply {
        switch frame {
        case .oversized(let count):
            return .failure(
                nil,
                ProtocolError(
                    .lineTooLong,
                    "line dropped: over \(LineFramer.maxLineBytes) bytes (\(count) bytes read before giving up)"))
        case .line(let bytes):
            let request: Request
            do throws(Request.Failure) {
                request = try Request.parse(bytes)
            } catch {
                return .failure(error.id, error.error)
            }
            let command: ControlCommand
            do throws(ProtocolError) {
                command = try ControlCommand(request)
            } catch {
                return .failure(request.id, error)
            }
            return Reply(id: request.id, outcome: execute(command))
        }
    }

    /// Executes a decoded command: its reply's data, or its error.
    public mutating func execute(_ command: ControlCommand) -> Result<JSONValue, ProtocolError> {
        do throws(ProtocolError) {
            return .success(try data(command))
        } catch {
            return .failure(error)
        }
    }

    private mutating func data(_ command: ControlCommand) throws(ProtocolError) -> JSONValue {
        switch command {
        case .start(let plan): return MessageEncoder.value(try service.start(plan))
        case .pause: return MessageEncoder.value(try service.pause())
        case .resume: return MessageEncoder.value(try service.resume())
        case .stop(let bell): return MessageEncoder.value(try service.stop(bell: bell))
        case .set(let fields): return MessageEncoder.value(try service.set(fields))
        case .strike(let bell): return MessageEncoder.value(try service.strike(bell: bell))
        case .status: return MessageEncoder.value(service.status())
        case .assets: return MessageEncoder.value(service.listAssets())
        case .plan(let plan): return MessageEncoder.value(try service.plan(plan))
        case .devices: return MessageEncoder.value(try service.devices())
        case .preview(let fields): return MessageEncoder.value(try service.preview(fields))
        case .prefetch(let fields): return MessageEncoder.value(try service.prefetch(fields))
        case .sessionsList(let query): return MessageEncoder.value(try service.sessionsList(query))
        case .sessionsMarkSynced(let ids): return MessageEncoder.value(try service.sessionsMarkSynced(ids: ids))
        case .subscribe(let kinds):
            subscriptions.formUnion(kinds ?? EventKind.all)
            return MessageEncoder.value(SubscriptionReply(subscriptions))
        case .unsubscribe(let kinds):
            subscriptions.subtract(kinds ?? EventKind.all)
            return MessageEncoder.value(SubscriptionReply(subscriptions))
        case .observe(let properties):
            observed.formUnion(properties ?? StateProperty.all)
            return MessageEncoder.value(ObserveReply(observing: observed, state: service.observedState()))
        case .unobserve(let properties):
            observed.subtract(properties ?? StateProperty.all)
            return MessageEncoder.value(ObserveReply(observing: observed, state: service.observedState()))
        case .shutdown: return MessageEncoder.value(service.requestShutdown())
        }
    }

    /// The form of `event` this connection is sent, `nil` when none: an event of a kind it subscribed to, and a
    /// `state.changed` only when a property it observes changed, narrowed to what it observes.
    public func delivery(of event: ProtocolEvent) -> ProtocolEvent? {
        guard subscriptions.contains(event.kind) else { return nil }
        guard case .stateChanged(let change) = event else { return event }
        return change.narrowed(to: observed).map { .stateChanged($0) }
    }
}
