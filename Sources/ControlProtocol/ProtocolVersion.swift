/// The version of the JSON-lines control protocol, reported in the server's first line (`hello`).
public enum ProtocolVersion {
    /// Bumped when a change breaks clients; additions (fields, commands, events) keep the number.
    public static let current = 1
}
