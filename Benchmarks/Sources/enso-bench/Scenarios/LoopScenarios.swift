import AssetPipeline
import AudioCore
import AudioFile
import BenchSignals
import Dispatch
import Foundation
import Glibc

/// Loop seams (docs/loops.md): `loops verify` over 200 × 30 s loops against bare decoding of the same files
/// (target: analysis adds ≤ 50 %), and `loops find` on a 60 s loop against PyMusicLooper, whole process
/// (target: ≥ 20× faster, i.e. ratio ≤ 0.05), plus the in-process find for the ≤ 0.25 s per minute target.
enum LoopScenarios {
    static let verifyCount = 200

    /// 200 rain-like 30 s stereo 48 kHz loops, half Ogg Vorbis and half FLAC; half of them cut badly.
    static func verifyFiles() throws -> [String] {
        let dir = Fixtures.folder("loops-30s")
        return try (0..<verifyCount).map { i in
            let format: EncodeFormat = i % 2 == 0 ? .ogg : .flac
            return try Fixtures.stored(at: "\(dir)/loop-\(i).\(format == .ogg ? "ogg" : "flac")", format: format) {
                let frames = 30 * 48_000
                // Drip pulses every ~0.4 s over rumble; every other pair of files is cut off its period.
                let period = 19_200 + i * 7
                let length = i % 4 < 2 ? frames - frames % period : frames
                let bed = LoopSignals.periodicNoise(
                    period: period, frames: length, amplitude: 0.2, smoothingHz: 1_200, poles: 2, seed: UInt64(i))
                var mix = LoopSignals.drips(period: period, frames: length, seed: UInt64(1_000 + i))
                for k in mix.samples.indices { mix.samples[k] = mix.samples[k] * 0.5 + bed.samples[k] }
                return mix
            }
        }
    }

    /// A 60 s stereo 48 kHz FLAC whose whole-file loop is bad but which holds a clean 7.3 s period.
    static func findFile() throws -> String {
        try Fixtures.stored(at: Fixtures.directory + "/loop-find-60s.flac", format: .flac) {
            let period = 350_400
            let bed = LoopSignals.periodicNoise(
                period: period, frames: 60 * 48_000, amplitude: 0.2, smoothingHz: 1_500, poles: 2, seed: 77)
            var mix = LoopSignals.drips(period: 19_467, frames: 60 * 48_000, seed: 78)
            for k in mix.samples.indices { mix.samples[k] = mix.samples[k] * 0.3 + bed.samples[k] }
            return mix
        }
    }

    /// The venv PyMusicLooper is installed into (by `pip`, once).
    static let venv = Fixtures.directory + "/pymusiclooper-venv"

    /// Installs PyMusicLooper into ``venv``; a failure is kept in `pip.log` and reported by the scenario.
    static func installPyMusicLooper() {
        PythonVenv.ensure(venv, packages: ["pymusiclooper==3.6.0"], log: Fixtures.directory + "/pymusiclooper-pip.log")
    }

    static var all: [Benchmark] {
        let verifyGroup = "Loops verify: 200 loops of 30 s stereo 48 kHz (100 Ogg + 100 FLAC), all cores"
        let findGroup = "Loops find: 60 s stereo 48 kHz FLAC loop"
        let prepareVerify: @Sendable () throws -> Void = { _ = try verifyFiles() }
        let prepareFind: @Sendable () throws -> Void = {
            _ = try findFile()
            installPyMusicLooper()
        }
        return [
            Benchmark(
                "AudioFileDecoder decode (200 loops, parallel)", group: verifyGroup, baseline: true,
                items: (200, "files"), prepare: prepareVerify
            ) {
                let paths = try verifyFiles()
                return {
                    DispatchQueue.concurrentPerform(iterations: paths.count) { i in
                        blackHole(try? AudioFileDecoder.decode(path: paths[i]))
                    }
                }
            },
            Benchmark(
                "LoopVerifier verify (200 loops, parallel)", group: verifyGroup, target: 1.5, items: (200, "files"),
                prepare: prepareVerify
            ) {
                let paths = try verifyFiles()
                return {
                    let results = LoopVerifier.verify(paths: paths)
                    if results.contains(where: { $0.verdict == .error }) {
                        throw BenchmarkError("a loop could not be verified")
                    }
                    blackHole(results)
                }
            },
            Benchmark(
                "PyMusicLooper export-points --alt-export-top 5 (60 s, whole process)", group: findGroup,
                baseline: true, kind: .wholeProcess, prepare: prepareFind
            ) {
                let tool = venv + "/bin/pymusiclooper"
                guard access(tool, X_OK) == 0 else {
                    throw BenchmarkError(
                        "pip could not install pymusiclooper: \(PythonVenv.lastLine(Fixtures.directory + "/pymusiclooper-pip.log"))"
                    )
                }
                let path = try findFile()
                let out = Fixtures.directory + "/pymusiclooper-out"
                return {
                    try Subprocess.check([
                        tool, "export-points", "--path", path, "--alt-export-top", "5", "--export-to", "txt", "-o", out,
                    ])
                }
            },
            Benchmark(
                "enso loops find --top 5 (60 s, whole process)", group: findGroup, kind: .wholeProcess, target: 0.05,
                prepare: prepareFind
            ) {
                let enso = try StartupScenarios.ensoPath()
                let path = try findFile()
                return { try Subprocess.check([enso, "loops", "find", "--top", "5", path]) }
            },
            Benchmark("LoopFinder find incl. decode (60 s, in-process)", group: findGroup, prepare: prepareFind) {
                let path = try findFile()
                return {
                    let decoded = try AudioFileDecoder.decode(path: path)
                    let result = try LoopFinder.find(decoded.buffer, options: LoopFinder.Options(count: 5))
                    if result.candidates.isEmpty { throw BenchmarkError("no loop found") }
                    blackHole(result)
                }
            },
        ]
    }
}
