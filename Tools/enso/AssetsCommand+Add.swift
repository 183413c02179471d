import AssetPipeline
import AudioCore
import CLISupport
import Foundation

/// `enso assets add`: normalise, check and add bells or soundscapes to a pack, from files or from the `kept` list
/// of a `bells audition --listen` selection.
extension AssetsCommand {
    static let add = Command(
        name: "add",
        abstract: "Add bells or soundscapes to a pack (files, or the kept bells of a --listen selection).",
        discussion: """
            Each file is normalised to its kind's loudness target (bells -22 LUFS: pre-roll trimmed to 10 ms,
            DC removed, true peak at most -1 dBTP; soundscapes -30 LUFS by gain, keeping their loop), stored as
            24-bit FLAC in the pack's bells/ or soundscapes/ folder as ID.flac, and checked exactly as
            'enso assets check' checks it. Only files that pass are kept; the manifest is then rewritten once,
            atomically (a folder without one becomes a new pack). The id comes from the file name unless --id.
            --selection takes the "kept" files of the JSON that 'enso bells audition --listen --selection'
            writes (paths relative to the current folder, else to the selection file's folder).
            """,
        arguments: [ArgumentSpec("file", help: "Audio files to add.", optional: true, variadic: true)],
        options: [
            addAssets.spec, selection.spec, addKind.spec, id.spec, name.spec, licence.spec, replace.spec,
            addStrict.spec, addJSON.spec,
        ],
        exitCodes: [
            ExitCodeMeaning(.success, "Every file added."),
            ExitCodeMeaning(
                .failure,
                "A file was rejected (fails the checks, cannot be normalised, or its id is taken; nothing written for it)."
            ),
            ExitCodeMeaning(
                .inputError,
                "A file, the selection or the manifest could not be read, or the pack could not be written."),
            .usage,
        ],
        run: { args, _ in try runAdd(args) })

    static let addAssets = assets.help("The pack folder to add to (default: $ENSO_ASSETS; required otherwise).")
    static let selection = Option<String>(
        "selection", valueName: "JSON", help: "Add the kept files of a 'bells audition --listen' selection.")
    static let addKind = kind.help("bell (default) or soundscape.")
    static let id = Option<String>(
        "id", valueName: "ID", help: "The asset id (one file only; default: from the file name).")
    static let name = Option<String>(
        "name", valueName: "NAME", help: "The display name (one file only; default: from the file name, or --id).")
    static let licence = Option<String>(
        "licence", valueName: "TEXT", help: "The licence to record (default: \"unspecified\").")
    static let replace = Flag("replace", help: "Replace assets whose id is already in the pack.")
    static let addStrict = Flag("strict", help: "Reject a soundscape whose seam only warns.")
    static let addJSON = Flag("json", help: "Print one result per file as JSON.")

    /// The selection file `bells audition --listen` writes (only `kept` is used here).
    struct KeptSelection: Decodable {
        var kept: [String]
    }

    static func runAdd(_ args: ParsedArguments) throws -> ExitCode {
        let kind = try args.value(of: addKind) ?? .bell
        var sources = args.positionals
        if let selection = try args.value(of: Self.selection) { sources += try keptFiles(selection) }
        guard !sources.isEmpty else {
            throw UsageError("nothing to add: give audio files, or --selection with kept files")
        }
        if sources.count > 1 && (args.has(id) || args.has(name)) {
            throw UsageError("--id and --name name one asset; \(sources.count) files were given")
        }
        // The pack is named, never the bundled one by default: adding rewrites its manifest.
        let environment = ProcessInfo.processInfo.environment[AssetPack.environmentVariable] ?? ""
        let packFolder = try args.value(of: addAssets)
        guard packFolder != nil || !environment.isEmpty else {
            throw UsageError(
                "name the pack to add to with --assets DIR (or \(AssetPack.environmentVariable)); the bundled pack is not changed by default"
            )
        }
        let dir: String
        do {
            dir = try AssetPack.defaultDirectory(override: packFolder)
        } catch {
            throw CommandFailure(error, file: packFolder, exitCode: .inputError)
        }
        let licence = try args.value(of: Self.licence) ?? "unspecified"
        let (givenID, givenName) = (try args.value(of: id), try args.value(of: name))
        let additions = sources.map { source -> AssetPack.Addition in
            let id = givenID ?? AssetPack.suggestedID(for: source)
            // The name from the id given, else from the file's name as written (its letters as they are).
            let suggested =
                givenID.map(AssetPack.suggestedDisplayName(for:))
                ?? AssetPack.suggestedDisplayName(forFile: source)
            return AssetPack.Addition(
                source: source, kind: kind, id: id, displayName: givenName ?? suggested, licence: licence)
        }
        let results: [AssetPack.AdditionResult]
        do {
            results = try AssetPack.add(additions, to: dir, replace: args[replace], strict: args[addStrict])
        } catch {
            throw CommandFailure(error, file: dir, exitCode: .inputError)
        }
        if args[addJSON] {
            try JSONOutput.print(results)
        } else {
            var table = TextTable(
                headers: ["FILE", "ID", "RESULT", "STORED AS"], alignments: [.left, .left, .left, .left])
            for r in results { table.append([r.source, r.id, r.status.rawValue, r.file ?? "-"]) }
            Terminal.out(table.render())
            for r in results {
                for m in r.messages {
                    if r.status == .added {
                        Terminal.out(m)
                    } else {
                        Terminal.err("\(r.status == .error ? "Error" : "Rejected"): \(m)")
                    }
                }
            }
            let added = results.filter { $0.status == .added }.count
            Terminal.out("\(dir): \(added) of \(results.count) added")
        }
        if results.contains(where: { $0.status == .error }) { return .inputError }
        if results.contains(where: { $0.status == .rejected }) { return .failure }
        return .success
    }

    /// The kept files of a selection JSON, each resolved against the current folder, else the selection's folder.
    static func keptFiles(_ path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let code = FileManager.default.fileExists(atPath: path) ? "unreadable" : "not-found"
            throw CommandFailure("\(path): cannot read the selection", exitCode: .inputError, code: code, file: path)
        }
        let selection: KeptSelection
        do {
            selection = try JSONDecoder().decode(KeptSelection.self, from: data)
        } catch {
            throw CommandFailure(
                "\(path): not a bells selection (needs a \"kept\" list of files): \(error)", exitCode: .inputError,
                code: ErrorKind.invalidInput.rawValue, file: path)
        }
        let base = (path as NSString).deletingLastPathComponent
        return selection.kept.map { file in
            if file.hasPrefix("/") || FileManager.default.fileExists(atPath: file) || base.isEmpty { return file }
            let beside = base + "/" + file
            return FileManager.default.fileExists(atPath: beside) ? beside : file
        }
    }
}
