import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

@Suite("AssetPack manifest")
struct AssetPackTests {
    static func sampleEntries() -> [AssetPack.Entry] {
        [
            AssetPack.Entry(
                id: "bowl", displayName: "Bowl", kind: .bell, file: "bells/bowl.flac", loop: nil,
                loudness: .init(integrated: -20.1, target: -20), licence: "CC0-1.0", command: "make-assets --seed 1"),
            AssetPack.Entry(
                id: "rain", displayName: "Rain", kind: .soundscape, file: "soundscapes/rain.flac",
                loop: LoopRegion(start: 0, end: 48_000), loudness: .init(integrated: -30, target: -30),
                licence: "CC0-1.0", command: "make-assets --seed 1"),
        ]
    }

    /// Writes `json` as a manifest in a fresh folder and loads it, returning the error message if it fails.
    static func loadError(_ json: String) -> String? {
        let dir = ToolRunner.temporaryDirectory("asset-pack")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        precondition(
            writeTestFile(dir + "/manifest.json", Data(json.utf8)),
            "cannot write a test fixture")
        do {
            _ = try AssetPack.load(directory: dir)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func roundTripsThroughTheManifestFile() throws {
        let dir = ToolRunner.temporaryDirectory("asset-pack")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pack = AssetPack(name: "Test", entries: Self.sampleEntries(), directory: dir)
        try pack.writeManifest()
        let loaded = try AssetPack.load(directory: dir)
        #expect(loaded.entries == pack.entries)
        #expect(loaded.name == "Test")
        #expect(loaded.entry(id: "rain")?.loop == LoopRegion(start: 0, end: 48_000))
        #expect(loaded.entries(kind: .bell).map(\.id) == ["bowl"])
        #expect(
            loaded.path(of: loaded.entries[0]) == URL(fileURLWithPath: dir).standardizedFileURL.path
                + "/bells/bowl.flac")
        // A bell's "no loop" is written as an explicit null, so the schema always shows the field.
        let text = String(decoding: pack.encodedManifest(), as: UTF8.self)
        #expect(text.contains("\"loop\": null"))
        // "key": value, as the CLI prints JSON (issue #48 §3), never "key" : value; a string's own " : " is kept.
        #expect(!text.contains("\" : "))
        let named = AssetPack(name: #"x " : y, {z}"#, entries: [], directory: dir)
        #expect(String(decoding: named.encodedManifest(), as: UTF8.self).contains(#""name": "x \" : y, {z}","#))
        #expect(pack.encodedManifest() == loaded.encodedManifest())
    }

    @Test func resolveNamesTheIdAndTheKnownOnes() throws {
        let pack = AssetPack(name: "Test", entries: Self.sampleEntries(), directory: "/packs/test")
        #expect(try pack.resolve(id: "bowl", kind: .bell).file == "bells/bowl.flac")
        let missing = #expect(throws: EnsoError.self) { try pack.resolve(id: "gong", kind: .bell) }
        #expect(missing?.message.contains("'gong'") == true)
        #expect(missing?.message.contains("known: bowl") == true)
        let wrongKind = #expect(throws: EnsoError.self) { try pack.resolve(id: "rain", kind: .bell) }
        #expect(wrongKind?.message.contains("is a soundscape, not a bell") == true)
    }

    @Test func missingFieldIsNamed() {
        let json = """
            {"schema": 1, "name": "x", "assets": [{"id": "a", "displayName": "A", "kind": "bell", "file": "a.flac",
             "loop": null, "gainDB": 0, "licence": "CC0-1.0", "command": "c"}]}
            """
        #expect(Self.loadError(json)?.contains("assets[0].loudness: missing") == true)
    }

    @Test func badKindIsNamed() {
        let json = """
            {"schema": 1, "name": "x", "assets": [{"id": "a", "displayName": "A", "kind": "gong", "file": "a.flac",
             "loop": null, "gainDB": 0, "loudness": {"integrated": -20, "target": -20}, "licence": "L", "command": "c"}]}
            """
        // Named with the kinds there are, not in the decoder's words ("Cannot initialize Kind from invalid String value").
        #expect(
            Self.loadError(json)?.hasSuffix("assets[0].kind: 'gong' is not a kind of asset: bell or soundscape")
                == true,
            "\(Self.loadError(json) ?? "")")
    }

    /// A value of the wrong type is named in JSON's words: "expected Double (Expected to decode Double but found a
    /// string instead.)" and "expected Int64" read as Swift, not as the file.
    @Test func aValueOfTheWrongTypeIsNamedInJSONsWords() {
        func manifest(gain: String, loop: String) -> String {
            """
            {"schema": 1, "name": "x", "assets": [{"id": "a", "displayName": "A", "kind": "bell", "file": "a.flac",
             "loop": \(loop), "gainDB": \(gain), "loudness": {"integrated": -20, "target": -20}, "licence": "L",
             "command": "c"}]}
            """
        }
        let gain = Self.loadError(manifest(gain: "\"loud\"", loop: "null"))
        #expect(gain?.hasSuffix("assets[0].gainDB: expected a number, found a string") == true, "\(gain ?? "")")
        let start = Self.loadError(manifest(gain: "0", loop: #"{"start": "x", "end": 9}"#))
        #expect(
            start?.hasSuffix("assets[0].loop.start: expected a whole number, found a string") == true, "\(start ?? "")")
        let name = Self.loadError(
            manifest(gain: "0", loop: "null").replacingOccurrences(of: #""name": "x""#, with: #""name": null"#))
        #expect(name?.hasSuffix("name: expected a string, found null") == true, "\(name ?? "")")
    }

    @Test func invalidValuesAreNamed() {
        var entries = Self.sampleEntries()
        entries[1].loop = LoopRegion(start: 20, end: 10)
        entries[0].file = "../outside.flac"
        entries.append(entries[0])
        let problems = AssetPack(name: "x", entries: entries, directory: "/tmp").validationProblems()
        #expect(problems.contains("assets[1].loop.end: 10 is not after start 20"))
        #expect(problems.contains { $0.hasPrefix("assets[0].file:") })
        #expect(problems.contains("assets[2].id: 'bowl' is already used by assets[0]"))
    }

    @Test func missingManifestAndBrokenJSONNameTheFile() {
        let dir = ToolRunner.temporaryDirectory("asset-pack")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = #expect(throws: EnsoError.self) { try AssetPack.load(directory: dir) }
        #expect(missing?.kind == .unavailable)
        #expect(missing?.message.contains("manifest.json") == true)
        #expect(Self.loadError("{\"schema\": 1,")?.contains("not valid JSON") == true)
        // Where a hand edit broke it: the line and column of the stray brace after a trailing comma.
        let broken = Self.loadError("{\n  \"schema\": 1,\n  \"assets\": [1,\n}")
        #expect(broken?.contains("manifest.json: not valid JSON at line 4, column 1") == true, "\(broken ?? "")")
    }

    @Test func directoryResolutionOrder() throws {
        #expect(try AssetPack.defaultDirectory(override: "/a/b", environment: ["ENSO_ASSETS": "/c"]) == "/a/b")
        #expect(try AssetPack.defaultDirectory(override: nil, environment: ["ENSO_ASSETS": "/c/d"]) == "/c/d")
        // With neither, the bundled pack of this checkout is found (above the test binary).
        let bundled = try AssetPack.defaultDirectory(override: nil, environment: ["XDG_DATA_DIRS": "/nonexistent"])
        #expect(bundled.hasSuffix("/Assets"))
        #expect(FileManager.default.fileExists(atPath: bundled + "/manifest.json"))
    }

    /// A pack folder with a manifest, for the search-path tests.
    private static func makePack(_ dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(#"{"schema": 1, "name": "p", "assets": []}"#.utf8).write(
            to: URL(fileURLWithPath: dir + "/manifest.json"))
    }

    @Test func searchPathGoesNextToTheBinaryThenXDG() throws {
        let root = ToolRunner.temporaryDirectory("asset-pack")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bin = root + "/prefix/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let env = ["HOME": root + "/home", "XDG_DATA_DIRS": root + "/sys1:relative/ignored:" + root + "/sys2"]
        let found: [String] = AssetPack.searchPath(environment: env, executableDirectory: bin)
        let nextToBinary: [String] = ["/prefix/bin/Assets", "/prefix/share/enso", "/prefix/Assets"].map { root + $0 }
        #expect(Array(found.prefix(3)) == nextToBinary)
        // ... then every folder above it, then the XDG folders (a relative XDG_DATA_DIRS entry is ignored).
        let xdg: [String] = ["/home/.local/share/enso", "/sys1/enso", "/sys2/enso"].map { root + $0 }
        #expect(Array(found.suffix(3)) == xdg)
        #expect(
            found.dropFirst(3).dropLast(3).allSatisfy {
                $0.hasSuffix("/Assets") && root.hasPrefix(String($0.dropLast(7)))
            })
        let noBinary: [String] = AssetPack.searchPath(
            environment: ["XDG_DATA_HOME": root + "/data"], executableDirectory: nil)
        #expect(noBinary == [root + "/data/enso", "/usr/local/share/enso", "/usr/share/enso"])
        func resolved() throws -> String { try AssetPack.defaultDirectory(environment: env, executableDirectory: bin) }
        // Nothing anywhere: the error names every folder looked in, and no build path of this machine.
        let none = #expect(throws: EnsoError.self) { try resolved() }
        #expect(none?.kind == .unavailable)
        #expect(none?.message.contains(root + "/sys2/enso") == true && none?.message.contains("/Sources/") == false)
        // Each folder, added from the last to the first, takes over.
        for dir in [
            root + "/sys2/enso", root + "/sys1/enso", root + "/home/.local/share/enso", root + "/prefix/Assets",
            root + "/prefix/share/enso", bin + "/Assets",
        ] {
            try Self.makePack(dir)
            #expect(try resolved() == dir)
        }
        // A pack the user names wins over all of them.
        #expect(
            try AssetPack.defaultDirectory(
                environment: env.merging(["ENSO_ASSETS": root + "/mine"]) { $1 }, executableDirectory: bin) == root
                + "/mine")
    }
}
