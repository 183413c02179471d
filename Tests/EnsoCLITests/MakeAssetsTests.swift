import AudioFile
import AudioTestSupport
import Foundation
import Testing

@Suite("make-assets")
struct MakeAssetsTests {
    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func synthesisIsDeterministicFromTheSeed() throws {
        let a = ToolRunner.temporaryDirectory("make-assets")
        let b = ToolRunner.temporaryDirectory("make-assets")
        let c = ToolRunner.temporaryDirectory("make-assets")
        defer { for d in [a, b, c] { try? FileManager.default.removeItem(atPath: d) } }
        let args = ["synth", "--only", "soft-chime", "--only", "hearth", "--seconds", "3"]
        #expect(try ToolRunner.run("make-assets", args + ["--out", a]).exitCode == 0)
        #expect(try ToolRunner.run("make-assets", args + ["--out", b]).exitCode == 0)
        #expect(try ToolRunner.run("make-assets", args + ["--out", c, "--seed", "7"]).exitCode == 0)
        // Samples, not bytes: libsndfile stamps float WAVs with the time in their PEAK chunk. The pack's FLAC
        // files carry no time and are compared byte for byte below.
        for file in ["bells/soft-chime.wav", "soundscapes/hearth.wav"] {
            let first = try AudioFileDecoder.decode(path: a + "/" + file).buffer.samples
            #expect(
                first == (try AudioFileDecoder.decode(path: b + "/" + file).buffer.samples),
                "\(file) differs between two runs with the same seed")
            #expect(
                first != (try AudioFileDecoder.decode(path: c + "/" + file).buffer.samples),
                "\(file) does not depend on the seed")
        }
    }

    @Test func regenerationReproducesTheCommittedPack() throws {
        let out = ToolRunner.temporaryDirectory("make-assets")
        defer { try? FileManager.default.removeItem(atPath: out) }
        // One bell and one soundscape (through enso loops find/bake) keep this to a few seconds.
        let r = try ToolRunner.run(
            "make-assets",
            [
                "build", "--out", out, "--only", "soft-chime", "--only", "rain", "--enso",
                ToolRunner.executablePath("enso"),
            ])
        #expect(r.exitCode == 0, "\(r.stderr)")
        for file in ["bells/soft-chime.flac", "soundscapes/rain.flac"] {
            let regenerated = try #require(Self.bytes(out + "/" + file))
            #expect(regenerated == Self.bytes(bundledAssets + "/" + file), "\(file) does not regenerate byte for byte")
        }
        // The manifest entries regenerate too, licence included (the committed pack is Apache-2.0, as LICENSE).
        func entries(_ dir: String) throws -> [String: NSDictionary] {
            let json = try JSONSerialization.jsonObject(with: try #require(Self.bytes(dir + "/manifest.json")))
            let assets = try #require((json as? [String: Any])?["assets"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: assets.map { ($0["id"] as? String ?? "", $0 as NSDictionary) })
        }
        let committed = try entries(bundledAssets)
        for (id, entry) in try entries(out) {
            #expect(entry == committed[id], "manifest entry \(id) does not regenerate")
            #expect(entry["licence"] as? String == "Apache-2.0")
        }
        let licence = String(decoding: try #require(Self.bytes(bundledAssets + "/../LICENSE")), as: UTF8.self)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
    }

    @Test func missingEnsoIsNamed() throws {
        let out = ToolRunner.temporaryDirectory("make-assets")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try ToolRunner.run(
            "make-assets", ["build", "--out", out, "--only", "rain", "--enso", "/nonexistent/enso"])
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("/nonexistent/enso"))
        #expect(!FileManager.default.fileExists(atPath: out + "/manifest.json"))
    }

    @Test func verifyStrikesAcceptsTheRenderAndCatchesAOneFrameShift() throws {
        let dir = ToolRunner.temporaryDirectory("make-assets")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = [
            "--sit", "10s", "--strikes", "2", "--bell", "soft-chime", "--assets", bundledAssets, "--ambient", "none",
        ]
        let json = try ToolRunner.run("enso", ["plan"] + plan + ["--json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        try Data(json.stdout.utf8).write(to: URL(fileURLWithPath: dir + "/plan.json"))
        let render = try ToolRunner.run("enso", ["render"] + plan + ["--format", "wavf", "-o", dir + "/bells.wav"])
        #expect(render.exitCode == 0, "\(render.stderr)")
        let verify = [
            "verify-strikes", "--plan", dir + "/plan.json", "--render", dir + "/bells.wav", "--bell",
            bundledAssets + "/bells/soft-chime.flac",
        ]
        let ok = try ToolRunner.run("make-assets", verify)
        #expect(ok.exitCode == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.stdout.contains("all 4 strikes on their planned frames"))
        // Claim the second strike was planned one frame later than it was rendered.
        var obj = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        var events = try #require(obj["events"] as? [[String: Any]])
        let second = try #require(events.indices.filter { events[$0]["kind"] as? String == "strike" }.dropFirst().first)
        events[second]["frame"] = (events[second]["frame"] as? Int ?? 0) + 1
        obj["events"] = events
        try JSONSerialization.data(withJSONObject: obj).write(to: URL(fileURLWithPath: dir + "/plan.json"))
        let off = try ToolRunner.run("make-assets", verify)
        #expect(off.exitCode == 1)
        #expect(off.stdout.contains("OFF"))
    }
}
