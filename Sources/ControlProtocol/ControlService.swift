/// What a server does for each command: the delegate ``RequestDispatcher`` calls once a request is decoded.
///
/// One method per command of ``ControlCommand`` that concerns the service; each returns that command's typed reply
/// or throws the ``ProtocolError`` the reply carries. `subscribe` and `unsubscribe` concern one connection and are
/// answered by the dispatcher itself (``RequestDispatcher/subscriptions``), so a service never sees them.
///
/// - Thread safety: called on the server's control thread only.
public protocol ControlService: AnyObject {
    /// `start`: begins a session with `plan`.
    func start(_ plan: PlanFields) throws(ProtocolError) -> StartReply
    /// `pause` (a paused session stays paused).
    func pause() throws(ProtocolError) -> SessionReply
    /// `resume` (a playing session keeps playing).
    func resume() throws(ProtocolError) -> SessionReply
    /// `stop`; `bell` overrides the plan's `stopBell`.
    func stop(bell: Bool?) throws(ProtocolError) -> SessionReply
    /// `set`: live changes to the playing session.
    func set(_ fields: SetFields) throws(ProtocolError) -> SetReply
    /// `strike`: the session's bell, or the asset `bell`, now.
    func strike(bell: String?) throws(ProtocolError) -> SessionReply
    /// `status`.
    func status() -> StatusReply
    /// `assets`.
    func listAssets() -> AssetsReply
    /// `plan`: the timeline of `plan` without starting it.
    func plan(_ plan: PlanFields) throws(ProtocolError) -> PlanReport
    /// `devices`.
    func devices() throws(ProtocolError) -> DevicesReply
    /// `sessions.list`.
    func sessionsList(limit: Int?, unsyncedOnly: Bool) throws(ProtocolError) -> SessionsListReply
    /// `sessions.markSynced`.
    func sessionsMarkSynced(ids: [String]) throws(ProtocolError) -> MarkSyncedReply
    /// `shutdown`: the server ends after this reply (any session is stopped as `stopped`).
    func requestShutdown() -> ShutdownReply
}
