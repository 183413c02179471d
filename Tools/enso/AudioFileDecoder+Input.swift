import AudioFile
import CLISupport

extension AudioFileDecoder {
    /// Decodes the audio file a command reads, whole; its failure is the command's.
    ///
    /// - Throws: `CommandFailure` built from the decoder's error (exit 2 for a file that cannot be read, its detail
    ///   as the JSON error's code; see `CommandFailure.init(_:file:exitCode:)`).
    static func decodeInput(_ path: String) throws -> DecodedAudio {
        do {
            return try decode(path: path)
        } catch {
            throw CommandFailure(error)
        }
    }
}
