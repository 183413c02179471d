import AudioTestSupport
import Foundation
import Testing

/// `make install`'s layout (Tools/install.sh), and an installed binary finding its pack without a checkout.
@Suite("install")
struct InstallTests {
    static let repository = URL(fileURLWithPath: bundledAssets).deletingLastPathComponent().path
    static let installed = [
        "bin/enso", "share/enso/manifest.json", "share/enso/bells/singing-bowl.flac", "share/man/man1/enso.1",
        "share/bash-completion/completions/enso", "share/zsh/site-functions/_enso",
        "share/fish/vendor_completions.d/enso.fish", "share/doc/enso/README.md", "share/doc/enso/LICENSE",
        "share/doc/enso/NOTICE", "share/doc/enso/CHANGELOG.md", "share/doc/enso/docs/loops.md",
        "share/doc/enso/docs/examples/enso_frontend.py",
    ]

    /// Runs Tools/install.sh `mode` into `destdir` with PREFIX=/usr, installing the enso these tests run.
    static func installScript(_ mode: String, destdir: String) throws -> ToolRunner.Result {
        try ToolRunner.run(
            "/bin/bash", [repository + "/Tools/install.sh", mode],
            environment: ["DESTDIR": destdir, "PREFIX": "/usr", "ENSO": ToolRunner.executablePath("enso")])
    }

    /// The environment of a machine where the pack is only where `xdg` says (no ENSO_ASSETS, empty XDG folders).
    static func environment(_ root: String, _ xdg: [String: String] = [:]) -> [String: String] {
        ["ENSO_ASSETS": "", "XDG_DATA_HOME": root + "/xdg-home", "XDG_DATA_DIRS": root + "/xdg-sys"].merging(xdg) { $1 }
    }

    @Test func installPutsEveryFileInPlaceAndTheBinaryFindsItsPack() throws {
        let dest = ToolRunner.temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(atPath: dest) }
        let r = try Self.installScript("install", destdir: dest)
        #expect(r.exitCode == 0, "\(r.stderr)")
        for file in Self.installed {
            #expect(FileManager.default.fileExists(atPath: dest + "/usr/" + file), "\(file) not installed")
        }
        // Stripped: no symbol table left.
        let symbols = try ToolRunner.run("/usr/bin/nm", [dest + "/usr/bin/enso"])
        #expect(symbols.stderr.contains("no symbols"), "\(symbols.stderr.prefix(200))")
        // From another folder, with nothing in the XDG folders: the pack in ../share/enso is found.
        let list = try ToolRunner.run(
            dest + "/usr/bin/enso", ["assets", "list", "--json"], environment: Self.environment(dest),
            currentDirectory: "/")
        #expect(list.exitCode == 0, "\(list.stderr)")
        #expect(list.stdout.contains("singing-bowl"))
        let check = try ToolRunner.run(dest + "/usr/bin/enso", ["assets", "list"], environment: Self.environment(dest))
        #expect(check.stdout.contains(dest + "/usr/share/enso"), "\(check.stdout.prefix(300))")
        // Uninstall leaves none of the files.
        let u = try Self.installScript("uninstall", destdir: dest)
        #expect(u.exitCode == 0, "\(u.stderr)")
        for file in Self.installed {
            #expect(!FileManager.default.fileExists(atPath: dest + "/usr/" + file), "\(file) left by uninstall")
        }
    }

    /// Every document the installed man page cites (`docs/loops.md`, `docs/examples/enso_frontend.py`) is installed
    /// beside the README, and the page has its EXAMPLES.
    @Test func theManualPageCitesOnlyInstalledDocuments() throws {
        let dest = ToolRunner.temporaryDirectory("install-docs")
        defer { try? FileManager.default.removeItem(atPath: dest) }
        let r = try Self.installScript("install", destdir: dest)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: dest + "/usr/share/man/man1/enso.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        #expect(page.contains(".SH \"EXAMPLES\"") || page.contains(".SH EXAMPLES"))
        let regex = try NSRegularExpression(pattern: #"docs/[A-Za-z_/]+\.(md|py)"#)
        let cited = Set(
            regex.matches(in: page, range: NSRange(page.startIndex..., in: page)).map {
                String(page[Range($0.range, in: page)!])
            })
        #expect(cited.count >= 5, "\(cited)")
        for document in cited {
            #expect(
                FileManager.default.fileExists(atPath: dest + "/usr/share/doc/enso/" + document),
                "\(document) not installed")
        }
    }

    @Test func aBinaryAloneFindsThePackInTheXDGFolders() throws {
        let root = ToolRunner.temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ToolRunner.executablePath("enso"), toPath: root + "/bin/enso")
        func list(_ env: [String: String]) throws -> ToolRunner.Result {
            try ToolRunner.run(
                root + "/bin/enso", ["assets", "list"], environment: Self.environment(root, env), currentDirectory: "/")
        }
        // Nothing anywhere: the error names where it looked, not a build path of this machine.
        let none = try list([:])
        #expect(none.exitCode != 0)
        #expect(
            none.stderr.contains(root + "/xdg-home/enso") && none.stderr.contains(root + "/xdg-sys/enso"),
            "\(none.stderr)")
        #expect(!none.stderr.contains(Self.repository), "\(none.stderr)")
        // $XDG_DATA_DIRS (the second of two), then $XDG_DATA_HOME, which comes first.
        try FileManager.default.createDirectory(atPath: root + "/xdg-sys2", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: bundledAssets, toPath: root + "/xdg-sys2/enso")
        let sys = try list(["XDG_DATA_DIRS": root + "/xdg-sys:" + root + "/xdg-sys2"])
        #expect(sys.exitCode == 0 && sys.stdout.contains(root + "/xdg-sys2/enso"), "\(sys.stdout) \(sys.stderr)")
        try FileManager.default.createDirectory(atPath: root + "/xdg-home", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: bundledAssets, toPath: root + "/xdg-home/enso")
        let home = try list(["XDG_DATA_DIRS": root + "/xdg-sys:" + root + "/xdg-sys2"])
        #expect(home.exitCode == 0 && home.stdout.contains(root + "/xdg-home/enso"), "\(home.stdout) \(home.stderr)")
    }
}
