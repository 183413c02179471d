/// A finer reason for an error about a file, beside its ``ErrorKind``. Stable: callers may switch on it, and
/// `enso info --json` and `enso loops verify --json` report it as the error's `kind` (docs/audiofile.md).
///
/// Each detail implies one kind (``kind``), so a caller that only cares what it can do reads `kind`, and one
/// that acts on the reason (a bell audition that skips a missing file but reports a corrupt one, a decoder that
/// keeps the frames before a truncation) reads the detail.
public struct ErrorDetail: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    /// The kind this detail implies.
    public let kind: ErrorKind

    public init(rawValue: String) {
        self.rawValue = rawValue
        kind = Self.all.first { $0.rawValue == rawValue }?.kind ?? .failure
    }

    private init(_ rawValue: String, _ kind: ErrorKind) {
        self.rawValue = rawValue
        self.kind = kind
    }

    public static func == (a: Self, b: Self) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// No file at the path, or a folder of it is missing (`unavailable`). The corresponding errno is `ENOENT`.
    public static let notFound = ErrorDetail("not-found", .unavailable)
    /// The file exists but may not be read or written (`permission`). The corresponding errno is `EACCES`.
    public static let permissionDenied = ErrorDetail("permission-denied", .permission)
    /// The path names a directory (`unavailable`: there is no file there). The corresponding errno is `EISDIR`.
    public static let isDirectory = ErrorDetail("is-directory", .unavailable)
    /// The path is not a regular file: a FIFO, a device, a socket (`invalid-input`).
    public static let notRegularFile = ErrorDetail("not-regular-file", .invalidInput)
    /// The file is empty (0 bytes) or holds no frames (`invalid-input`).
    public static let empty = ErrorDetail("empty", .invalidInput)
    /// The file is not in a format libsndfile recognises (`invalid-input`). The corresponding C error is
    /// `SF_ERR_UNRECOGNISED_FORMAT`.
    public static let notAudio = ErrorDetail("not-audio", .invalidInput)
    /// The file's structure is broken (`invalid-input`). The corresponding C error is `SF_ERR_MALFORMED_FILE`.
    public static let malformed = ErrorDetail("malformed", .invalidInput)
    /// The stream ends before its declared end: a data chunk longer than the file, a FLAC or Ogg stream cut short
    /// (`invalid-input`). The frames before the cut can be kept (`SoundFileReader(path:toleratingTruncation:)`).
    public static let truncated = ErrorDetail("truncated", .invalidInput)
    /// The encoding or requested format is not supported (`unsupported`). The corresponding C error is
    /// `SF_ERR_UNSUPPORTED_ENCODING`.
    public static let unsupported = ErrorDetail("unsupported", .unsupported)
    /// The header declares impossible values: 0 or more than 64 channels, a rate outside 1 kHz … 768 kHz
    /// (`invalid-input`).
    public static let invalidHeader = ErrorDetail("invalid-header", .invalidInput)
    /// An argument is out of range: a bad rate, channel count or quality (`invalid-input`).
    public static let invalidArgument = ErrorDetail("invalid-argument", .invalidInput)
    /// The file is longer than a whole-file decode may hold (`invalid-input`).
    public static let tooLarge = ErrorDetail("too-large", .invalidInput)
    /// Reading or writing failed at the system level: disk full, an I/O error (`failure`). The corresponding C error
    /// is `SF_ERR_SYSTEM`.
    public static let ioFailure = ErrorDetail("io-failure", .failure)

    /// Every detail, in documentation order.
    public static let all: [ErrorDetail] = [
        .notFound, .permissionDenied, .isDirectory, .notRegularFile, .empty, .notAudio, .malformed, .truncated,
        .unsupported, .invalidHeader, .invalidArgument, .tooLarge, .ioFailure,
    ]

    public var description: String { rawValue }
}
