import ControlProtocol

/// Turns one framed line into its reply: envelope checks, command decoding, then `execute` for a valid
/// command. Every input, however malformed, gets exactly one reply; nothing here can fail otherwise.
///
/// This is the surface the protocol fuzzer drives.
///
/// - Thread safety: stateless; the caller's thread.
public enum RequestDispatcher {
    /// The reply to `frame`.
    ///
    /// - Parameters:
    ///   - frame: a line, or an oversized line that was dropped.
    ///   - execute: runs a decoded command and returns its data or error.
    public static func reply(
        to frame: LineFramer.Frame, execute: (ControlCommand) -> Result<JSONValue, ProtocolError>
    ) -> Reply {
        switch frame {
        case .oversized(let count):
            return .failure(
                nil,
                ProtocolError(
                    .lineTooLong,
                    "line dropped: over \(LineFramer.maxLineBytes) bytes (\(count) bytes read before giving up)"))
        case .line(let bytes):
            let request: Request
            do throws(Request.Failure) {
                request = try Request.parse(bytes)
            } catch {
                return .failure(error.id, error.error)
            }
            let command: ControlCommand
            do throws(ProtocolError) {
                command = try ControlCommand(request)
            } catch {
                return .failure(request.id, error)
            }
            return Reply(id: request.id, outcome: execute(command))
        }
    }
}
