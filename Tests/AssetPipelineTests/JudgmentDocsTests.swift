import Foundation
import Testing

@testable import AssetPipeline

/// The rule tables of docs/bells.md are the registries' rows, in the registries' order: a rule added, removed,
/// reordered or given another threshold, severity, fix or principle without its docs row fails here (as
/// `ProtocolDocsTests` does for docs/protocol.md). On failure the expected table is printed, ready to paste.
@Suite struct JudgmentDocsTests {
    static func docs(_ name: String) -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/\(name)"), encoding: .utf8)) ?? ""
    }

    /// The rows of the first table under `heading` (its header and separator lines left out).
    static func tableRows(in text: String, under heading: String) -> [String] {
        guard let start = text.range(of: "\n" + heading + "\n") else { return [] }
        var rows: [String] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { break }
            if line.hasPrefix("|") { rows.append(String(line)) } else if !rows.isEmpty { break }
        }
        return Array(rows.dropFirst(2))
    }

    static func expectTable(_ expected: [String], in file: String, under heading: String) {
        let found = tableRows(in: docs(file), under: heading)
        let message = "docs/\(file) under \"\(heading)\" disagrees with the registry; it should read:\n"
        #expect(found == expected, Comment(rawValue: message + expected.joined(separator: "\n")))
    }

    @Test func bellDefectTableIsTheRegistry() {
        Self.expectTable(BellDefectRules.all.flatMap(\.docsRows), in: "bells.md", under: "## Defects (`BellDefect`)")
    }

    @Test func bellClassTableIsTheRegistry() {
        let rows = BellClassRules.all.enumerated().map { $1.docsRow($0 + 1) }
        Self.expectTable(
            rows, in: "bells.md", under: "## Class (`BellClass`): decay first, then the figure, never brightness")
    }

    @Test func seamMetricTableIsTheRegistry() {
        let rows = SeamRules.all.enumerated().map { $1.docsRow($0 + 1) }
        Self.expectTable(rows, in: "loops.md", under: "### The file's own reference: robust statistics, not maxima")
    }

    @Test func packCheckTableIsTheRegistry() {
        Self.expectTable(
            PackRules.all.map(\.docsRow), in: "assets.md", under: "## `enso assets check`: what is checked")
    }
}
