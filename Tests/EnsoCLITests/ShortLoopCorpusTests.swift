import AudioTestSupport
import Foundation
import Testing

/// Short loops made with sox from corpus ambiences (issue #43 §6): an excerpt of 0.2–0.8 s baked into a seamless
/// loop passes `loops verify` with its level and dips judged; the same loop gliding 6 dB down to its end (a step at
/// the seam alone) fails on the level step. Noise beds are the hard case: their waveform jumps at every sample, so
/// `continuity` cannot see a level step and the level metric must.
@Suite(.enabled(if: Sox.path != nil && LoopCorpus.path != nil, "needs sox and the corpus (ENSO_CORPUS)"))
struct ShortLoopCorpusTests {
    let fixture = CLIFixture("short-loops")
    var dir: String { fixture.dir }

    struct Row: Decodable {
        struct Metric: Decodable {
            var name: String
            var value: Double?
            var status: String
        }
        var verdict: String
        var metrics: [Metric]
        var reasons: [String]
        func metric(_ name: String) -> Metric? { metrics.first { $0.name == name } }
    }

    func sox(_ arguments: [String]) throws {
        let r = try ToolRunner.run(Sox.path!, arguments)
        #expect(r.exitCode == 0, "sox \(arguments): \(r.stderr)")
    }

    func verify(_ file: String) throws -> Row {
        let r = try ToolRunner.run("enso", ["loops", "verify", "--json", file])
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        return try #require(rows.first, "\(r.stdout) \(r.stderr)")
    }

    /// A seamless loop of `seconds` baked from `base` (0.5 s in): an excerpt with a sidecar loop, through `loops bake`.
    func baked(_ base: String, _ seconds: Double) throws -> String {
        let raw = dir + "/raw-\(base)-\(seconds).wav"
        // Both corpus bases are 44.1 kHz; exact frame counts (sox's `s` suffix), which the sidecar must match.
        let rate = 44_100
        let frames = Int((seconds + 0.3) * Double(rate))
        try sox([LoopCorpus.path! + "/loops/ambient/\(base).ogg", raw, "trim", "22050s", "\(frames)s"])
        let sidecar = """
            {"version": 1, "file": "\((raw as NSString).lastPathComponent)", "sampleRate": \(rate), \
            "frames": \(frames), "loop": {"start": 0, "end": \(Int((seconds * Double(rate)).rounded()))}}
            """
        try sidecar.write(toFile: raw + ".loop.json", atomically: true, encoding: .utf8)
        let out = dir + "/loop-\(base)-\(seconds).wav"
        try CLIFixture.succeeds(["loops", "bake", raw, out])
        return out
    }

    @Test(
        "baked short loops pass with level and dips judged; a 6 dB step at their seam fails on level",
        arguments: ["ufo-tv-static", "ufo-wind-turbine"])
    func shortExcerpts(base: String) throws {
        for seconds in [0.2, 0.47, 0.8] {
            let loop = try baked(base, seconds)
            let row = try verify(loop)
            #expect(row.verdict != "fail", "\(base) \(seconds) s: \(row.reasons)")
            #expect(row.metric("level")?.value != nil && row.metric("dip")?.value != nil, "\(row.reasons)")
            #expect(!row.reasons.contains { $0.contains("too short") }, "\(base) \(seconds) s: \(row.reasons)")
            let name = (loop as NSString).deletingPathExtension
            // A glide from 0 to −6 dB over the loop (the loop mixed half and half with itself faded out): a 6 dB step
            // at the seam alone.
            try sox([loop, name + "-fade.wav", "fade", "t", "0", "\(seconds)", "\(seconds)"])
            try sox(["-m", "-v", "0.5", loop, "-v", "0.5", name + "-fade.wav", name + "-ramp.wav"])
            let r = try verify(name + "-ramp.wav")
            #expect(r.metric("level")?.status == "fail", "\(base) \(seconds) s: \(r.reasons)")
        }
    }
}

/// The calibration corpus, when present.
enum LoopCorpus {
    /// The corpus folder: `ENSO_CORPUS`, else `../shared/corpus` beside the package.
    static let path: String? = {
        let env = ProcessInfo.processInfo.environment["ENSO_CORPUS"]
        let beside = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        return [env, beside].compactMap { $0 }.first {
            FileManager.default.fileExists(atPath: $0 + "/loops/ambient/ufo-tv-static.ogg")
        }
    }()
}
