/// An error from reading or writing an audio file: what the caller can do about it, a message that
/// names the file, and the libsndfile or errno code for diagnostics.
public struct AudioFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, chosen by what the caller can do about it. Stable: callers may switch on it.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// No file at the path. The corresponding errno is `ENOENT`.
        public static let notFound = Kind(rawValue: "not-found")
        /// The file exists but may not be read or written. The corresponding errno is `EACCES`.
        public static let permissionDenied = Kind(rawValue: "permission-denied")
        /// The path names a directory.
        public static let isDirectory = Kind(rawValue: "is-directory")
        /// The file is empty (0 bytes) or holds no frames.
        public static let empty = Kind(rawValue: "empty")
        /// The file is not in a format libsndfile recognises. The corresponding C error is `SF_ERR_UNRECOGNISED_FORMAT`.
        public static let notAudio = Kind(rawValue: "not-audio")
        /// The file is cut short or its structure is broken. The corresponding C error is `SF_ERR_MALFORMED_FILE`.
        public static let malformed = Kind(rawValue: "malformed")
        /// The encoding or requested format is not supported. The corresponding C error is `SF_ERR_UNSUPPORTED_ENCODING`.
        public static let unsupported = Kind(rawValue: "unsupported")
        /// The header declares impossible values (0 or more than 64 channels, a rate outside 1 kHz ... 768 kHz).
        public static let invalidHeader = Kind(rawValue: "invalid-header")
        /// An argument is out of range (a bad rate, channel count or quality).
        public static let invalidArgument = Kind(rawValue: "invalid-argument")
        /// The file is longer than a whole-file decode may hold (``DecodeLimits/maxDecodedSamples``).
        public static let tooLarge = Kind(rawValue: "too-large")
        /// The path is not a regular file (a FIFO, a device, a socket).
        public static let notRegularFile = Kind(rawValue: "not-regular-file")
        /// Reading or writing failed at the system level (disk full, I/O error). The corresponding C error is `SF_ERR_SYSTEM`.
        public static let ioFailure = Kind(rawValue: "io-failure")

        public var description: String { rawValue }
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence for people; it names the file.
    public var message: String
    /// The file concerned.
    public var path: String
    /// The libsndfile error code or errno, for diagnostics only (not promised to stay the same).
    public var code: Int32?

    public init(_ kind: Kind, path: String, _ message: String, code: Int32? = nil) {
        self.kind = kind
        self.path = path
        self.message = message
        self.code = code
    }

    public var description: String { message }
}
