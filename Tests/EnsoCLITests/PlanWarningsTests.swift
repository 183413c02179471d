import AudioCore
import AudioFile
import AudioTestSupport
import ControlProtocol
import Foundation
import Testing

/// `enso plan`, `play` and `render` say when the plan asks for an interval bell that will never ring, and
/// `plan --json` shows an open end as the docs do (`"endFrame": null`).
@Suite struct PlanWarningsTests {
    let fixture = CLIFixture("plan-warnings")
    var dir: String { fixture.dir }

    @Test func intervalTimesThatNeverRingAreWarnedAbout() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let base = ["plan", "--bell", bell, "--sit", "20s", "--strikes", "1"]
        // 25 s is past the 20 s sitting; 19.5 s with 2 strikes 3 s apart runs into the closing bell; 10 s rings.
        let r = try CLIFixture.succeeds(
            base + ["--interval-at", "25s,19.5s,10s", "--interval-strikes", "2", "--spacing", "3"])
        #expect(r.stderr.contains("Warning: --interval-at 25 s never rings: it is past the end of the sitting (20 s)"))
        #expect(
            r.stderr.contains(
                "Warning: --interval-at 19.5 s never rings: its 2 strikes would run into the strikes that end the sitting at 20 s"
            ), "\(r.stderr)")
        #expect(!r.stderr.contains("10 s never rings"))
        let every = try CLIFixture.succeeds(base + ["--interval", "30s"])
        #expect(every.stderr.contains("Warning: --interval 30 s never rings"), "\(every.stderr)")
        let fine = try CLIFixture.succeeds(base + ["--interval", "5s"])
        #expect(!fine.stderr.contains("never rings"))
        // The JSON carries them too, in the CLI's words.
        let json = try CLIFixture.succeeds(base + ["--interval-at", "25s", "--json"])
        let report = try JSONDecoder().decode(PlanReport.self, from: Data(json.stdout.utf8))
        #expect(report.warnings == ["--interval-at 25 s never rings: it is past the end of the sitting (20 s)"])
        // render says so as well.
        let render = try CLIFixture.succeeds([
            "render", "--bell", bell, "--sit", "20s", "--strikes", "1", "--interval-at", "25s", "-o",
            dir + "/out.wav", "--progress", "none",
        ])
        #expect(render.stderr.contains("--interval-at 25 s never rings"))
    }

    @Test func aPlanThatRepeatsForeverHasANullEnd() throws {
        let bell = try PlanCommandTests.makeImpulseBell(in: dir)
        let r = try CLIFixture.succeeds(["plan", "--bell", bell, "--sit", "1m", "--repeat", "forever", "--json"])
        #expect(r.stdout.contains("\"endFrame\" : null") || r.stdout.contains("\"endFrame\": null"), "\(r.stdout)")
        #expect(r.stdout.contains("\"duration\" : null") || r.stdout.contains("\"duration\": null"))
        #expect(r.stdout.contains("\"cycles\" : null") || r.stdout.contains("\"cycles\": null"))
        #expect(!r.stdout.contains("\"warnings\""))
    }
}
