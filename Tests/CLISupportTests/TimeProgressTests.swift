import Foundation
import Synchronization
import Testing

@testable import CLISupport

@Suite struct TimeProgressTests {
    @Test func barShowsTimeDoneTotalAndSpeed() {
        let line = TimeProgress.barLine(label: "render", done: 754, total: 2424, speed: 610.4, width: 120)
        #expect(line.hasSuffix(" 12:34 / 40:24  610×"), "\(line)")
        #expect(line.hasPrefix("render " + String(repeating: "█", count: 7) + "░"))
        // An hour or more shows hours on both sides; a slow render shows a tenth.
        #expect(
            TimeProgress.barLine(label: "r", done: 61, total: 3600, speed: 2.25, width: 120).hasSuffix(
                " 0:01:01 / 1:00:00  2.2×"))
        #expect(TimeProgress.barLine(label: "render", done: 1, total: 2, speed: 1, width: 20).count == 19)
    }

    @Test func jsonLinesComeAtMostFourASecondAndEndAtTheTotal() throws {
        let now = Mutex(100.0)
        let lines = Mutex<[String]>([])
        let progress = TimeProgress(
            mode: .json, label: "render", totalSeconds: 600, clock: { now.withLock { $0 } },
            write: { text in lines.withLock { $0.append(text) } })
        // 100 media seconds per wall second, updated every 1/64 s of wall time (exact in binary) for 2 s.
        for step in 1...128 {
            now.withLock { $0 = 100 + Double(step) / 64 }
            progress.update(doneSeconds: Double(step) * 100 / 64)
        }
        progress.finish()
        let all = lines.withLock { $0 }
        #expect(all.count == 9, "\(all.count) lines")  // at 1/64 s, then every 16/64 s up to 113/64 s, and the last
        let objects = try all.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Double])
        }
        #expect(objects.allSatisfy { $0["total"] == 600 })
        #expect(objects[1]["done"] == 26.6 && objects[1]["speed"] == 100 && objects[1]["fraction"] == 0.044)
        #expect(objects.last?["done"] == 600 && objects.last?["fraction"] == 1)
        #expect(all.allSatisfy { $0.hasSuffix("}\n") && $0.hasPrefix("{") })
    }

    @Test func abandonedJSONProgressClaimsNoEnd() {
        let lines = Mutex<[String]>([])
        let progress = TimeProgress(
            mode: .json, label: "r", totalSeconds: 10, write: { t in lines.withLock { $0.append(t) } })
        progress.update(doneSeconds: 3)
        progress.abandon()
        #expect(lines.withLock { $0 }.count == 1)
        #expect(lines.withLock { $0 }.first?.contains("\"done\":3") == true)
    }
}
