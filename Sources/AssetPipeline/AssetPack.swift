import AudioCore
import AudioFile
import Foundation
import SystemIO

/// An asset pack: a folder of bells and soundscapes described by its `manifest.json`.
///
/// The manifest is the single source of truth for asset ids: the engine, `enso render`/`play`
/// (`--bell ID`, `--ambient ID`) and `enso assets check` all read it through this type. The schema
/// is documented in docs/assets.md.
///
///     let pack = try AssetPack.load(directory: AssetPack.defaultDirectory(override: args.value("assets")))
///     let bell = try pack.resolve(id: "singing-bowl", kind: .bell)
///     let path = pack.path(of: bell)        // absolute path of the audio file
///
/// - Thread safety: a value type; share freely.
/// - Real-time safe: no (file I/O, allocation).
public struct AssetPack: Sendable, Equatable {
    /// The manifest's file name inside a pack folder.
    public static let manifestName = "manifest.json"
    /// The schema version this code reads and writes.
    public static let currentSchema = 1

    /// What an asset is for.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A one-shot bell, struck at transitions.
        case bell
        /// A looping ambient bed (a theme).
        case soundscape

        /// Decodes its name; an unknown one is named with the kinds there are.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            let raw = try c.decode(String.self)
            guard let kind = Kind(rawValue: raw) else {
                throw DecodingError.unknownName(
                    raw, in: c, what: "a kind of asset", choices: Self.allCases.map(\.rawValue))
            }
            self = kind
        }
    }

    /// Integrated loudness as measured, and the target the pipeline normalised to (both LUFS, EBU R 128).
    public struct Loudness: Codable, Sendable, Equatable {
        /// The measured integrated loudness of the file as stored, in LUFS.
        public var integrated: Double
        /// The target for this kind of asset, in LUFS; `enso assets check` allows ±1 LU around it.
        public var target: Double

        public init(integrated: Double, target: Double) {
            self.integrated = integrated
            self.target = target
        }
    }

    /// One asset: a bell or a soundscape.
    public struct Entry: Codable, Sendable, Equatable {
        /// The id users type (`--bell singing-bowl`): lower-case letters, digits and `-`.
        public var id: String
        /// The name front ends show ("Singing Bowl").
        public var displayName: String
        public var kind: Kind
        /// The audio file, relative to the pack folder (no `..`, no leading `/`).
        public var file: String
        /// The loop region in frames of the file (start inclusive, end exclusive), or `nil` for the whole
        /// file (soundscapes) or no loop (bells). Kept here because FLAC and Ogg carry no `smpl` chunk. Written as
        /// `null` when absent: "no loop" is a statement, not an omission.
        @Nullable public var loop: LoopRegion?
        /// A playback gain in dB applied on top of the file's own level (0 = play as stored). Normalisation
        /// is baked into the file, so the bundled pack uses 0; users may trim their own packs with it.
        public var gainDB: Double
        /// The measured loudness and its target.
        public var loudness: Loudness
        /// The licence of this asset (an SPDX id or a sentence).
        public var licence: String
        /// The command that made the file, so anyone can regenerate it.
        public var command: String

        public init(
            id: String, displayName: String, kind: Kind, file: String, loop: LoopRegion?, gainDB: Double = 0,
            loudness: Loudness, licence: String, command: String
        ) {
            self.id = id
            self.displayName = displayName
            self.kind = kind
            self.file = file
            self.loop = loop
            self.gainDB = gainDB
            self.loudness = loudness
            self.licence = licence
            self.command = command
        }
    }

    /// The manifest schema version.
    public var schema: Int
    /// The pack's name.
    public var name: String
    /// The assets, in the order the manifest lists them.
    public var entries: [Entry]
    /// The absolute path of the pack folder (not stored in the manifest).
    public var directory: String

    public init(name: String, entries: [Entry], directory: String, schema: Int = AssetPack.currentSchema) {
        self.schema = schema
        self.name = name
        self.entries = entries
        self.directory = directory
    }

    // MARK: - Lookup

    /// The entry with `id`, or `nil`.
    public func entry(id: String) -> Entry? { entries.first { $0.id == id } }

    /// The entries of one kind, in manifest order.
    public func entries(kind: Kind) -> [Entry] { entries.filter { $0.kind == kind } }

    /// The absolute path of an entry's audio file.
    public func path(of entry: Entry) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(entry.file).standardizedFileURL.path
    }

    /// The entry with `id` and `kind`, or an error that names the id and lists the valid ones.
    ///
    /// - Throws: `EnsoError` of kind `.unavailable` (no such id, or an id of the other kind).
    public func resolve(id: String, kind: Kind) throws(EnsoError) -> Entry {
        let known = entries(kind: kind).map(\.id).joined(separator: ", ")
        guard let e = entry(id: id) else {
            throw EnsoError(
                .unavailable,
                "no \(kind.rawValue) with id '\(id)' in \(directory) (known: \(known.isEmpty ? "none" : known))")
        }
        guard e.kind == kind else {
            throw EnsoError(
                .unavailable,
                "'\(id)' in \(directory) is a \(e.kind.rawValue), not a \(kind.rawValue) (known: \(known))")
        }
        return e
    }

    // MARK: - Reading and writing

    /// Reads and validates `directory/manifest.json`.
    ///
    /// Validation covers the schema (every field present with the right type), unique well-formed ids,
    /// relative file paths inside the folder, sane loop regions and finite loudness values. It does not
    /// open the audio files: `AssetCheck` does that.
    ///
    /// - Throws: `EnsoError` of kind `.unavailable` (no folder or no manifest) or `.invalidInput`
    ///   (unreadable JSON or a bad field); the message names the manifest file and the field, such as
    ///   `Assets/manifest.json: assets[2].loop.end: 10 is not after start 20`.
    public static func load(directory: String) throws(EnsoError) -> AssetPack {
        let dir = URL(fileURLWithPath: directory).standardizedFileURL.path
        let manifestPath = dir + "/" + manifestName
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw EnsoError(.unavailable, "\(directory): no such asset pack folder")
        }
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw EnsoError(.unavailable, "\(manifestPath): missing or unreadable (an asset pack needs one)")
        }
        return try decode(data, directory: dir, manifestPath: manifestPath)
    }

    /// Parses and validates manifest bytes; `manifestPath` is only used in messages.
    public static func decode(_ data: Data, directory: String, manifestPath: String) throws(EnsoError) -> AssetPack {
        let stored: Stored
        do {
            stored = try JSONDecoder().decode(Stored.self, from: data)
        } catch let error as DecodingError {
            throw EnsoError(.invalidInput, "\(manifestPath): \(JSONSyntax.message(error, in: data))")
        } catch {
            throw EnsoError(.invalidInput, "\(manifestPath): \(error)")
        }
        let pack = AssetPack(name: stored.name, entries: stored.assets, directory: directory, schema: stored.schema)
        if let problem = pack.validationProblems().first {
            throw EnsoError(.invalidInput, "\(manifestPath): \(problem)")
        }
        return pack
    }

    /// Every schema problem in the pack, each naming its field (`assets[1].id: ...`); empty when valid.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if schema != Self.currentSchema {
            problems.append("schema: version \(schema) is not supported (this Enso reads \(Self.currentSchema))")
        }
        if entries.isEmpty { problems.append("assets: the pack lists no assets") }
        var seen: [String: Int] = [:]
        for (i, e) in entries.enumerated() {
            let field = "assets[\(i)]"
            let idChars = e.id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
            }
            if e.id.isEmpty || !idChars || e.id.hasPrefix("-") {
                problems.append("\(field).id: '\(e.id)' must be lower-case letters, digits and '-'")
            }
            if let first = seen[e.id] {
                problems.append("\(field).id: '\(e.id)' is already used by assets[\(first)]")
            } else {
                seen[e.id] = i
            }
            if e.displayName.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("\(field).displayName: empty")
            }
            if e.file.isEmpty || e.file.hasPrefix("/") || e.file.split(separator: "/").contains("..") {
                problems.append("\(field).file: '\(e.file)' must be a relative path inside the pack folder")
            }
            if let loop = e.loop {
                if loop.start < 0 { problems.append("\(field).loop.start: \(loop.start) is negative") }
                if loop.end <= loop.start {
                    problems.append("\(field).loop.end: \(loop.end) is not after start \(loop.start)")
                }
                if e.kind == .bell { problems.append("\(field).loop: a bell does not loop (use null)") }
            }
            if !e.gainDB.isFinite || abs(e.gainDB) > 60 {
                problems.append("\(field).gainDB: \(e.gainDB) is outside -60...60 dB")
            }
            if !e.loudness.integrated.isFinite || !(-70...0).contains(e.loudness.integrated) {
                problems.append("\(field).loudness.integrated: \(e.loudness.integrated) is outside -70...0 LUFS")
            }
            if !e.loudness.target.isFinite || !(-70...0).contains(e.loudness.target) {
                problems.append("\(field).loudness.target: \(e.loudness.target) is outside -70...0 LUFS")
            }
            if e.licence.isEmpty { problems.append("\(field).licence: empty") }
        }
        return problems
    }

    /// The manifest as JSON (``PrettyJSON``: sorted keys, two-space indent, `"key": value`, trailing newline): stable
    /// bytes for regeneration.
    public func encodedManifest() -> Data {
        // Encoding plain strings, numbers and arrays cannot fail.
        try! PrettyJSON.encode(Stored(schema: schema, name: name, assets: entries))
    }

    /// Writes `manifest.json` into ``directory`` atomically (temporary file in the same folder, then rename).
    ///
    /// - Throws: `EnsoError` of kind `.failure` when the folder cannot be written.
    public func writeManifest() throws(EnsoError) {
        let target = URL(fileURLWithPath: directory).appendingPathComponent(Self.manifestName)
        do {
            try AtomicFile.write(Array(encodedManifest()), to: target.path)
        } catch {
            throw EnsoError(.failure, "cannot write the manifest: \(error.message)")
        }
    }

    /// The manifest as stored on disk.
    private struct Stored: Codable {
        var schema: Int
        var name: String
        var assets: [Entry]
    }
}
