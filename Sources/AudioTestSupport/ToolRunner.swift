import Foundation

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
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return name
    }

    /// Runs `name` with `arguments`, optional standard input and extra environment; waits for it to exit.
    public static func run(
        _ name: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        currentDirectory: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath(name))
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
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        // Read both pipes concurrently so a full stderr cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            exitCode: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory, removed by the caller (or left for inspection on failure).
    public static func temporaryDirectory(_ label: String = "enso-test") -> String {
        let path = NSTemporaryDirectory() + "\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
