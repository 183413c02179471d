import AudioTestSupport
import Foundation
import Testing

/// `assets check` checks its assets on the one batch runner (issue 44 §1): `--jobs` changes how many at once,
/// never what is printed (the report keeps the manifest's order).
@Suite struct AssetsCheckJobsTests {
    @Test func oneJobAndTwoPrintTheSame() throws {
        // Three assets, one failing its loudness, so the report has findings as well as rows.
        let dir = try AssetsCommandTests.pack(["singing-bowl", "soft-chime", "rain"]) { entry in
            guard entry["id"] as? String == "soft-chime" else { return }
            var loudness = entry["loudness"] as? [String: Any] ?? [:]
            loudness["target"] = -18
            entry["loudness"] = loudness
        }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for extra in [[], ["--json"]] {
            let one = try ToolRunner.run(
                "enso", ["assets", "check", dir, "--jobs", "1"] + extra, environment: ["COLUMNS": "200"])
            let two = try ToolRunner.run(
                "enso", ["assets", "check", dir, "--jobs", "2"] + extra, environment: ["COLUMNS": "200"])
            #expect(one.exitCode == 1, "\(one.stderr)")
            #expect(two.exitCode == one.exitCode, "\(two.stderr)")
            #expect(one.stdout == two.stdout)
            #expect(one.stderr == two.stderr)
            #expect(one.stdout.contains("soft-chime"), "\(one.stdout)")
        }
        let bad = try ToolRunner.run("enso", ["assets", "check", dir, "--jobs", "0"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--jobs 0 is outside"), "\(bad.stderr)")
    }
}
