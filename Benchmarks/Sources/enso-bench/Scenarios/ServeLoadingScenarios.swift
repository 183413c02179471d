import AudioFile
import Foundation
import Glibc
import SystemIO

/// `enso serve` while it loads assets: how long `start` takes to reply and to sound, with its assets
/// cold and cached, and how long another client's `status` waits while a theme loads.
///
/// Each run starts a real `enso serve --socket` on the null output and talks to it as a front end does. The baseline
/// is the load itself, a `set theme` of a 60 s stereo 44.1 kHz theme (decode, seam check, resample to 48 kHz): with
/// loading on the control thread (before 2026-12-02) every other client's `status` waited that long; the status row
/// shows what it waits now. These rows measure their own interval (a reply's latency, the longest of many waits), so
/// the process start-up and the untimed session set-up are not in them.
enum ServeLoadingScenarios {
    static let group = "Serve: loading off the control thread (60 s stereo 44.1 kHz theme, 10 s bell)"

    static func prepare() throws {
        _ = try Fixtures.file(.wav16, seconds: 60, rate: 44_100)
        _ = try Fixtures.file(.wav16, seconds: 10, rate: 44_100)
    }

    static var all: [Benchmark] {
        [
            Benchmark.measured(
                "enso serve set theme, send to reply (the load; what status waited before)", group: group,
                baseline: true, prepare: prepare
            ) {
                let s = try Session()
                try s.startPlaying()
                return { try s.setFreshTheme().reply }
            },
            Benchmark.measured(
                "enso serve status of another client during that load (longest wait)", group: group,
                prepare: prepare
            ) {
                let s = try Session()
                try s.startPlaying()
                return { try s.setFreshTheme().longestStatus }
            },
            Benchmark.measured(
                "enso serve status of another client, 2 s of a session without a load (longest wait, for scale)",
                group: group, prepare: prepare
            ) {
                let s = try Session()
                try s.startPlaying()
                return { s.longestStatus(for: 2) }
            },
            Benchmark.measured("enso serve status, send to reply (idle, for scale)", group: group, prepare: prepare) {
                let s = try Session()
                return {
                    let t0 = monotonicSeconds()
                    _ = try s.a.request(#""command":"status""#)
                    return monotonicSeconds() - t0
                }
            },
            Benchmark.measured("enso serve start, send to reply (cold)", group: group, prepare: prepare) {
                let s = try Session()
                return { try s.coldStart().reply }
            },
            Benchmark.measured("enso serve start, send to first audible frame (cold)", group: group, prepare: prepare) {
                let s = try Session()
                return { try s.coldStart().audible }
            },
            Benchmark.measured("enso serve start, send to reply (cached)", group: group, prepare: prepare) {
                let s = try Session()
                _ = try s.coldStart()
                return { try s.start(s.lastFiles).reply }
            },
            Benchmark.measured(
                "enso serve start, send to first audible frame (cached)", group: group,
                prepare: prepare
            ) {
                let s = try Session()
                _ = try s.coldStart()
                return { try s.start(s.lastFiles).audible }
            },
        ]
    }

    /// A server with two connected clients.
    final class Session {
        let server = Process()
        let folder: String
        let a: Client
        let b: Client
        private var copies = 0
        /// The bell and theme of the last ``coldStart()``.
        private(set) var lastFiles = (bell: "", theme: "")

        init() throws {
            folder = NSTemporaryDirectory() + "enso-bench-serve-\(getpid())"
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            server.executableURL = URL(fileURLWithPath: try StartupScenarios.ensoPath())
            server.arguments = [
                "serve", "--socket", folder + "/s.sock", "--output", "null", "--journal", folder + "/j.jsonl",
            ]
            server.standardError = FileHandle.nullDevice
            try server.run()
            a = try Client(path: folder + "/s.sock")
            b = try Client(path: folder + "/s.sock")
        }

        deinit {
            server.terminate()
            server.waitUntilExit()
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// A copy of `fixture` no earlier run has loaded (a new inode: a new cache entry).
        func freshCopy(_ fixture: String) throws -> String {
            copies += 1
            let path = "\(folder)/copy-\(copies)-" + (fixture as NSString).lastPathComponent
            try FileManager.default.copyItem(atPath: fixture, toPath: path)
            return path
        }

        var themeFixture: String { get throws { try Fixtures.file(.wav16, seconds: 60, rate: 44_100) } }
        var bellFixture: String { get throws { try Fixtures.file(.wav16, seconds: 10, rate: 44_100) } }

        /// Starts an open-ended session with a cached bell and no theme, and waits until it plays.
        func startPlaying() throws {
            let bell = try freshCopy(try bellFixture)
            _ = try start((bell, ""))
        }

        /// Stops any session, then starts one with `files`; the reply's latency and the first strike's audible
        /// time after the send.
        func start(_ files: (bell: String, theme: String), seamFix: Bool = true) throws -> (
            reply: Double, audible: Double
        ) {
            _ = try a.request(#""command":"stop","bell":false"#)
            if a.sessionRunning { _ = try a.waitFor { $0["event"] as? String == "session.ended" } }
            a.sessionRunning = false
            a.discardEvents()
            let ambient =
                files.theme.isEmpty ? "" : #","ambient":"\#(files.theme)""# + (seamFix ? "" : #","seamFix":false"#)
            // The protocol's times are whole milliseconds, rounded down: the send time is too, or a frame heard
            // within a millisecond of it (the null output has no buffer to wait out) would measure as negative.
            let sent = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
            let t0 = monotonicSeconds()
            let reply = try a.request(
                #""command":"start","sitting":600,"bell":"\#(files.bell)","strikes":1,"fadeIn":0\#(ambient)"#)
            let replied = monotonicSeconds() - t0
            guard reply["ok"] as? Bool == true else { throw BenchmarkError("start failed: \(reply)") }
            a.sessionRunning = true
            let bell = try a.waitFor { $0["event"] as? String == "bell" }
            guard let at = (bell["audibleAt"] as? String).flatMap(Self.date) else {
                throw BenchmarkError("no audibleAt in \(bell)")
            }
            return (replied, at.timeIntervalSince(sent))
        }

        /// A start with a bell and theme no run has loaded.
        func coldStart() throws -> (reply: Double, audible: Double) {
            lastFiles = (try freshCopy(try bellFixture), try freshCopy(try themeFixture))
            return try start(lastFiles)
        }

        /// How often client B asks `status`: one request at a time, each at most every millisecond. That is far
        /// more often than any front end asks (a 60 Hz countdown asks every 16.7 ms) and gives hundreds of samples
        /// in a load, yet leaves B asleep most of the time, as a front end is. Asked back to back, B never slept
        /// (154 context switches in a run, against 16 478 for the server): parsing each reply kept it running, so
        /// it held one of the machine's two cores itself and the server's thread queued behind the loader on the
        /// other; the row then measured the benchmark's own use of the CPU (docs/benchmarks.md).
        static let statusPeriod = 0.001

        /// Sleeps what is left of ``statusPeriod`` since `start`.
        static func pace(since start: Double) {
            let left = statusPeriod - (monotonicSeconds() - start)
            if left > 0 { usleep(useconds_t(left * 1_000_000)) }
        }

        /// Client A sets a theme no run has loaded while client B asks `status` over and over, one at a time
        /// (``statusPeriod``); A's reply latency and B's longest wait.
        func setFreshTheme() throws -> (reply: Double, longestStatus: Double) {
            let theme = try freshCopy(try themeFixture)
            let t0 = monotonicSeconds()
            try a.send(#""id":"set","command":"set","theme":"\#(theme)","crossfade":0.1"#)
            var longest = 0.0
            var replied: Double?
            while replied == nil {
                let s0 = monotonicSeconds()
                _ = try b.request(#""command":"status""#)
                longest = max(longest, monotonicSeconds() - s0)
                Self.pace(since: s0)
                if let r = a.take(where: { $0["id"] as? String == "set" }) {
                    guard r["ok"] as? Bool == true else { throw BenchmarkError("set failed: \(r)") }
                    replied = monotonicSeconds() - t0
                }
            }
            return (replied!, longest)
        }

        /// Client B asks `status` over and over, one at a time (``statusPeriod``), for `seconds`: its longest wait.
        func longestStatus(for seconds: Double) -> Double {
            let end = monotonicSeconds() + seconds
            var longest = 0.0
            while monotonicSeconds() < end {
                let s0 = monotonicSeconds()
                guard (try? b.request(#""command":"status""#)) != nil else { return .infinity }
                longest = max(longest, monotonicSeconds() - s0)
                Self.pace(since: s0)
            }
            return longest
        }

        static func date(_ iso: String) -> Date? {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f.date(from: iso)
        }
    }

    /// A blocking NDJSON client on a Unix socket.
    final class Client {
        let fd: Int32
        private var buffer: [UInt8] = []
        private var unclaimed: [[String: Any]] = []
        private var nextID = 0
        var sessionRunning = false

        init(path: String) throws {
            let address = try UnixSocketAddress(path: path)
            let deadline = Date().addingTimeInterval(10)
            var connected: Int32 = -1
            while connected < 0 && Date() < deadline {
                let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                if address.connect(s) == 0 { connected = s } else { close(s); usleep(20_000) }
            }
            guard connected >= 0 else { throw BenchmarkError("cannot connect to \(path)") }
            fd = connected
            _ = try waitFor { $0["event"] as? String == "hello" }
        }

        deinit { close(fd) }

        func send(_ fields: String) throws {
            let line = Array("{\(fields)}\n".utf8)
            guard line.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }) == line.count
            else { throw BenchmarkError("the server closed the connection") }
        }

        /// Forgets the events received so far (an earlier session's bells).
        func discardEvents() {
            try? read(timeoutMs: 0)
            unclaimed.removeAll { $0["event"] != nil }
        }

        /// Sends a request with a fresh id and waits for its reply.
        func request(_ fields: String) throws -> [String: Any] {
            nextID += 1
            let id = nextID
            try send(#""id":\#(id),"# + fields)
            return try waitFor { $0["id"] as? Int == id }
        }

        /// The first line received (now or later, up to 30 s) that `match`es, taking it.
        func waitFor(_ match: ([String: Any]) -> Bool) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let line = take(where: match) { return line }
                try read(timeoutMs: 100)
            }
            throw BenchmarkError("no expected line from the server within 30 s")
        }

        /// A line already received that `match`es, taking it; reads what is waiting without blocking first.
        func take(where match: ([String: Any]) -> Bool) -> [String: Any]? {
            try? read(timeoutMs: 0)
            guard let i = unclaimed.firstIndex(where: match) else { return nil }
            return unclaimed.remove(at: i)
        }

        private func read(timeoutMs: Int32) throws {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, timeoutMs) == 1 else { return }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            guard n > 0 else { throw BenchmarkError("the server closed the connection") }
            buffer += chunk[0..<n]
            while let nl = buffer.firstIndex(of: 0x0A) {
                let line = Data(buffer[..<nl])
                buffer.removeSubrange(...nl)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] {
                    unclaimed.append(object)
                }
            }
        }
    }
}
