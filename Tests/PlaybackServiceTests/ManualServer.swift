import AudioCore
import AudioDevice
import ControlProtocol
import Foundation

@testable import PlaybackService

/// `enso serve` in process, on the null device with a clock moved by hand (``ManualOutput``): request lines in,
/// the reply and event lines a client would read out, and nothing that depends on the machine's load.
///
/// It does what the server's loop does for one client, on the test's thread: ``send(_:)`` answers a line at once
/// through the client's `RequestDispatcher`; ``next(within:_:)`` renders period after period, polling the session
/// controller after each (the loop polls every 20 ms, half a period) and keeping the events the client is sent,
/// until a line matches. Times in replies and events are the manual clock's, so they are exact. Assets load on the
/// test's thread (the server's loading worker is not involved: `LoadingTests` drives it).
///
/// - Thread safety: the test's thread only.
final class ManualServer {
    /// The wall-clock time the manual clock starts at.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// The null output's buffer (the default config's, 8192 frames at 48 kHz): how far rendering runs ahead of
    /// hearing. The same for `enso serve --output null`.
    static let bufferSeconds = Double(OutputConfig().bufferFrames) / OutputConfig().sampleRate.double
    /// One period (the default config's, 2048 frames at 48 kHz): what each ``step()`` renders.
    static let periodSeconds = Double(OutputConfig().periodFrames) / OutputConfig().sampleRate.double
    /// The most periods ``next(within:_:)`` renders by default: 100 s of audio, beyond any sitting a test awaits.
    static let defaultPeriods = 2_400

    let output: ManualOutput
    let controller: SessionController
    private var dispatcher: RequestDispatcher<SessionController>
    /// Every reply and event line, oldest first.
    private(set) var all: [JSONValue] = []
    /// Lines no ``next(within:_:)`` call has taken yet, oldest first.
    private var unclaimed: [JSONValue] = []

    /// A server whose sessions play on a manual null output and are journaled to `journal`, with no asset pack,
    /// holding at most `maxCachedBytes` of samples.
    init(journal: String, maxCachedBytes: Int = AssetLibrary.defaultMaxCachedBytes) throws {
        let output = try ManualOutput(realtimeStart: Int64(Self.start.timeIntervalSince1970) * 1_000_000_000)
        let monotonicStart = output.now
        self.output = output
        controller = SessionController(
            output: .null, journal: SessionJournal(path: journal),
            assets: AssetLibrary(
                directory: (journal as NSString).deletingLastPathComponent + "/no-pack", maxCachedBytes: maxCachedBytes),
            openOutput: { _ in output })
        controller.wallClock = { Self.start.addingTimeInterval(Double(output.now - monotonicStart) / 1e9) }
        // `state.changed` is paced by the manual clock too: one period (43 ms) apart, every poll may send one.
        let origin = ContinuousClock.now
        controller.monotonicClock = { origin + .nanoseconds(output.now - monotonicStart) }
        dispatcher = RequestDispatcher(service: controller)
    }

    /// The wall-clock time now, on the manual clock.
    var now: Date { controller.wallClock() }

    /// Answers one request line, as the server does when it reads it.
    func send(_ line: String) {
        receive(dispatcher.reply(to: .line(Array(line.utf8))).json)
    }

    /// Renders one period (when a session plays) and takes the events the client is sent.
    ///
    /// - Returns: `false` when nothing was rendered.
    @discardableResult
    func step() -> Bool {
        let rendered = output.step()
        deliver(controller.poll())
        return rendered
    }

    /// Polls the controller without rendering and takes the events, as the server's loop does after each request.
    func poll() {
        deliver(controller.poll())
    }

    /// Lets `seconds` pass on the manual clock with nothing rendered (as after an output has played its last frame),
    /// then polls as the server's loop does, taking the events.
    func wait(seconds: Double) {
        output.stall(nanoseconds: Int64(seconds * 1e9))
        deliver(controller.poll())
    }

    /// Renders `periods` periods (fewer when the output ends), taking the events.
    func advance(periods: Int) {
        for _ in 0..<periods where step() {}
    }

    /// The oldest line not yet taken that satisfies `match` (taking it), rendering up to `periods` periods for it.
    ///
    /// Lines that do not match stay for later calls, so replies and events may be awaited in any order.
    /// - Returns: `nil` when none came within `periods`, or when the output rendered nothing and nothing came.
    func next(within periods: Int = defaultPeriods, _ match: (JSONValue) -> Bool) -> JSONValue? {
        for _ in 0...periods {
            if let i = unclaimed.firstIndex(where: match) { return unclaimed.remove(at: i) }
            let before = all.count
            if !step() && all.count == before { return nil }
        }
        return nil
    }

    /// Ends the client's input, as the end of stdin does: the server ends any session (`stopped` before its
    /// closing bell) and sends its events.
    func closeInput() {
        deliver(controller.shutdown())
    }

    /// The reply with `id`.
    func reply(_ id: JSONValue) -> JSONValue? {
        next { $0["id"] == id && $0["ok"] != nil }
    }

    /// The next event of `kind`.
    func event(_ kind: String, within periods: Int = defaultPeriods) -> JSONValue? {
        next(within: periods) { $0["event"]?.stringValue == kind }
    }

    /// Keeps the events this client is sent (those it subscribed to), as the server's broadcast does.
    private func deliver(_ events: [ProtocolEvent]) {
        for e in events { if let mine = dispatcher.delivery(of: e) { receive(mine.json) } }
    }

    private func receive(_ line: JSONValue) {
        all.append(line)
        unclaimed.append(line)
    }
}
