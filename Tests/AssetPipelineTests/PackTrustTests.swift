import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

#if canImport(Glibc)
    import Glibc
#endif

/// The pack search uses only packs nobody else controls, and `assets add` never writes through a link out of the
/// pack (issue 47, item 6).
@Suite struct PackTrustTests {
    /// A uid no account on a test machine has: "another user".
    static let otherUID: uid_t = 54_321
    static let canChown = geteuid() == 0

    private static func makePack(_ dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(#"{"schema": 1, "name": "p", "assets": []}"#.utf8).write(
            to: URL(fileURLWithPath: dir + "/manifest.json"))
    }

    @Test(.enabled(if: canChown, "needs root to give a folder to another uid"))
    func aPackAnotherUserPlantedAboveTheBinaryIsSkipped() throws {
        // The binary at ROOT/tools/bin/enso; another user's pack at ROOT/Assets (as /tmp/Assets beside /tmp/tools).
        let root = ToolRunner.temporaryDirectory("pack-planted")
        let bin = root + "/tools/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let planted = root + "/Assets"
        try Self.makePack(planted)
        #expect(chown(planted, Self.otherUID, Self.otherUID) == 0)
        let env = ["HOME": root + "/home", "XDG_DATA_DIRS": root + "/none"]
        let search = AssetPack.search(environment: env, executableDirectory: bin)
        #expect(search.directory == nil)
        #expect(
            search.skipped == [
                .init(folder: planted, reason: "\(planted) belongs to another user (uid \(Self.otherUID))")
            ])
        let error = #expect(throws: EnsoError.self) {
            try AssetPack.defaultDirectory(environment: env, executableDirectory: bin)
        }
        #expect(error?.kind == .unavailable)
        #expect(error?.message.contains("skipped \(planted): \(planted) belongs to another user") == true)
        // The user's own pack further down the search is used instead.
        try Self.makePack(root + "/home/.local/share/enso")
        #expect(
            try AssetPack.defaultDirectory(environment: env, executableDirectory: bin) == root
                + "/home/.local/share/enso")
    }

    @Test(.enabled(if: canChown, "needs root to give a folder to another uid"))
    func anXDGDataDirOfAnotherUserIsSkipped() throws {
        let root = ToolRunner.temporaryDirectory("pack-xdg")
        let theirs = root + "/theirs"
        try Self.makePack(theirs + "/enso")
        #expect(chown(theirs, Self.otherUID, Self.otherUID) == 0)
        let mine = root + "/mine"
        try Self.makePack(mine + "/enso")
        let env = ["HOME": root + "/home", "XDG_DATA_DIRS": theirs + ":" + mine]
        let search = AssetPack.search(environment: env, executableDirectory: nil)
        #expect(search.directory == mine + "/enso")
        #expect(search.skipped.map(\.folder) == [theirs + "/enso"])
        #expect(search.skipped.first?.reason.contains("\(theirs) belongs to another user") == true)
    }

    @Test func aPackBelowAFolderOthersCanWriteIsSkipped() throws {
        // Runs without root: a folder open to everyone (not sticky) on the way.
        let root = ToolRunner.temporaryDirectory("pack-open")
        let open = root + "/open"
        try Self.makePack(open + "/enso")
        chmod(open, 0o777)
        let mine = root + "/mine"
        try Self.makePack(mine + "/enso")
        let env = ["HOME": root + "/home", "XDG_DATA_DIRS": open + ":" + mine]
        let search = AssetPack.search(environment: env, executableDirectory: nil)
        #expect(search.directory == mine + "/enso")
        #expect(
            search.skipped == [
                .init(folder: open + "/enso", reason: "\(open) is writable by other users (mode 777, not sticky)")
            ])
        // Sticky, as /tmp, it is used.
        chmod(open, 0o1777)
        #expect(AssetPack.search(environment: env, executableDirectory: nil).directory == open + "/enso")
        // A pack the user names is used as given.
        chmod(open, 0o777)
        #expect(AssetPack.search(override: open + "/enso", environment: env).directory == open + "/enso")
    }

    @Test func addNeverWritesThroughALinkOutOfThePack() throws {
        let work = ToolRunner.temporaryDirectory("pack-link")
        let source = work + "/bowl.wav"
        let bell = try AudioFileDecoder.decode(path: AssetPackAddTests.bundled + "/bells/singing-bowl.flac").buffer
        try AudioFileEncoder.write(bell, to: source, options: EncodeOptions(format: .wav24))
        // A new pack (no manifest yet) whose bells/ leads out of it.
        let pack = work + "/pack"
        mkdir(pack, 0o755)
        let outside = work + "/outside"
        mkdir(outside, 0o755)
        #expect(symlink(outside, pack + "/bells") == 0)
        let addition = AssetPack.Addition(
            source: source, kind: .bell, id: "bowl", displayName: "Bowl", licence: "CC0-1.0")
        let error = #expect(throws: EnsoError.self) { try AssetPack.add([addition], to: pack) }
        #expect(error?.kind == .permission)
        #expect(
            error?.message.contains("\(pack)/bells is a symbolic link out of the pack") == true,
            "\(String(describing: error))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == [], "nothing written where it points")
        #expect(!FileManager.default.fileExists(atPath: pack + "/manifest.json"))
        // A link to a folder inside the pack stays usable.
        unlink(pack + "/bells")
        mkdir(pack + "/bells-v2", 0o755)
        #expect(symlink("bells-v2", pack + "/bells") == 0)
        #expect(try AssetPack.add([addition], to: pack).map(\.status) == [.added])
        #expect(FileManager.default.fileExists(atPath: pack + "/bells-v2/bowl.flac"))
    }
}
