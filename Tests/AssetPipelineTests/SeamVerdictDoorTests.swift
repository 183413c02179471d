import Foundation
import Testing

/// Issue #42 item 2: outside AudioDSP, a loop seam's verdict is asked of the judgment side (``SeamRules/judge`` and
/// ``SeamRules/passes``), never of the measuring code, so the limits, statuses and notes can move out of AudioDSP
/// by changing one file. A source file of the package (Sources, Tools, Benchmarks, Examples) that calls
/// `SeamMetrics.analyze` or `SeamMetrics.passes` itself fails here, named with its line.
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
            where line.contains("SeamMetrics.analyze(") || line.contains("SeamMetrics.passes(") {
                offenders.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(
            offenders.isEmpty, "ask SeamRules.judge / SeamRules.passes instead:\n\(offenders.joined(separator: "\n"))")
    }
}
