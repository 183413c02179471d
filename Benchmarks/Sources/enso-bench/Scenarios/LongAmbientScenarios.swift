import Foundation
import Glibc

/// A long ambient streamed from disk (issue #46): `enso render` of a 60 s session whose theme is a 3-hour stereo
/// 48 kHz FLAC with a crossfade at 30 s into another 3-hour one, beside the same session with two 100 s themes
/// (under the 2 min limit: loaded whole). What matters is the peak RSS column (the goal: at most 150 MB streamed, a
/// loaded 3-hour theme would need 4 GB); the time shows the start-up is not a decode of the file.
enum LongAmbientScenarios {
    /// A `seconds`-long stereo 48 kHz FLAC of sox's `noise` (brownnoise, pinknoise), made once with sox.
    static func soxFLAC(_ name: String, seconds: Int, noise: String) throws -> String {
        let path = Fixtures.directory + "/\(name)-\(seconds)s.flac"
        if access(path, R_OK) == 0 { return path }
        guard let sox = Subprocess.which("sox") else {
            throw BenchmarkError("sox synthesises the long FLAC themes of this group: apt-get install sox")
        }
        let partial = path + ".partial.flac"
        try Subprocess.check([
            sox, "-n", "-r", "48000", "-c", "2", "-b", "16", partial, "synth", "\(seconds)", noise, "vol", "0.2",
        ])
        guard rename(partial, path) == 0 else { throw BenchmarkError("cannot rename \(partial)") }
        return path
    }

    /// `enso render` of the 60 s session with `first` and a crossfade at 30 s into `second`, the seam fix off
    /// unless `seamFix` (then each theme's seam window is read, judged and, brown noise failing, baked at load).
    static func render(_ first: String, _ second: String, seamFix: Bool = false) throws -> () throws -> Void {
        let enso = try StartupScenarios.ensoPath()
        let out = Fixtures.folder("long-ambient") + "/session.flac"
        return {
            try Subprocess.check(
                [
                    enso, "render", "-o", out, "--sit", "60s", "--strikes", "1", "--ambient", first, "--theme-at",
                    "30s=\(second)",
                ] + (seamFix ? [] : ["--no-seam-fix"]))
        }
    }

    /// A 3 min stereo 48 kHz theme: over the 2 min limit, so `enso serve` streams it.
    static func streamedTheme() throws -> String { try Fixtures.file(.wav16, seconds: 180, rate: 48_000) }

    /// `enso serve` (null output) starting a session on a streamed theme no run has loaded (a fresh copy), after a
    /// `prefetch` of it when `prefetch`: the send to the session's first frame heard (the theme's first frame is
    /// the session's: no fade-in), as the server's output clock reports it. The bell is loaded once, before.
    static func firstAudible(prefetch: Bool, seamFix: Bool) throws -> () throws -> Double {
        let s = try ServeLoadingScenarios.Session()
        let bell = try s.freshCopy(try s.bellFixture)
        _ = try s.a.request(#""command":"prefetch","bells":["\#(bell)"]"#)
        return {
            let theme = try s.freshCopy(try streamedTheme())
            if prefetch {
                _ = try s.a.request(#""command":"prefetch","themes":["\#(theme)"],"seamFix":\#(seamFix)"#)
            }
            return try s.start((bell, theme), seamFix: seamFix).audible
        }
    }

    static var all: [Benchmark] {
        let first = "Long ambient: enso serve start on a 3 min streamed theme, send to first audible frame (goal 0.1 s)"
        let audible = [
            Benchmark.measured(
                "cold, seam fix on (its 20 s window read and judged at load)", group: first, baseline: true,
                prepare: { _ = try streamedTheme() }
            ) { try firstAudible(prefetch: false, seamFix: true) },
            Benchmark.measured("cold, seam fix off", group: first, prepare: { _ = try streamedTheme() }) {
                try firstAudible(prefetch: false, seamFix: false)
            },
            Benchmark.measured("after prefetch, seam fix on", group: first, prepare: { _ = try streamedTheme() }) {
                try firstAudible(prefetch: true, seamFix: true)
            },
        ]
        let group = "Long ambient: enso render, 60 s session, theme crossfade at 30 s (peak RSS is the figure)"
        let hours = 3 * 3600
        return [
            Benchmark(
                "loaded: two 100 s stereo 48 kHz FLAC themes", group: group, baseline: true, kind: .wholeProcess,
                prepare: {
                    _ = try soxFLAC("brown", seconds: 100, noise: "brownnoise")
                    _ = try soxFLAC("pink", seconds: 100, noise: "pinknoise")
                }
            ) {
                try render(
                    soxFLAC("brown", seconds: 100, noise: "brownnoise"),
                    soxFLAC("pink", seconds: 100, noise: "pinknoise"))
            },
            Benchmark(
                "streamed: two 3 h stereo 48 kHz FLAC themes", group: group, kind: .wholeProcess,
                prepare: {
                    _ = try soxFLAC("brown", seconds: hours, noise: "brownnoise")
                    _ = try soxFLAC("pink", seconds: hours, noise: "pinknoise")
                }
            ) {
                try render(
                    soxFLAC("brown", seconds: hours, noise: "brownnoise"),
                    soxFLAC("pink", seconds: hours, noise: "pinknoise"))
            },
            Benchmark(
                "streamed with the seam fix: two 3 h stereo 48 kHz FLAC themes", group: group, kind: .wholeProcess,
                prepare: {
                    _ = try soxFLAC("brown", seconds: hours, noise: "brownnoise")
                    _ = try soxFLAC("pink", seconds: hours, noise: "pinknoise")
                }
            ) {
                try render(
                    soxFLAC("brown", seconds: hours, noise: "brownnoise"),
                    soxFLAC("pink", seconds: hours, noise: "pinknoise"), seamFix: true)
            },
        ] + audible
    }
}
