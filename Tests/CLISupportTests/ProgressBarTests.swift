import Foundation
import Synchronization
import Testing

@testable import CLISupport

/// ``ProgressBar``: files done of the total, the rate and the time left; `--progress json` in render's schema,
/// counted in files. Time is moved by hand.
@Suite struct ProgressBarTests {
    @Test func barShowsFilesRateAndTimeLeft() {
        let line = ProgressBar.render(
            done: 120, total: 3000, label: "auditioning", item: "b07.wav", width: 200, rate: 4.24, secondsLeft: 686)
        #expect(line.hasSuffix(" 120/3000  4.2/s  11:26 left b07.wav"), "\(line)")
        // A fast batch shows whole files a second; an hour or more left shows hours.
        #expect(
            ProgressBar.render(
                done: 10, total: 100_000, label: "v", item: "", width: 200, rate: 52.6, secondsLeft: 7200
            )
            .hasSuffix(" 10/100000  53/s  2:00:00 left"))
        // Before the first file, neither (no rate to read yet).
        #expect(ProgressBar.render(done: 0, total: 5, label: "v", item: "", width: 200).hasSuffix(" 0/5"))
    }

    @Test func jsonLinesCountFilesAtMostFourASecondAndEndWithTheCount() throws {
        let now = Mutex(50.0)
        let lines = Mutex<[String]>([])
        let bar = ProgressBar(
            total: 40, label: "auditioning", mode: .json, clock: { now.withLock { $0 } },
            write: { text in lines.withLock { $0.append(text) } })
        // 4 files a second for 10 s: one every 1/4 s... and four at once at 1/16 s steps, to be thinned.
        for step in 1...160 {
            now.withLock { $0 = 50 + Double(step) / 16 }
            if step % 4 == 0 { bar.advance() }
        }
        bar.finish()
        let all = lines.withLock { $0 }
        let objects = try all.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Double])
        }
        #expect(objects.count == 41, "\(objects.count) lines")  // every advance is 1/4 s apart, then the last
        #expect(objects.allSatisfy { $0["total"] == 40 } && objects[1]["done"] == 2 && objects[1]["speed"] == 4)
        #expect(objects.last?["done"] == 40 && objects.last?["fraction"] == 1)
        // The same schema as render's progress, counted in files.
        #expect(objects.allSatisfy { Set($0.keys) == ["done", "fraction", "speed", "total"] })
    }

    @Test func noneWritesNothingAndBarStaysOffATerminal() {
        let lines = Mutex<[String]>([])
        for mode in [TimeProgress.Mode.none, .bar] {
            let bar = ProgressBar(
                total: 3, label: "x", mode: mode, onTerminalOnly: true, clock: { 0 },
                write: { text in lines.withLock { $0.append(text) } })
            bar.advance()
            bar.finish()
        }
        // The test's stderr is not a terminal, so the bar is off as well.
        #expect(Terminal.stderrIsTerminal || lines.withLock { $0.isEmpty })
    }
}
