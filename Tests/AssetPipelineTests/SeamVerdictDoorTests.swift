import Foundation
import Testing

/// Issue #42 item 2: outside AudioDSP, a loop seam's verdict is asked of the judgment side (``SeamRules/judge`` and
/// ``SeamRules/passes``), never of the measuring code: a source file of the package (Sources, Tools, Benchmarks,
/// Examples) that calls `SeamMetrics.measure` itself fails here, named with its line. And the measuring code holds
/// no verdict and no words: a seam metric source in AudioDSP with a string literal (other than a precondition's
/// message) or a status fails here.
@Suite struct SeamVerdictDoorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift files under `folder` of the package, as paths relative to its root.
    static func swiftFiles(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walk.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }

    @Test func noCallerAsksTheMeasuringCodeForAVerdict() throws {
        let files = ["Sources", "Tools", "Benchmarks", "Examples"].flatMap(Self.swiftFiles)
        #expect(files.contains("Sources/AssetPipeline/SeamRules+Judge.swift"), "the package's sources were not found")
        var offenders: [String] = []
        for file in files
        where !file.hasPrefix("Sources/AudioDSP/") && file != "Sources/AssetPipeline/SeamRules+Judge.swift" {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("SeamMetrics.measure(") {
                offenders.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(
            offenders.isEmpty, "ask SeamRules.judge / SeamRules.passes instead:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func theSeamMetricsMeasureWithoutWordsOrVerdicts() throws {
        let files = Self.swiftFiles(under: "Sources/AudioDSP").filter { $0.contains("/SeamMetrics") }
        #expect(files.count >= 7, "the seam metric sources were not found")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                // Comments, preconditions' messages and the metrics' JSON names (`case dcOffset = "dc-offset"`) aside.
                let jsonName = code.hasPrefix("case ") && code.contains(" = \"")
                guard !code.hasPrefix("//"), !code.hasPrefix("precondition("), !jsonName else { continue }
                if code.contains("\"") || code.contains("Status") || code.contains("threshold") {
                    offenders.append("\(file):\(number + 1): \(code)")
                }
            }
        }
        #expect(
            offenders.isEmpty,
            "words and verdicts belong to SeamRules (AssetPipeline):\n\(offenders.joined(separator: "\n"))")
    }
}
