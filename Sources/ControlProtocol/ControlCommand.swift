/// A request decoded into what it asks for, with its fields type-checked.
///
/// Decoding is the one place that knows every command's fields; the service then executes the typed
/// command. Plan ranges are checked later, by the engine's plan validation.
public enum ControlCommand: Sendable, Equatable {
    /// Begin a session.
    case start(PlanFields)
    case pause
    case resume
    /// End the session; `bell` overrides the plan's `stopBell` (ring the closing group).
    case stop(bell: Bool?)
    case set(SetFields)
    /// Strike a bell now: the session's bell, or the asset `bell`.
    case strike(bell: String?)
    case status
    case assets
    /// The timeline of a plan (the `start` fields) without starting it: what `enso plan --json` prints.
    case plan(PlanFields)
    /// The audio outputs: what `enso devices --json` lists.
    case devices
    /// Strike a bell once, or play a theme for some seconds, without a session.
    case preview(PreviewFields)
    /// Load bells and themes into the shared asset cache ahead of a `start`.
    case prefetch(PrefetchFields)
    /// One page of the journal's records, oldest first (``SessionsQuery``).
    case sessionsList(SessionsQuery)
    /// Mark journal records as written to a health store.
    case sessionsMarkSynced(ids: [String])
    /// Add event kinds to this client's subscription (`nil`: all kinds).
    case subscribe([EventKind]?)
    /// Remove event kinds from this client's subscription (`nil`: all kinds).
    case unsubscribe([EventKind]?)
    /// Add state properties to what this client observes (`nil`: all properties).
    case observe([StateProperty]?)
    /// Remove state properties from what this client observes (`nil`: all properties).
    case unobserve([StateProperty]?)
    /// Stop any session (as `stopped`) and end the server.
    case shutdown

    /// Every command name, in documentation order.
    public static let names = [
        "start", "pause", "resume", "stop", "set", "strike", "status", "assets", "plan", "devices", "preview",
        "prefetch", "sessions.list", "sessions.markSynced", "subscribe", "unsubscribe", "observe", "unobserve",
        "shutdown",
    ]

    /// Decodes the command of `request`.
    ///
    /// - Throws: `unknown-command`, or `invalid-field`/`invalid-request` naming what is wrong.
    public init(_ request: Request) throws(ProtocolError) {
        switch request.command {
        case "start": self = .start(try PlanFields(request))
        case "pause": self = .pause
        case "resume": self = .resume
        case "stop": self = .stop(bell: try request.bool("bell"))
        case "set": self = .set(try SetFields(request))
        case "strike": self = .strike(bell: try request.assetName("bell"))
        case "status": self = .status
        case "assets": self = .assets
        case "plan": self = .plan(try PlanFields(request))
        case "devices": self = .devices
        case "preview": self = .preview(try PreviewFields(request))
        case "prefetch": self = .prefetch(try PrefetchFields(request))
        case "sessions.list":
            self = .sessionsList(try SessionsQuery(request))
        case "sessions.markSynced":
            guard let ids = try request.strings("ids"), !ids.isEmpty else {
                throw .invalidField("ids", "is required: an array of one or more session ids")
            }
            self = .sessionsMarkSynced(ids: ids)
        case "subscribe": self = .subscribe(try Self.kinds(request))
        case "unsubscribe": self = .unsubscribe(try Self.kinds(request))
        case "observe": self = .observe(try Self.properties(request))
        case "unobserve": self = .unobserve(try Self.properties(request))
        case "shutdown": self = .shutdown
        default:
            let shown = request.command.count > 64 ? String(request.command.prefix(64)) + "…" : request.command
            throw ProtocolError(
                .unknownCommand,
                "unknown command '\(shown)' (known: \(Self.names.joined(separator: ", ")))")
        }
    }

    private static func properties(_ request: Request) throws(ProtocolError) -> [StateProperty]? {
        try names(request, "properties", of: StateProperty.all, "property")
    }

    private static func kinds(_ request: Request) throws(ProtocolError) -> [EventKind]? {
        try names(request, "events", of: EventKind.all, "event")
    }

    /// The array-of-names field `field`, each one of `known` (a `what`); `nil` when absent.
    private static func names<Name: RawRepresentable<String> & Equatable>(
        _ request: Request, _ field: String, of known: [Name], _ what: String
    ) throws(ProtocolError) -> [Name]? {
        guard let names = try request.strings(field) else { return nil }
        var out: [Name] = []
        for name in names {
            guard let n = Name(rawValue: name), known.contains(n) else {
                let list = known.map(\.rawValue).joined(separator: ", ")
                throw .invalidField(field, "unknown \(what) '\(name.prefix(64))' (known: \(list))")
            }
            out.append(n)
        }
        return out
    }
}
