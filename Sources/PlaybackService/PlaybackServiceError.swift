/// An error from PlaybackService: what the caller can do about it (`kind`), a sentence for people, and the
/// underlying C or errno code for diagnostics when there is one.
public struct PlaybackServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, chosen by what the caller can do. Stable: callers may switch on it.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The input is invalid (out of range, malformed, too short); fix the input.
        public static let invalidInput = Kind(rawValue: "invalid-input")
        /// A resource is busy; retrying later may work.
        public static let busy = Kind(rawValue: "busy")
        /// A resource is not there (no device, no file, no asset).
        public static let unavailable = Kind(rawValue: "unavailable")
        /// The configuration is not supported.
        public static let unsupported = Kind(rawValue: "unsupported")
        /// Permission was refused.
        public static let permission = Kind(rawValue: "permission")
        /// Something failed at the system level (I/O, a library call).
        public static let failure = Kind(rawValue: "failure")

        public var description: String { rawValue }
    }

    public var kind: Kind
    public var message: String
    /// The C library or errno code, for diagnostics only.
    public var code: Int32?

    public init(_ kind: Kind, _ message: String, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    public var description: String { message }
}
