import AudioCore
import CSndFile
import Glibc
import SystemIO

// Why a file cannot be opened, as precisely as we can tell: path checks before libsndfile, header
// sanity after it, and a header probe to explain libsndfile's internal error numbers.

extension SoundFileReader {
    /// Refuses paths that are missing, unreadable, directories or not regular files (a FIFO, `/dev/zero`), and
    /// paths holding a NUL byte (the C call would open the prefix: `/etc/passwd\0.wav`), with the precise reason; a
    /// name that is not UTF-8 (given as the walks and the command line decode it) is not found, saying so.
    static func checkPath(_ path: String) throws(EnsoError) {
        if path.utf8.contains(0) {
            throw EnsoError(
                .invalidArgument, path: path,
                "\(path.debugDescription): the path contains a NUL byte; no file can have it",
                code: EINVAL)
        }
        var st = stat()
        let statError = system_stat(path, &st)
        if statError == ENOENT, path.unicodeScalars.contains(AudioFileExtensions.undecodedName) {
            throw EnsoError(
                .notFound, path: path,
                "\(path): no file by that name: its name on disk, or a folder's on its path, is not UTF-8 (the bytes "
                    + "that are not show as \u{FFFD}), and names are read as UTF-8: give it a UTF-8 name (a Latin-1 "
                    + "one: convmv -f latin1 -t utf8 --notest FILE)",
                code: ENOENT)
        }
        if statError != 0 {
            throw EnsoError(errno: statError, path, path: path)
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw EnsoError(.isDirectory, path: path, "\(path): is a directory, not an audio file", code: EISDIR)
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            let type: String =
                switch st.st_mode & S_IFMT {
                case S_IFIFO: "a FIFO (named pipe)"
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                case S_IFSOCK: "a socket"
                default: "not a file"
                }
            throw EnsoError(.notRegularFile, path: path, "\(path): not a regular file (\(type)); give an audio file")
        }
        let accessError = system_access(path, R_OK)
        if accessError != 0 {
            throw EnsoError(
                .permissionDenied, path: path, "\(path): cannot read: \(systemReason(accessError))",
                code: accessError)
        }
        if st.st_size == 0 {
            throw EnsoError(.empty, path: path, "\(path): the file is empty (0 bytes)")
        }
    }

    /// Refuses headers with impossible values, a cut-off data chunk, or no frames.
    static func validate(_ sfinfo: SF_INFO, path: String) throws(EnsoError) {
        guard ChannelCount.validRange.contains(Int(sfinfo.channels)) else {
            throw EnsoError(
                .invalidHeader, path: path, "\(path): header declares \(sfinfo.channels) channels (1...64 supported)")
        }
        guard (1000...768_000).contains(sfinfo.samplerate) else {
            throw EnsoError(
                .invalidHeader, path: path,
                "\(path): header declares a sample rate of \(sfinfo.samplerate) Hz (1 kHz ... 768 kHz supported)")
        }
        if sfinfo.frames == Int64.max {
            throw EnsoError(
                .truncated, path: path, "\(path): truncated: the stream has no end (its last page or block is missing)")
        }
        let major = Int(sfinfo.format & Int32(SF_FORMAT_TYPEMASK))
        let chunked = major == Int(SF_FORMAT_WAV) || major == Int(SF_FORMAT_WAVEX) || major == Int(SF_FORMAT_AIFF)
        if chunked, let probe = AudioHeaderProbe.probe(path: path), probe.isTruncated {
            throw EnsoError(
                .truncated, path: path,
                "\(path): truncated: the \(probe.container) data chunk declares \(probe.declaredDataBytes ?? 0) bytes but the file holds \(probe.availableDataBytes ?? 0)"
            )
        }
        guard sfinfo.frames > 0 else {
            throw EnsoError(.empty, path: path, "\(path): the file holds no audio frames")
        }
    }

    /// The error for a failed `sf_open`: libsndfile's code, sharpened by what the header declares.
    static func openFailure(path: String, code: Int32, text: String) -> EnsoError {
        if let probe = AudioHeaderProbe.probe(path: path) {
            if !ChannelCount.validRange.contains(probe.channels) {
                return EnsoError(
                    .invalidHeader, path: path,
                    "\(path): \(probe.container) header declares \(probe.channels) channels (1...64 supported)",
                    code: code)
            }
            if !(1000...768_000).contains(probe.sampleRate) {
                return EnsoError(
                    .invalidHeader, path: path,
                    "\(path): \(probe.container) header declares a sample rate of \(Int(probe.sampleRate)) Hz (1 kHz ... 768 kHz supported)",
                    code: code)
            }
            if !probe.encodingKnown {
                return EnsoError(
                    .unsupported, path: path,
                    "\(path): unsupported \(probe.container) encoding (\(probe.encoding)): \(text)", code: code)
            }
        }
        // libsndfile's "File does not exist or is not a regular file (possibly a pipe?)", which its MPEG decoder also
        // gives for a stream it finds no frame in: the path's checks have shown the file is there and regular.
        if code == sndfileBadFile {
            let why =
                DecoderMessages.mayBeMPEG(path) ? "no MPEG audio frame its decoder can read" : "no stream it reads"
            return EnsoError(
                .notAudio, path: path, "\(path): not an audio file libsndfile recognises: \(why)", code: code)
        }
        let kind = errorKind(forSndfileCode: code)
        let what = kind == .notAudio ? "not an audio file libsndfile recognises" : "cannot read audio"
        return EnsoError(kind, path: path, "\(path): \(what): \(text)", code: code)
    }
}
