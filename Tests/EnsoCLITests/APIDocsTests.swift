import AudioTestSupport
import Foundation
import Testing

/// Every library product has a DocC catalog that `make docs` converts; test and CLI support are not products.
@Suite("API docs")
struct APIDocsTests {
    static let repository = URL(fileURLWithPath: bundledAssets).deletingLastPathComponent().path

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    @Test func everyLibraryHasACatalogThatMakeDocsConverts() throws {
        let manifest = try String(contentsOfFile: Self.repository + "/Package.swift", encoding: .utf8)
        // The library products: one list of module names that Package.swift maps to `.library` products.
        let names = try Self.matches(#"products: \[([^\]]*)\]\.map \{ \.library"#, in: manifest).first ?? ""
        let libraries = try Self.matches(#""([A-Za-z]+)""#, in: names)
        #expect(libraries.count >= 8)
        #expect(!libraries.contains("CLISupport") && !libraries.contains("AudioTestSupport"))
        for module in libraries {
            let page = Self.repository + "/Sources/\(module)/Docs.docc/\(module).md"
            let text = try String(contentsOfFile: page, encoding: .utf8)
            #expect(text.hasPrefix("# ``\(module)``\n"), "\(page) does not open with the module's symbol")
            #expect(text.contains("## Overview") && text.contains("## Topics"), "\(page) lacks an overview or topics")
        }
        let makefile = try String(contentsOfFile: Self.repository + "/Makefile", encoding: .utf8)
        let listed = try Self.matches(#"DOC_MODULES := ([A-Za-z ]+)"#, in: makefile).first?.split(separator: " ").map(
            String.init)
        #expect(
            listed?.sorted() == libraries.sorted(), "make docs converts \(listed ?? []), the products are \(libraries)")
    }

    /// The library products in Package.swift, in its order.
    static func libraries() throws -> [String] {
        let manifest = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
        let names = try matches(#"products: \[([^\]]*)\]\.map \{ \.library"#, in: manifest).first ?? ""
        return try matches(#""([A-Za-z]+)""#, in: names)
    }

    /// README's "Enso as a Swift library" sorts every library product into stable or provisional, once; the
    /// consumer package in Examples/ uses stable products only; CHANGELOG.md's newest release is `enso --version`.
    @Test func theStableAPIIsSaidAndTheVersionAgrees() throws {
        let readme = try String(contentsOfFile: Self.repository + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Enso as a Swift library").dropFirst().first)
        let stable = try Self.matches(#"\*\*Stable\*\*: ([^\n]*)"#, in: section).first ?? ""
        let provisional = try Self.matches(#"\*\*Provisional\*\*: ([^\n]*)"#, in: section).first ?? ""
        let said = try (Self.matches(#"`([A-Za-z]+)`"#, in: stable) + Self.matches(#"`([A-Za-z]+)`"#, in: provisional))
        #expect(said.sorted() == (try Self.libraries()).sorted(), "README sorts \(said)")
        let consumer = try String(
            contentsOfFile: Self.repository + "/Examples/LibraryConsumer/Package.swift", encoding: .utf8)
        let used = try Self.matches(#"\.product\(name: "([A-Za-z]+)""#, in: consumer)
        #expect(!used.isEmpty && used.allSatisfy { stable.contains("`\($0)`") }, "the consumer uses \(used)")
        let changelog = try String(contentsOfFile: Self.repository + "/CHANGELOG.md", encoding: .utf8)
        let released = try Self.matches(#"\n## \[([0-9]+\.[0-9]+\.[0-9]+)\]"#, in: changelog).first
        let version = try ToolRunner.run("enso", ["--version"])
        #expect(released.map { "enso \($0)\n" } == version.stdout, "CHANGELOG \(released ?? "-"), \(version.stdout)")
    }
}
