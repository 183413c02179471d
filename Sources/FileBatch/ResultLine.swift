import AudioCore
import Foundation

/// What a `--jsonl` row says besides the command's own row: which command and Enso made it, with which settings,
/// from which file (docs/scale.md). Its keys sit beside the row's own (`file`, `verdict`, …) in one flat object.
///
/// - Thread safety: a value type; any thread.
public struct ResultEnvelope: Codable, Hashable, Sendable {
    /// The command that made the row (`bells audition`, `loops verify`).
    public var command: String
    /// The Enso version that made it (`0.2.0`).
    public var enso: String
    /// What else changes the result, by name (`profile`, `profileFile`, `loop`); empty when nothing does.
    public var settings: [String: String]
    /// The folder the file was found under (``BatchFile/root``).
    public var root: String
    /// The file's path under ``root`` (``BatchFile/relativePath``).
    public var relativePath: String
    /// Which version of the file the row was made from; `null` when it could not be read (its row is an error).
    @Nullable public var identity: ContentIdentity?
    /// The file's absolute path, its folder's symbolic links resolved (``BatchFile/realPath()``): the one name of
    /// the file however the command line spelled it (`big`, `./big`, `$PWD/big/`); `null` when its folder could not
    /// be resolved. Rows made before it was written have none (``location(from:)``).
    @Nullable public var realPath: String?

    public init(
        command: String, enso: String, settings: [String: String], root: String, relativePath: String,
        identity: ContentIdentity?, realPath: String? = nil
    ) {
        self.command = command
        self.enso = enso
        self.settings = settings
        self.root = root
        self.relativePath = relativePath
        self.identity = identity
        self.realPath = realPath
    }

    /// Which file the row is of: ``realPath``, else (a row without one) ``root`` and ``relativePath`` joined, made
    /// absolute from `directory` (the reader's working directory: where the batch was most likely run) with `.`,
    /// `..` and repeated `/` taken out (``BatchFile/absolute(_:from:)``). Two rows with one location are of one file.
    public func location(from directory: String) -> String {
        realPath ?? BatchFile.absolute(root + "/" + relativePath, from: directory)
    }

    /// What `--resume` matches a file by: which file (``location(from:)``) and which version of it
    /// (``ContentIdentity``).
    public struct Key: Hashable, Sendable {
        public var location: String
        public var identity: ContentIdentity

        public init(location: String, identity: ContentIdentity) {
            self.location = location
            self.identity = identity
        }
    }

    /// This row's ``Key``, a row without a ``realPath`` located from `directory`; `nil` for a row without an identity
    /// (an unreadable file is tried again).
    public func key(from directory: String) -> Key? {
        identity.map { Key(location: location(from: directory), identity: $0) }
    }
}

/// One `--jsonl` line: a command's row with its ``ResultEnvelope``, encoded as one flat, compact JSON object.
///
/// - Thread safety: a value type; any thread.
public struct ResultLine<Row>: Sendable where Row: Sendable {
    public var envelope: ResultEnvelope
    public var row: Row

    public init(envelope: ResultEnvelope, row: Row) {
        self.envelope = envelope
        self.row = row
    }
}

extension ResultLine: Encodable where Row: Encodable {
    /// The row's keys and the envelope's in one object (an encoder with sorted keys sorts them together).
    public func encode(to encoder: any Encoder) throws {
        try row.encode(to: encoder)
        try envelope.encode(to: encoder)
    }

    /// The line's bytes: compact JSON from `encoder` (it must not pretty-print: a line holds no newline), then
    /// `\n`, ready for one `write(2)`.
    ///
    /// - Throws: `EncodingError` when the row cannot be encoded (a programmer error).
    public func bytes(using encoder: JSONEncoder) throws -> [UInt8] {
        var bytes = Array(try encoder.encode(self))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

extension ResultLine: Decodable where Row: Decodable {
    /// Reads both from the one flat object (each ignores the other's keys).
    public init(from decoder: any Decoder) throws {
        envelope = try ResultEnvelope(from: decoder)
        row = try Row(from: decoder)
    }
}
