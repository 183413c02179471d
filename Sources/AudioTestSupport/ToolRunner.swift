import Foundation
import Synchronization

/// Runs a built executable of this package (`enso`, `make-assets`) the way a user would, for end-to-end tests.
///
/// The executable is looked up beside the running test binary (SwiftPM puts both in the same
/// `.build/<triple>/<config>/` folder, whatever `--scratch-path` says).
public enum ToolRunner {
    /// What a finished process left.
    public struct Result: Sendable {
        public var exitCode: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The path of the built executable `name`.
    public static func executablePath(_ name: String) -> String {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return name
    }

    /// A process that did not exit within its deadline; it was killed.
    public struct Timeout: Error, CustomStringConvertible {
        public var command: String
        public var seconds: Double
        public var description: String { "\(command) did not exit within \(seconds) s; killed" }
    }

    /// How long ``run(_:_:stdin:environment:currentDirectory:timeout:)`` waits by default: a hung tool fails the
    /// test in minutes instead of hanging the suite, and no tool a test runs comes near it on a loaded machine (the
    /// longest take seconds).
    public static let defaultTimeout = 300.0

    /// Runs `name` with `arguments`, optional standard input and extra environment; waits for it to exit, at most
    /// `timeout` seconds.
    ///
    /// - Throws: ``Timeout`` when the process is still running after `timeout` seconds (it is then sent SIGKILL).
    public static func run(
        _ name: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        currentDirectory: String? = nil, timeout: Double = defaultTimeout
    ) throws -> Result {
        try Running(
            executablePath(name), arguments, stdin: stdin, environment: environment, currentDirectory: currentDirectory
        ).wait(timeout: timeout)
    }

    /// A started process whose standard output and error are read to their end on other threads, so a full pipe
    /// never blocks it; ``wait(timeout:)`` returns what it left.
    public final class Running: @unchecked Sendable {
        private let process = Process()
        private let group = DispatchGroup()
        /// The command line, for a ``Timeout``'s message.
        private let command: String
        // Written once by a reader thread before `group.leave()`, read only after `group.wait()`.
        private var out = Data()
        private var err = Data()

        /// The started process's id, to send it signals.
        public var processIdentifier: Int32 { process.processIdentifier }

        /// Whether the process has not exited yet.
        public var isRunning: Bool { process.isRunning }

        /// Starts the executable at `path` with `arguments`; its standard input is `stdin` (written, then closed),
        /// its environment this process's plus `environment`.
        public init(
            _ path: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
            currentDirectory: String? = nil
        ) throws {
            BrokenPipes.ignore()
            command = ([path] + arguments).joined(separator: " ")
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v }
            process.environment = env
            if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
            let outPipe = Pipe()
            let errPipe = Pipe()
            let inPipe = Pipe()
            process.standardOutput = outPipe
            process.standardError = errPipe
            process.standardInput = inPipe
            try process.run()
            for (pipe, keep) in [(outPipe, \Running.out), (errPipe, \Running.err)] {
                group.enter()
                DispatchQueue.global().async { [self] in
                    self[keyPath: keep] = pipe.fileHandleForReading.readDataToEndOfFile()
                    group.leave()
                }
            }
            // A child that exits before reading its input (a usage error) closes the pipe: the write fails, quietly.
            if let stdin { try? inPipe.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
            try? inPipe.fileHandleForWriting.close()
        }

        /// Waits for both pipes to end and the process to exit, at most `timeout` seconds.
        ///
        /// - Throws: ``Timeout`` when the process is still running after `timeout` seconds (it is then sent SIGKILL).
        public func wait(timeout: Double = ToolRunner.defaultTimeout) throws -> Result {
            let timedOut = Flag()
            let pid = process.processIdentifier
            let watchdog = DispatchWorkItem {
                timedOut.value.withLock { $0 = true }
                kill(pid, SIGKILL)
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
            group.wait()
            process.waitUntilExit()
            watchdog.cancel()
            if timedOut.value.withLock({ $0 }) { throw Timeout(command: command, seconds: timeout) }
            return Result(
                exitCode: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                stderr: String(decoding: err, as: UTF8.self))
        }
    }

    private final class Flag: Sendable {
        let value = Mutex(false)
    }

    /// A fresh temporary directory under this process's ``testRoot``: the caller may remove it, and what is left is
    /// removed when the process exits.
    public static func temporaryDirectory(_ label: String = "enso-test") -> String {
        let path = testRoot + "/\(label)-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The one directory this process's test files go under, removed with everything in it when the process exits,
    /// unless `ENSO_KEEP_TEST_FILES` is set (to inspect a failure): a suite of hundreds of tests otherwise leaves
    /// thousands of folders in /tmp.
    public static let testRoot: String = {
        let path = NSTemporaryDirectory() + "enso-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["ENSO_KEEP_TEST_FILES"] == nil {
            atexit { try? FileManager.default.removeItem(atPath: ToolRunner.testRoot) }
        }
        return path
    }()
}
