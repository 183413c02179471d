/// An aligned text table: a header row, a rule, then rows; numbers right-aligned.
///
/// A table wider than the width it is given (``render(width:)``; ``render()`` asks ``Terminal/tableWidth``) narrows
/// its text (left-aligned) columns, the widest first, and wraps their cells onto continuation lines inside the
/// column: at spaces, else after a `/`, `,` or `-`, else anywhere. Nothing is cut, so a reason or a path reads whole;
/// numbers keep their width. The last column (WHY, REASON: the sentence) never narrows below
/// ``minimumWrapWidth`` characters and the others below ``minimumColumnWidth``, so a width too small for those gives
/// lines longer than it rather than a column of single letters.
///
/// A control character in a cell (a newline or a tab in a file name) is shown as its escape (``printable(_:)``), as
/// `ls -b` shows it: a row stays on its own lines and its columns stay aligned.
public struct TextTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    /// The narrowest the wrapped last column gets: three or four words of a reason still read as a phrase.
    public static let minimumWrapWidth = 20
    /// The narrowest another text column gets: a file name or a class still reads in pieces of 10.
    public static let minimumColumnWidth = 10

    public var headers: [String]
    public var alignments: [Alignment]
    public var rows: [[String]] = []

    public init(headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .left }
    }

    public mutating func append(_ row: [String]) {
        precondition(row.count == headers.count, "row has \(row.count) cells, table has \(headers.count) columns")
        rows.append(row.map(Self.printable))
    }

    /// `text` with each control character (C0, DEL and C1) written as its escape: `\n`, `\r`, `\t`, else `\xHH`.
    /// Every other character is kept as it is.
    public static func printable(_ text: String) -> String {
        func isControl(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || (0x7F...0x9F).contains(u.value) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for u in text.unicodeScalars {
            guard isControl(u) else {
                out.unicodeScalars.append(u)
                continue
            }
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let hex = String(u.value, radix: 16, uppercase: true)
                out += "\\x" + String(repeating: "0", count: max(0, 2 - hex.count)) + hex
            }
        }
        return out
    }

    /// The table fitted to the output's width: `$COLUMNS` when set, else the terminal's; unlimited when stdout is
    /// a pipe or a file and `COLUMNS` is not set (``Terminal/tableWidth``).
    public func render() -> String { render(width: Terminal.tableWidth) }

    /// A note to print under a table, fitted to the same width (``Terminal/tableWidth`` by default): broken at
    /// spaces into lines of at most `width` columns, as the table's cells are; as it is when `width` is nil (a pipe or
    /// a file without `COLUMNS`, where a script reads each line whole).
    public static func note(_ text: String, width: Int? = Terminal.tableWidth) -> String {
        guard let width, width > 0 else { return text }
        return wrap(text, width: width).joined(separator: "\n")
    }

    /// The table as text, columns separated by two spaces, no trailing spaces; lines no longer than `width`
    /// (when given) by wrapping text columns, as the type's discussion says.
    public func render(width: Int?) -> String {
        // Widths in terminal columns (``DisplayWidth``: a CJK character takes two).
        var widths = headers.map { DisplayWidth.of($0) }
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        if let width { widths = Self.fitted(widths, alignments: alignments, headers: headers, to: width) }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: max(widths[i] - DisplayWidth.of(cell), 0))
                parts.append(alignments[i] == .right ? pad + cell : cell + pad)
            }
            var s = parts.joined(separator: "  ")
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
        func lines(_ cells: [String]) -> [String] {
            let pieces = cells.enumerated().map { i, cell in
                DisplayWidth.of(cell) > widths[i] ? Self.wrap(cell, width: widths[i]) : [cell]
            }
            let height = pieces.map(\.count).max() ?? 1
            return (0..<height).map { k in line(pieces.map { k < $0.count ? $0[k] : "" }) }
        }
        var out = [line(headers), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        for row in rows { out += lines(row) }
        return out.joined(separator: "\n")
    }

    /// `widths` narrowed until the table fits `width`: the widest text column loses a character at a time (the
    /// rightmost of equals), down to its floor (``minimumWrapWidth`` for the last, ``minimumColumnWidth`` for the
    /// others, or its own width when smaller; never below its header).
    static func fitted(_ widths: [Int], alignments: [Alignment], headers: [String], to width: Int) -> [Int] {
        var widths = widths
        let last = widths.count - 1
        let floors = widths.indices.map { i in
            max(headers[i].count, min(widths[i], i == last ? minimumWrapWidth : minimumColumnWidth))
        }
        var total = widths.reduce(0, +) + 2 * max(last, 0)
        while total > width {
            let narrowable = widths.indices.filter { alignments[$0] == .left && widths[$0] > floors[$0] }
            guard let widest = narrowable.max(by: { (widths[$0], $0) < (widths[$1], $1) }) else { break }
            widths[widest] -= 1
            total -= 1
        }
        return widths
    }

    /// `text` in lines of at most `width` columns (``DisplayWidth``): broken at spaces; a word longer than `width`
    /// after its last `/`, `,` or `-` that fits, else at `width`.
    static func wrap(_ text: String, width: Int) -> [String] {
        var result: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(word)
            if !current.isEmpty && DisplayWidth.of(current) + 1 + DisplayWidth.of(word) <= width {
                current += " " + word
                continue
            }
            if !current.isEmpty { result.append(current) }
            current = ""
            while DisplayWidth.of(word) > width {
                // The longest head that fits (at least one character).
                var fits = word.startIndex
                var used = 0
                for i in word.indices {
                    let w = DisplayWidth.of(String(word[i]))
                    if used + w > width && fits > word.startIndex { break }
                    used += w
                    fits = word.index(after: i)
                }
                let head = word[..<fits]
                let cut = head.lastIndex { "/,-".contains($0) }.map { head.index(after: $0) } ?? head.endIndex
                result.append(String(word[..<cut]))
                word = word[cut...]
            }
            current = String(word)
        }
        if !current.isEmpty || result.isEmpty { result.append(current) }
        return result
    }
}
