import AudioCore
import AudioFile
import Foundation

/// The calibration corpus of real recordings (`../shared/corpus`, beside the package): its bell files and their
/// labels, read from its `manifest.json` (see the corpus README).
struct BellCorpus {
    /// One labelled bell or notification file.
    struct Entry: Decodable {
        var id: String
        var file: String
        var kind: String
        var label: String?
        var defects_expected: [String]?
        var defects_borderline: [String: String]?
    }

    /// `ENSO_CORPUS` when set (a work tree placed elsewhere), else `../shared/corpus` relative to the package root.
    static let root =
        ProcessInfo.processInfo.environment["ENSO_CORPUS"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// Whether the corpus is present (CI has it; a checkout without it skips the corpus tests).
    static var available: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.json").path)
    }

    /// The bell, notification and designed-defect files, in manifest order.
    static func bells() throws -> [Entry] {
        struct Manifest: Decodable { var files: [Entry] }
        let data = try Data(contentsOf: root.appendingPathComponent("manifest.json"))
        return try JSONDecoder().decode(Manifest.self, from: data).files
            .filter { ["bell", "notification", "bell-defect"].contains($0.kind) }
    }

    static func path(_ e: Entry) -> String { root.appendingPathComponent(e.file).path }
}
