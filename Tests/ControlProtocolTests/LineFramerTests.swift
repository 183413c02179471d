import AudioTestSupport
import Testing

@testable import ControlProtocol

@Suite struct LineFramerTests {
    private func lines(_ frames: [LineFramer.Frame]) -> [String] {
        frames.map {
            switch $0 {
            case .line(let b): String(decoding: b, as: UTF8.self)
            case .oversized(let n): "<oversized \(n)>"
            }
        }
    }

    @Test func splitsOnNewlinesDropsCarriageReturnsAndEmptyLines() {
        var f = LineFramer()
        #expect(lines(f.append(Array("a\nbb\r\n\n\r\ncc".utf8))) == ["a", "bb"])
        #expect(f.pendingByteCount == 2)
        #expect(lines(f.append(Array("c\n".utf8))) == ["ccc"])
        #expect(f.finish() == nil)
    }

    @Test func unterminatedLastLineIsReturnedAtTheEnd() {
        var f = LineFramer()
        #expect(f.append(Array("{\"command\":\"status\"}".utf8)).isEmpty)
        #expect(f.finish() == .line(Array("{\"command\":\"status\"}".utf8)))
    }

    @Test func chunkingDoesNotChangeTheFrames() {
        // Any split of the stream into chunks must give the same frames as one append.
        var rng = SeededRandom(seed: 7)
        let text =
            (0..<200).map { i in String(repeating: "x", count: Int(rng.next() % 40)) + "\(i)" }
            .joined(separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        var whole = LineFramer(limit: 30)
        let expected = whole.append(bytes)
        for _ in 0..<20 {
            var f = LineFramer(limit: 30)
            var got: [LineFramer.Frame] = []
            var i = 0
            while i < bytes.count {
                let n = min(bytes.count - i, 1 + Int(rng.next() % 17))
                got += f.append(bytes[i..<(i + n)])
                i += n
            }
            #expect(got.count == expected.count)
            // Oversized byte counts depend on where a chunk ended only through the limit, which is fixed.
            #expect(got == expected)
        }
    }

    @Test func oversizedLineIsReportedOnceAndTheNextLineSurvives() {
        var f = LineFramer()
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: LineFramer.maxLineBytes + 10)
        var frames = f.append(big[..<40_000])
        #expect(frames.isEmpty)
        frames = f.append(big[40_000...])
        #expect(frames == [.oversized(byteCount: LineFramer.maxLineBytes + 1)])
        #expect(f.isDiscarding)
        #expect(f.pendingByteCount == 0)
        frames = f.append(Array("more\n{\"command\":\"status\"}\n".utf8))
        #expect(lines(frames) == ["{\"command\":\"status\"}"])
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() {
        var f = LineFramer(limit: 8)
        #expect(lines(f.append(Array("12345678\r\n".utf8))) == ["12345678"])
        #expect(lines(f.append(Array("123456789\n".utf8))) == ["<oversized 9>"])
        #expect(lines(f.append(Array("ok\n".utf8))) == ["ok"])
    }
}
