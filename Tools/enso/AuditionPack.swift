import AssetPipeline
import CLISupport
import Foundation

/// The pack `bells audition` judges its candidates for (`--pack DIR`, or the pack whose folder holds the current
/// one), so that its `keep` means what `enso assets add` takes (docs/bells.md, "Judged for a pack").
enum AuditionPack {
    /// The pack named by `--pack DIR` (a folder without a manifest is a new pack: `assets add` makes one there), else
    /// the nearest folder from the current one up that holds a pack's manifest; nil with `--no-pack`, or outside any
    /// pack.
    ///
    /// - Throws: `UsageError` for `--pack` with `--no-pack`; `CommandFailure` (exit 2) when the named pack's manifest
    ///   cannot be read.
    /// - Parameter announcing: said on stderr, with the folder, when the pack was found by looking up from the
    ///   current folder (the user did not name it).
    static func chosen(_ args: ParsedArguments, announcing: String? = nil) throws -> AssetPack? {
        if args[BellsOptions.noPack] {
            if args.has(BellsOptions.pack) { throw UsageError("--pack and --no-pack cannot be combined") }
            return nil
        }
        if let dir = try args.value(of: BellsOptions.pack) {
            let path = URL(fileURLWithPath: dir).standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path + "/" + AssetPack.manifestName) else {
                return AssetPack(name: (path as NSString).lastPathComponent, entries: [], directory: path)
            }
            do { return try AssetPack.load(directory: path) } catch {
                throw CommandFailure(error, file: dir, exitCode: .inputError)
            }
        }
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        while true {
            if FileManager.default.fileExists(atPath: folder + "/" + AssetPack.manifestName),
                let pack = try? AssetPack.load(directory: folder)
            {
                if let announcing { Terminal.err("\(announcing) \(folder) (--no-pack to do without it)") }
                return pack
            }
            guard folder != "/" else { return nil }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// The profile to audition with for `pack`: the one its checks score bells with (``AssetCheck/auditionProfile``),
    /// so the audition's score is the pack report's. A different `--profile` or a `--profile-file` is refused.
    static func profile(_ args: ParsedArguments, given: BellProfile, pack: AssetPack) throws -> BellProfile {
        let packs = AssetCheck.auditionProfile
        if args.has(BellsOptions.profileFile) || (args.has(BellsOptions.profile) && given.name != packs.name) {
            throw UsageError(
                "a pack scores its bells with the \(packs.name) profile (as 'assets check' does): drop --profile/--profile-file, or give --no-pack"
            )
        }
        return packs
    }

    /// Notes, on each candidate the pack would take, that its id (from its file name, as `assets add` makes it) is
    /// already in the pack: `assets add` then needs `--id` or `--replace`.
    static func noteTakenIDs<Kept>(_ entries: inout [(result: BellAuditionResult, kept: Kept)], pack: AssetPack) {
        for i in entries.indices where entries[i].result.passes {
            let id = AssetPack.suggestedID(for: entries[i].result.file)
            if pack.entry(id: id) != nil {
                entries[i].result.notes.append(
                    "id '\(id)' is already in the pack \(pack.directory): add it with --id or --replace")
            }
        }
    }
}
