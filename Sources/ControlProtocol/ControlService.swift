/// What a server does for each command: the delegate ``RequestDispatcher`` calls once a request is decoded.
///
/// One method per command of ``ControlCommand`` that concerns the service; each returns that command's typed reply
/// or throws the ``ProtocolError`` the reply carries. `subscribe`, `unsubscribe`, `observe` and `unobserve` concern
/// one connection and are answered by the dispatcher itself (``RequestDispatcher/subscriptions``,
/// ``RequestDispatcher/observed``), which asks the service only for the values observers were last sent
/// (``observedState()``).
///
/// - Thread safety: called on the server's control thread only.
public protocol ControlService: AnyObject {
    /// `start`: begins a session with `plan`.
    func start(_ plan: PlanFields) throws(ProtocolError) -> StartReply
    /// `pause` (a paused session stays paused).
    func pause() throws(ProtocolError) -> SessionReply
    /// `resume` (a playing session keeps playing).
    func resume() throws(ProtocolError) -> SessionReply
    /// `stop`: ends the session (`bell` overrides the plan's `stopBell`), or the preview when no session plays.
    func stop(bell: Bool?) throws(ProtocolError) -> StopReply
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
    /// `preview`: a bell once, or a theme for some seconds, without a session.
    func preview(_ fields: PreviewFields) throws(ProtocolError) -> PreviewReply
    /// `prefetch`: bells and themes loaded into the shared cache, so a `start` that follows finds them ready.
    func prefetch(_ fields: PrefetchFields) throws(ProtocolError) -> PrefetchReply
    /// The observable state as last sent to observers (``StateReporter/reported``): what `observe` replies with.
    func observedState() -> ObservedState
    /// `sessions.list`: one page of the journal.
    func sessionsList(_ query: SessionsQuery) throws(ProtocolError) -> SessionsListReply
    /// `sessions.markSynced`.
    func sessionsMarkSynced(ids: [String]) throws(ProtocolError) -> MarkSyncedReply
    /// `shutdown`: the server ends after this reply (any session is stopped as `stopped`).
    func requestShutdown() -> ShutdownReply
}
