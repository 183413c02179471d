import AudioFile
import Foundation
import Glibc

/// Whole-process start-up: `enso info` on a small file against spawning a process that does nothing.
enum StartupScenarios {
    /// The release `enso` of the parent package (`make bench` builds it), or `$ENSO_BIN`.
    static func ensoPath() throws -> String {
        let path =
            ProcessInfo.processInfo.environment["ENSO_BIN"]
            ?? FileManager.default.currentDirectoryPath + "/../.build/release/enso"
        guard access(path, X_OK) == 0 else {
            throw BenchmarkError(
                "no enso at \(path): run `swift build -c release --product enso` in the package root (make bench does)")
        }
        return path
    }

    static var all: [Benchmark] {
        let group = "Start-up: enso info on a 0.1 s WAV"
        let prepare: @Sendable () throws -> Void = { _ = try Fixtures.file(.wav16, seconds: 0.1) }
        return [
            Benchmark("Process spawn (/bin/true)", group: group, baseline: true, kind: .wholeProcess) {
                { try Subprocess.check(["/bin/true"]) }
            },
            Benchmark("enso info (whole process, 0.1 s WAV)", group: group, kind: .wholeProcess, prepare: prepare) {
                let enso = try ensoPath()
                let path = try Fixtures.file(.wav16, seconds: 0.1)
                return { try Subprocess.check([enso, "info", path]) }
            },
            Benchmark(
                "enso info --json (whole process, 60 s FLAC)", group: group, kind: .wholeProcess,
                prepare: {
                    _ = try Fixtures.file(.flac, seconds: 60)
                }
            ) {
                let enso = try ensoPath()
                let path = try Fixtures.file(.flac, seconds: 60)
                return { try Subprocess.check([enso, "info", "--json", path]) }
            },
            Benchmark("AudioFileDecoder decode (in-process, 0.1 s WAV)", group: group, prepare: prepare) {
                let path = try Fixtures.file(.wav16, seconds: 0.1)
                return { blackHole(try AudioFileDecoder.decode(path: path)) }
            },
        ]
    }
}
