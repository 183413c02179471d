import AudioFile
import AudioTestSupport
import Foundation
import Synchronization
import Testing

/// The bundled pack of this checkout (`Assets/`), found from this file's location.
let bundledAssets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets").path

@Suite("enso assets")
struct AssetsCommandTests {
    /// A pack folder holding `ids` of the bundled pack (files symlinked), with `edit` applied to each
    /// manifest entry (a JSON object).
    static func pack(_ ids: [String], edit: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        let dir = ToolRunner.temporaryDirectory("assets-cli")
        let data = try Data(contentsOf: URL(fileURLWithPath: bundledAssets + "/manifest.json"))
        var manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var assets = try #require(manifest["assets"] as? [[String: Any]]).filter {
            ids.contains($0["id"] as? String ?? "")
        }
        for i in assets.indices {
            let file = try #require(assets[i]["file"] as? String)
            let folder = (dir + "/" + file as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: dir + "/" + file, withDestinationPath: bundledAssets + "/" + file)
            edit(&assets[i])
        }
        manifest["assets"] = assets
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: dir + "/manifest.json"))
        return dir
    }

    @Test func bundledPackPassesEveryCheck() throws {
        let dir = ToolRunner.temporaryDirectory("assets-cli")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run(
            "enso", ["assets", "check", bundledAssets, "--html", dir + "/report.html", "--link", "Bells=bells.html"])
        #expect(r.exitCode == 0, "\(r.stdout)\n\(r.stderr)")
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        #expect(html.contains("<section class=\"card pass\" id=\"temple-bell\">"))
        #expect(html.contains("seam:continuity"))
        #expect(html.contains("<a href=\"bells.html\">Bells</a>"))
        #expect(r.stdout.contains("7 assets, 0 failing: pack OK"))
        for id in ["singing-bowl", "temple-bell", "soft-chime", "rain", "hearth", "forest", "stream"] {
            #expect(r.stdout.contains(id))
        }
    }

    @Test func listUsesEnsoAssetsAndFiltersByKind() throws {
        let r = try ToolRunner.run(
            "enso", ["assets", "list", "--kind", "bell", "--json"], environment: ["ENSO_ASSETS": bundledAssets])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(entries.compactMap { $0["id"] as? String } == ["singing-bowl", "temple-bell", "soft-chime"])
        // The protocol's names (docs/protocol.md, `assets`): a front end reads one shape from either.
        let keys = Set(try #require(entries.first).keys)
        #expect(
            keys == [
                "id", "name", "kind", "file", "durationSeconds", "loopSeconds", "loudnessLUFS", "licence",
            ], "\(keys.sorted())")
        #expect(entries.allSatisfy { ($0["loudnessLUFS"] as? Double).map { abs($0 - -22) < 0.5 } == true })
        let table = try ToolRunner.run("enso", ["assets", "list", "--assets", bundledAssets])
        #expect(table.exitCode == 0)
        #expect(table.stdout.contains("Temple Bell"))
        #expect(table.stdout.contains("30.00 s"))  // the loops' length, from the manifest and the file's rate
    }

    /// A soundscape whose manifest loop is `null` loops as a whole file, so the list gives the file's length; a bell
    /// has no loop.
    @Test func aWholeFileLoopIsListedWithTheFilesLength() throws {
        let dir = try Self.pack(["singing-bowl", "rain"]) { $0["loop"] = NSNull() }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let table = try ToolRunner.run("enso", ["assets", "list", "--assets", dir])
        #expect(table.exitCode == 0, "\(table.stderr)")
        let rain = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("rain ") })
        let bowl = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("singing-bowl ") })
        #expect(rain.contains(" 30.00 s "), "\(rain)")
        #expect(bowl.contains(" - "), "\(bowl)")
    }

    /// A listed asset whose file is gone or is not audio is named (stderr, or `problem` in --json), shown `?`,
    /// and the list exits 2; before, it was a row like the others and exit 0. The others are listed.
    @Test func aBrokenAssetIsNamedAndTheListExitsTwo() throws {
        let dir = try Self.pack(["singing-bowl", "rain"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.removeItem(atPath: dir + "/soundscapes/rain.flac")
        let table = try ToolRunner.run("enso", ["assets", "list", "--assets", dir])
        #expect(table.exitCode == 2, "\(table.stderr)")
        let rain = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("rain ") })
        #expect(rain.contains(" ? "), "\(rain)")
        #expect(table.stdout.contains("singing-bowl "))
        #expect(table.stderr.contains("Error: rain: \(dir)/soundscapes/rain.flac: No such file or directory"))
        let json = try ToolRunner.run("enso", ["assets", "list", "--assets", dir, "--json"])
        #expect(json.exitCode == 2)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first { $0["id"] as? String == "rain" }?["problem"] is String)
        #expect(rows.first { $0["id"] as? String == "singing-bowl" }?["problem"] == nil)
    }

    /// A soundscape whose manifest loop does not fit its file is named as `assets check` names it (its `loop`
    /// rule's test and words), shown `?`, and the list exits 2; before, it listed "3125.00 s" for a 30 s file, exit 0,
    /// while `assets check` failed it and `render --ambient` refused it.
    @Test func aLoopThatDoesNotFitItsFileIsNamedAsAssetsCheckNamesIt() throws {
        let dir = try Self.pack(["singing-bowl", "rain"]) {
            if $0["id"] as? String == "rain" { $0["loop"] = ["start": 0, "end": 99_999_999] }
        }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let misfit = "assets[rain].loop: 0..<99999999 does not fit in the file's 960000 frames"
        let table = try ToolRunner.run("enso", ["assets", "list", "--assets", dir])
        #expect(table.exitCode == 2, "\(table.stdout)\(table.stderr)")
        let rain = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("rain ") })
        #expect(rain.contains(" ? ") && !rain.contains("3125"), "\(rain)")
        #expect(table.stderr.contains("Error: rain: \(misfit)"), "\(table.stderr)")
        let json = try ToolRunner.run("enso", ["assets", "list", "--assets", dir, "--json"])
        #expect(json.exitCode == 2)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { $0["id"] as? String == "rain" })
        #expect(row["problem"] as? String == misfit && row["loopSeconds"] is NSNull, "\(row)")
        #expect(row["durationSeconds"] as? Double == 30, "the file itself reads: \(row)")
        let check = try ToolRunner.run("enso", ["assets", "check", dir])
        #expect(check.exitCode == 1 && check.stdout.contains(misfit), "\(check.stdout)")
    }

    @Test func missingFileExitsTwoNamingIt() throws {
        let dir = try Self.pack(["singing-bowl", "rain"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.removeItem(atPath: dir + "/soundscapes/rain.flac")
        let r = try ToolRunner.run("enso", ["assets", "check", dir])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("soundscapes/rain.flac"))
    }

    @Test func loudnessOffTargetExitsOneWithJSON() throws {
        // The bowl is stored at -22 LUFS; a -18 target is 4 LU away, beyond the ±1 LU tolerance.
        let dir = try Self.pack(["singing-bowl"]) { entry in
            var loudness = entry["loudness"] as? [String: Any] ?? [:]
            loudness["target"] = -18
            entry["loudness"] = loudness
        }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("enso", ["assets", "check", dir, "--json"])
        #expect(r.exitCode == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(report["verdict"] as? String == "fail")
        let asset = try #require((report["assets"] as? [[String: Any]])?.first)
        let failing = (asset["findings"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "fail" }
        #expect(failing.map { $0["check"] as? String } == ["loudness"])
    }

    /// A seam that fails is one `loop` line giving every reason once, worst first; the per-metric findings behind it
    /// are in `--json`.
    @Test func aFailingSeamIsOneLineWithEachReasonOnce() throws {
        // The rain (30 s at 32 kHz) cut 21.9 s in: the ends of a bed that swells and ebbs do not meet.
        let dir = try Self.pack(["rain"]) { entry in entry["loop"] = ["start": 0, "end": 700_003] }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("enso", ["assets", "check", dir])
        #expect(r.exitCode == 1, "\(r.stdout)\n\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").filter { $0.hasPrefix("rain: ") }
        #expect(lines.count == 1 && lines[0].hasPrefix("rain: fail loop: soundscapes/rain.flac: loop 0..<700003 "))
        let json = try ToolRunner.run("enso", ["assets", "check", dir, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require((report["assets"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]])
        let seams = findings.filter {
            ($0["check"] as? String)?.hasPrefix("seam:") == true && $0["status"] as? String != "pass"
        }
        #expect(!seams.isEmpty)
        for f in seams {
            let note = try #require(f["message"] as? String)
            #expect(r.stdout.components(separatedBy: note).count == 2, "\(note) once in: \(r.stdout)")
        }
    }

    @Test func brokenManifestExitsTwoNamingTheField() throws {
        let dir = try Self.pack(["rain"]) { entry in entry["kind"] = "gong" }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("enso", ["assets", "check", dir])
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("manifest.json"))
        #expect(r.stderr.contains("assets[0].kind"))
        let list = try ToolRunner.run("enso", ["assets", "list", dir])
        #expect(list.exitCode == 2)
    }

    @Test func folderTwiceIsAUsageError() throws {
        let r = try ToolRunner.run("enso", ["assets", "check", bundledAssets, "--assets", bundledAssets])
        #expect(r.exitCode == 64)
        #expect(r.stderr.contains("not both"))
    }

    @Test func addTakesTheKeptBellsOfAListenSelection() throws {
        let dir = ToolRunner.temporaryDirectory("assets-add")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The selection sits beside its files and names them relatively, as `bells audition --listen` writes it
        // when run in that folder; the command runs elsewhere.
        try FileManager.default.copyItem(
            atPath: bundledAssets + "/bells/temple-bell.flac", toPath: dir + "/Temple 01.flac")
        try AudioFileEncoder.write(
            BellSignals.twoNoteChime(), to: dir + "/chime.wav", options: EncodeOptions(format: .wav16))
        let selection = #"{"kept": ["Temple 01.flac", "chime.wav"], "rejected": ["other.wav"], "undecided": []}"#
        try Data(selection.utf8).write(to: URL(fileURLWithPath: dir + "/selection.json"))
        let r = try ToolRunner.run(
            "enso",
            [
                "assets", "add", "--assets", dir + "/pack", "--selection", dir + "/selection.json", "--licence",
                "CC-BY-4.0",
            ])
        #expect(r.exitCode == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("temple-01") && r.stdout.contains("1 of 2 added"))
        #expect(r.stderr.contains("Rejected: \(dir)/chime.wav"))
        let check = try ToolRunner.run("enso", ["assets", "list", dir + "/pack", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [[String: Any]])
        #expect(entries.compactMap { $0["id"] as? String } == ["temple-01"])
        #expect(
            entries.first?["name"] as? String == "Temple 01"
                && entries.first?["licence"] as? String == "CC-BY-4.0")
        #expect(try ToolRunner.run("enso", ["assets", "check", dir + "/pack"]).exitCode == 0)
    }

    @Test func addReportsUnreadableInputsAndBadUsage() throws {
        let dir = ToolRunner.temporaryDirectory("assets-add")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = try ToolRunner.run("enso", ["assets", "add", "--assets", dir, "--selection", dir + "/none.json"])
        #expect(missing.exitCode == 2 && missing.stderr.contains("none.json"))
        try Data(#"{"keep": []}"#.utf8).write(to: URL(fileURLWithPath: dir + "/bad.json"))
        let bad = try ToolRunner.run("enso", ["assets", "add", "--assets", dir, "--selection", dir + "/bad.json"])
        #expect(bad.exitCode == 2 && bad.stderr.contains("kept"))
        #expect(try ToolRunner.run("enso", ["assets", "add", "--assets", dir]).exitCode == 64)
        // Never the bundled pack by default.
        let unnamed = try ToolRunner.run("enso", ["assets", "add", dir + "/a.wav"], environment: ["ENSO_ASSETS": ""])
        #expect(unnamed.exitCode == 64 && unnamed.stderr.contains("--assets DIR"), "\(unnamed.stderr)")
        #expect(
            try ToolRunner.run("enso", ["assets", "add", "--assets", dir, "--id", "x", "a.wav", "b.wav"]).exitCode == 64
        )
        #expect(
            try ToolRunner.run("enso", ["assets", "add", "--assets", dir, "--kind", "drum", "a.wav"]).exitCode == 64)
        let gone = try ToolRunner.run("enso", ["assets", "add", "--assets", dir + "/pack", dir + "/nothere.wav"])
        #expect(gone.exitCode == 2 && gone.stderr.contains("nothere.wav"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/pack"))
    }

    @Test func concurrentAddsToOnePackBothLand() throws {
        let dir = ToolRunner.temporaryDirectory("assets-add")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ids = ["singing-bowl", "temple-bell"]
        let codes = Mutex([Int32?](repeating: nil, count: ids.count))
        DispatchQueue.concurrentPerform(iterations: ids.count) { i in
            let args = ["assets", "add", "--assets", dir + "/pack", "--json", bundledAssets + "/bells/\(ids[i]).flac"]
            let code = (try? ToolRunner.run("enso", args))?.exitCode
            codes.withLock { $0[i] = code }
        }
        #expect(codes.withLock { $0 } == [0, 0])
        let list = try ToolRunner.run("enso", ["assets", "list", dir + "/pack", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["id"] as? String }) == ["singing-bowl", "temple-bell"])
    }
}
