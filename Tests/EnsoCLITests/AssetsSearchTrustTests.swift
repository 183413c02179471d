import AudioTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `enso assets list -v` says which pack the search skipped and why (issue 47, item 6), end to end: a copy of the
/// binary in `ROOT/tools/bin`, a pack at `ROOT/Assets` in a folder every user can write to.
@Suite struct AssetsSearchTrustTests {
    /// A manifest named `name` listing one bell, `bells/bowl.flac` (a listed file that is missing is an error of
    /// `assets list`: the pack that is used holds it).
    static func manifest(_ name: String) -> Data {
        Data(
            """
            {"schema": 1, "name": "\(name)", "assets": [
                {"id": "bowl", "displayName": "Bowl", "kind": "bell", "file": "bells/bowl.flac", "loop": null,
                 "gainDB": 0, "loudness": {"integrated": -22, "target": -22}, "licence": "CC0-1.0", "command": "t"}]}
            """.utf8)
    }

    @Test func aPlantedPackIsSkippedAndSaidSoByListVerbose() throws {
        let root = ToolRunner.temporaryDirectory("search-trust")
        let bin = root + "/tools/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ToolRunner.executablePath("enso"), toPath: bin + "/enso")
        let planted = root + "/Assets"
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        try Self.manifest("planted").write(to: URL(fileURLWithPath: planted + "/manifest.json"))
        // Anyone could have put it there: ROOT is open to all and not sticky (as /tmp would be without its bit).
        chmod(root, 0o777)
        defer { chmod(root, 0o755) }
        let home = ToolRunner.temporaryDirectory("search-trust-home")
        let mine = home + "/data/enso"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try Self.manifest("mine").write(to: URL(fileURLWithPath: mine + "/manifest.json"))
        try FileManager.default.createDirectory(atPath: mine + "/bells", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: bundledAssets + "/bells/singing-bowl.flac", toPath: mine + "/bells/bowl.flac")
        let env = ["ENSO_ASSETS": "", "XDG_DATA_HOME": home + "/data", "XDG_DATA_DIRS": home + "/none"]
        let r = try ToolRunner.Running(bin + "/enso", ["assets", "list", "-v"], environment: env).wait(timeout: 120)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("mine (\(mine))"), "\(r.stdout)")
        #expect(
            r.stderr.contains("skipped \(planted): \(root) is writable by other users (mode 777, not sticky)"),
            "\(r.stderr)")
        #expect(r.stderr.contains("pack: \(mine) (from the search)"), "\(r.stderr)")
        // Without -v the listing is the same and stderr is quiet.
        let quiet = try ToolRunner.Running(bin + "/enso", ["assets", "list"], environment: env).wait(timeout: 120)
        #expect(quiet.stdout == r.stdout && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
