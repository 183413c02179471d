import AudioTestSupport
import Foundation
import Testing

/// What a newcomer meets first: a bare `make`, the packages each target installs, the README, and docs that
/// point only at files the repository has.
@Suite("first hour")
struct FirstHourTests {
    static let repository = URL(fileURLWithPath: bundledAssets).deletingLastPathComponent().path

    static func make(_ arguments: [String]) throws -> ToolRunner.Result {
        try ToolRunner.run("/usr/bin/make", ["--no-print-directory", "-C", repository] + arguments)
    }

    @Test func bareMakeListsTheTargetsAndDoesNothingElse() throws {
        // -n: what a bare `make` would run is only the listing (no apt-get, no swift build).
        let dry = try Self.make(["-n"])
        #expect(
            dry.exitCode == 0 && !dry.stdout.contains("apt-get") && !dry.stdout.contains("swift build"), "\(dry.stdout)"
        )
        let r = try Self.make([])
        #expect(r.exitCode == 0, "\(r.stderr)")
        for target in ["build", "demo", "test", "install", "uninstall", "dist", "man", "docs", "play", "clean"] {
            #expect(r.stdout.contains("  \(target) "), "make lists no \(target)")
        }
    }

    @Test func buildAndDemoInstallOnlyBuildDependencies() throws {
        for target in ["build", "demo", "dist", "play"] {
            let r = try Self.make(["-n", target])
            #expect(r.exitCode == 0, "\(r.stderr)")
            #expect(r.stdout.contains("libsndfile1-dev"), "\(target) does not install the C libraries")
            for testOnly in ["chromium", "pulseaudio", "sox", "zsh"] {
                #expect(!r.stdout.contains(testOnly), "make \(target) would install \(testOnly)")
            }
        }
        let test = try Self.make(["-n", "test"])
        #expect(
            test.stdout.contains("chromium") && test.stdout.contains("pulseaudio") && test.stdout.contains("man-db"))
        // Tests build in their own scratch folder, so `swift build -c release` afterwards reuses .build/release.
        #expect(test.stdout.contains("--scratch-path .build/test"))
        // `make play` says what to do without a sound device.
        #expect(try Self.make(["-n", "play"]).stdout.contains("PLAY_ARGS=\\\"--output null\\\""))
    }

    @Test func readmeStartsWithAQuickStart() throws {
        let readme = try String(contentsOfFile: Self.repository + "/README.md", encoding: .utf8)
        let quick = try #require(readme.range(of: "## Quick start"))
        #expect(readme.range(of: "## ")!.lowerBound == quick.lowerBound, "the first section is not the quick start")
        for text in ["make demo", "make test", "PATH"] {
            #expect(readme[quick.upperBound...].prefix(600).contains(text))
        }
    }

    @Test func docsPointOnlyAtFilesThatExist() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.repository + "/docs").filter {
            $0.hasSuffix(".md")
        }
        let files = ["README.md"] + docs.map { "docs/" + $0 }
        let pattern = try NSRegularExpression(pattern: "[A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md\\b")
        for file in files {
            let text = try String(contentsOfFile: Self.repository + "/" + file, encoding: .utf8)
            let folder = (file as NSString).deletingLastPathComponent
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let name = String(text[Range(match.range, in: text)!])
                let candidates = [name, folder + "/" + name, "docs/" + name]
                #expect(
                    candidates.contains { FileManager.default.fileExists(atPath: Self.repository + "/" + $0) },
                    "\(file) names \(name), which the repository does not have")
            }
        }
    }
}
