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

    /// A file name holding a newline or a tab (legal on Linux) would break its row over two lines and shift its
    /// columns; its escape keeps the row on one line, aligned.
    @Test func controlCharactersInACellAreShownAsEscapes() {
        var t = TextTable(headers: ["file", "verdict"])
        t.append(["new\nline\tx\u{7}.wav", "pass"])
        t.append(["plain ü.wav", "fail"])
        let lines = t.render().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[2] == #"new\nline\tx\x07.wav  pass"#)
        #expect(lines[3] == "plain ü.wav           fail")
        #expect(TextTable.printable("a\r\u{9B}b") == #"a\r\x9Bb"#)
    }

    /// Columns are measured in terminal columns: a Japanese name (two columns a character) and a combining accent
    /// (none) keep the next column straight; counted in characters, it started 5 columns late after 日本語 ループ.
    @Test func wideAndCombiningCharactersKeepTheColumnsStraight() {
        var t = TextTable(headers: ["file", "verdict"])
        t.append(["日本語 ループ.wav", "pass"])
        t.append(["cafe\u{301}.wav", "fail"])
        t.append(["plain-file-name-1.wav", "warn"])
        let lines = t.render(width: nil).split(separator: "\n").map(String.init)
        #expect(lines[2] == "日本語 ループ.wav      pass", "\(lines)")
        #expect(lines[3] == "cafe\u{301}.wav               fail", "\(lines)")
        #expect(lines[4] == "plain-file-name-1.wav  warn", "\(lines)")
        #expect(DisplayWidth.of("日本語") == 6 && DisplayWidth.of("e\u{301}") == 1 && DisplayWidth.of("abc") == 3)
        // Wrapped at a width in columns: no line wider than it, a word of 30 columns broken inside.
        var narrow = TextTable(headers: ["f", "why"])
        narrow.append(["a", "ループが切れる ループが切れる ループが切れるループが切れるル"])
        let wrapped = narrow.render(width: 23).split(separator: "\n").dropFirst(2)
        #expect(wrapped.count == 4, "\(wrapped)")
        for line in wrapped { #expect(DisplayWidth.of(line) <= 23, "\(line)") }
    }

    @Test func progressBarFitsWidth() {
        let line = ProgressBar.render(done: 5, total: 10, label: "verify", item: "a-very-long-file-name.wav", width: 30)
        #expect(line.count <= 29)
        #expect(line.hasPrefix("verify "))
    }
}

@Suite struct TextTableWidthTests {
    static func table() -> TextTable {
        var t = TextTable(headers: ["FILE", "VERDICT", "WHY"])
        t.append(["a.wav", "keep", "short"])
        t.append(["second-file.wav", "reject", "falls 40 dB in 5.5 s, as a bell rings, but the peak is clipped"])
        return t
    }

    @Test func wrapsTheLastColumnAtWordsWithinTheWidth() {
        let lines = Self.table().render(width: 50).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 50 }, "\(lines)")
        // The reason continues under its column, whole: nothing is cut.
        let column = lines[0].range(of: "WHY")!.lowerBound.utf16Offset(in: lines[0])
        let reason = lines[3...].map { String($0.dropFirst(column)) }.joined(separator: " ")
        #expect(reason == "falls 40 dB in 5.5 s, as a bell rings, but the peak is clipped")
        #expect(lines[4].prefix(column).allSatisfy { $0 == " " })
        #expect(lines[2] == "a.wav            keep     short")
    }

    /// A note under a table wraps at its spaces to the table's width, whole; without a width it stays one line.
    @Test func aNoteUnderTheTableWrapsToItsWidth() {
        let text = "LUFS: each file's integrated loudness; none (-) for a file shorter than one 400 ms block"
        let lines = TextTable.note(text, width: 30).split(separator: "\n").map(String.init)
        #expect(lines.count > 1 && lines.allSatisfy { $0.count <= 30 }, "\(lines)")
        #expect(lines.joined(separator: " ") == text)
        #expect(TextTable.note(text, width: nil) == text)
    }

    @Test func noWidthOrAWideOneKeepsEachRowOnOneLine() {
        let wide = Self.table().render(width: nil)
        #expect(wide.split(separator: "\n").count == 4)
        #expect(Self.table().render(width: 200) == wide)
    }

    @Test func aWidthTooSmallForTheOtherColumnsKeepsTheLastOneReadable() {
        let lines = Self.table().render(width: 10).split(separator: "\n").map(String.init)
        let column = lines[0].range(of: "WHY")!.lowerBound.utf16Offset(in: lines[0])
        #expect(lines.allSatisfy { $0.count <= column + TextTable.minimumWrapWidth }, "\(lines)")
        #expect(lines.count > 4)
    }

    /// The bells table at 100 columns: the text columns before the last narrow too (widest first), a path
    /// breaks after a `-` or `/`, a list after a `,`; numbers keep their width; nothing is cut.
    @Test func textColumnsBeforeTheLastNarrowWidestFirst() {
        var t = TextTable(
            headers: ["#", "FILE", "SCORE", "DEFECTS", "WHY"], alignments: [.right, .left, .right, .left, .left])
        let row = [
            "1", "candidates/a-rather-long-name.wav", "92", "true-peak,truncated-tail", "far too short for a bell",
        ]
        t.append(row)
        let lines = t.render(width: 60).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        #expect(lines[2].contains("  92  "))
        let kept = lines.dropFirst(2).joined().filter { !$0.isWhitespace }
        #expect(kept.sorted() == row.joined().filter { !$0.isWhitespace }.sorted())
        #expect(lines.contains { $0.contains("true-peak,") && !$0.contains("true-peak,t") }, "\(lines)")
        #expect(lines.contains { $0.contains("candidates/a-") && !$0.contains("candidates/a-r") }, "\(lines)")
    }

    @Test func aWordLongerThanTheColumnIsSplit() {
        var t = TextTable(headers: ["#", "WHY"])
        t.append(["1", String(repeating: "x", count: 45)])
        let lines = t.render(width: 23).split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines.allSatisfy { $0.count <= 23 }, "\(lines)")
    }
}
