import AudioTestSupport
import ControlProtocol
import Foundation
import SystemIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Fixtures and helpers for driving a real `enso serve` child process in tests.
enum ServerFixtures {
    /// Writes a mono 16-bit WAV of `samples` at `rate` (the format is simple enough to write by hand here).
    static func writeWAV(_ samples: [Float], rate: Int, to path: String) {
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + samples.count * 2))
        d.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(1); u32(UInt32(rate)); u32(UInt32(rate * 2))
        u16(2); u16(16)
        d.append(contentsOf: Array("data".utf8)); u32(UInt32(samples.count * 2))
        for s in samples { u16(UInt16(bitPattern: Int16(max(-1, min(1, s)) * 32767))) }
        precondition(writeTestFile(path, d), "cannot write a test fixture")
    }

    /// A folder with `bell.wav` (0.5 s decaying 440 Hz) and `rain.wav` (1 s seeded noise loop) at 48 kHz.
    static func assets() -> String {
        let dir = ToolRunner.temporaryDirectory("serve-assets")
        let rate = 48_000
        let bell = (0..<(rate / 2)).map { i in
            Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)) * exp(-Double(i) / 4800))
        }
        writeWAV(bell, rate: rate, to: dir + "/bell.wav")
        var rng = SeededRandom(seed: 42)
        writeWAV((0..<rate).map { _ in Float(rng.nextUnit() * 0.2 - 0.1) }, rate: rate, to: dir + "/rain.wav")
        return dir
    }

    /// `enso serve --socket` on the null output over a fresh ``assets()`` folder, with one client connected.
    ///
    /// - Parameters:
    ///   - socket: the socket's path inside the assets folder.
    ///   - journal: the journal's path inside the assets folder.
    /// - Returns: the assets folder, the socket's full path (for more clients), the server and its first client.
    static func socketServer(socket: String = "run/control.sock", journal: String = "j.jsonl") throws -> (
        assets: String, path: String, server: ServerProcess, client: SocketClient
    ) {
        let folder = assets()
        let path = folder + "/" + socket
        // A journal named with `--journal` is in a folder that exists (a missing one is refused as a mistyped path).
        try FileManager.default.createDirectory(
            atPath: ((folder + "/" + journal) as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let server = try ServerProcess(["--socket", path, "--output", "null", "--journal", folder + "/" + journal])
        return (folder, path, server, try #require(SocketClient(path: path)))
    }
}

/// A JSON line received from the server. (Not when: tests assert the order of lines, never their arrival times.)
struct ReceivedLine: Sendable {
    var json: JSONValue
}

/// Reads newline-separated JSON from a file descriptor on a background thread.
final class LineCollector: @unchecked Sendable {
    private let lock = NSCondition()
    private var lines: [ReceivedLine] = []
    /// Received lines no `next` call has taken yet, oldest first.
    private var unclaimed: [ReceivedLine] = []
    private(set) var ended = false
    /// Lines that were not JSON (must stay empty: logs never enter the protocol).
    private(set) var nonJSON: [String] = []

    init(fd: Int32) {
        let thread = Thread { [self] in
            var pending = [UInt8]()
            var buf = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending += buf[0..<n]
                while let nl = pending.firstIndex(of: 0x0A) {
                    let line = Array(pending[..<nl])
                    pending.removeSubrange(...nl)
                    lock.lock()
                    if let v = try? JSONDecoder().decode(JSONValue.self, from: Data(line)) {
                        lines.append(ReceivedLine(json: v))
                        unclaimed.append(lines[lines.count - 1])
                    } else {
                        nonJSON.append(String(decoding: line, as: UTF8.self))
                    }
                    lock.broadcast()
                    lock.unlock()
                }
            }
            lock.lock()
            ended = true
            lock.broadcast()
            lock.unlock()
        }
        thread.start()
    }

    /// Every line received so far.
    var all: [ReceivedLine] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// The oldest line not yet taken that satisfies `match` (taking it), waiting up to `timeout` seconds.
    ///
    /// Lines that do not match stay for later calls, so replies and events may be awaited in any order.
    func next(timeout: Double = 10, _ match: (JSONValue) -> Bool) -> ReceivedLine? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let i = unclaimed.firstIndex(where: { match($0.json) }) { return unclaimed.remove(at: i) }
            if ended || !lock.wait(until: deadline) { return nil }
        }
    }

    /// The reply with `id`.
    func reply(_ id: JSONValue, timeout: Double = 10) -> JSONValue? {
        next(timeout: timeout) { $0["id"] == id && $0["ok"] != nil }?.json
    }

    /// The next event of `kind`.
    func event(_ kind: String, timeout: Double = 10) -> ReceivedLine? {
        next(timeout: timeout) { $0["event"]?.stringValue == kind }
    }

    /// Waits until the stream ends.
    func waitForEnd(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while !ended { if !lock.wait(until: deadline) { return false } }
        return true
    }
}

/// An `enso serve` child process.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    let stderrPath: String
    let lines: LineCollector

    /// Starts `enso serve ARGS`; stdin and stdout are pipes, stderr goes to a file.
    ///
    /// - Parameter readingOutput: whether stdout is read (a front end that stops reading passes `false`).
    init(_ arguments: [String], environment: [String: String] = [:], readingOutput: Bool = true) throws {
        BrokenPipes.ignore()
        process.executableURL = URL(fileURLWithPath: ToolRunner.executablePath("enso"))
        process.arguments = ["serve"] + arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        stderrPath = ToolRunner.temporaryDirectory("serve-log") + "/stderr.txt"
        precondition(writeTestFile(stderrPath), "cannot write a test fixture")
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: stderrPath)!
        try process.run()
        lines = LineCollector(fd: readingOutput ? output.fileHandleForReading.fileDescriptor : -1)
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends one line (a newline is added).
    func send(_ line: String) {
        // A server that has exited closes the pipe: the write fails (EPIPE) and the test's expectations say why.
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Sends raw bytes.
    func sendBytes(_ bytes: [UInt8]) {
        try? input.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    /// Closes the test's end of stdout, as a front end that exits (or crashes) without closing stdin first does.
    /// Only for a server started with `readingOutput: false` (no reader thread is using the descriptor).
    func closeOutput() {
        try? output.fileHandleForReading.close()
    }

    /// Closes stdin (end of input).
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// What the server wrote to stderr.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits for the process to exit, up to `timeout` seconds; returns its status or `nil`.
    func wait(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// `kill -9`, then waits for it.
    func kill9() {
        kill(pid, SIGKILL)
        _ = wait()
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL) }
    }
}

/// A client of `enso serve --socket`: a connected Unix socket with a line reader.
final class SocketClient: @unchecked Sendable {
    let fd: Int32
    private(set) var lines: LineCollector!

    /// Connects to `path`, retrying for up to `timeout` seconds while the server starts; `nil` when no attempt
    /// succeeded, or the path is too long to be a socket's.
    ///
    /// - Parameter reading: whether to read replies (a client that never reads passes `false`).
    init?(path: String, timeout: Double = 10, reading: Bool = true) {
        guard let address = try? UnixSocketAddress(path: path) else { return nil }
        let deadline = Date().addingTimeInterval(timeout)
        var connected: Int32 = -1
        while Date() < deadline {
            connected = Self.connect(address)
            if connected >= 0 { break }
            usleep(20_000)
        }
        guard connected >= 0 else { return nil }
        fd = connected
        if reading { lines = LineCollector(fd: fd) }
    }

    /// One connection attempt; the socket fd or -errno.
    static func connect(_ address: UnixSocketAddress) -> Int32 {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        if address.connect(s) != 0 {
            let e = errno
            Glibc.close(s)
            return -e
        }
        return s
    }

    /// Sends `text` as is; returns false when the socket is closed.
    @discardableResult
    func send(_ text: String) -> Bool { sendBytes(Array(text.utf8)) }

    @discardableResult
    func sendBytes(_ bytes: [UInt8]) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            off += n
        }
        return true
    }

    /// Shuts the connection down, waits for the reader to see the end, then closes the descriptor (so a
    /// reader thread can never read from a later socket that reuses the number).
    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        _ = lines?.waitForEnd(timeout: 5)
        Glibc.close(fd)
    }
}
