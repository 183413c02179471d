import CLISupport
import Testing

@Suite struct TextTableTests {
    @Test func alignsColumns() {
        var t = TextTable(headers: ["file", "score"], alignments: [.left, .right])
        t.append(["a.wav", "9.5"])
        t.append(["longer.wav", "10.25"])
        let lines = t.render().split(separator: "\n").map(String.init)
        #expect(lines[0] == "file        score")
        #expect(lines[2] == "a.wav         9.5")
        #expect(lines[3] == "longer.wav  10.25")
    }

    @Test func progressBarFitsWidth() {
        let line = ProgressBar.render(done: 5, total: 10, label: "verify", item: "a-very-long-file-name.wav", width: 30)
        #expect(line.count <= 29)
        #expect(line.hasPrefix("verify "))
    }
}
