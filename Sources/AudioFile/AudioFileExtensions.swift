import CSndFile
import Foundation

/// The one table of audio file name endings: what a folder walk (`enso bells audition DIR`, `enso loops verify DIR`,
/// `enso assets check`'s unlisted files) picks up, and what makes a name a file rather than an asset id.
///
/// Every file is decoded by libsndfile (``AudioFileDecoder``), so the table is built from what it reads: each ending
/// is paired with the libsndfile major format that opens it, and a test checks the pairs against the formats the
/// linked libsndfile lists (`SFC_GET_FORMAT_MAJOR`). Formats nobody ships sounds in (MATLAB, Sound Designer, PAF, raw
/// headerless data that cannot be opened without being told its format) are left out. A file named explicitly is
/// always tried, whatever its ending.
///
/// - Thread safety: immutable; any thread.
public enum AudioFileExtensions {
    /// Each ending (lower case, no dot) and the libsndfile major format (`SF_FORMAT_…`) that reads it.
    public static let table: [(ending: String, format: Int32)] = [
        ("wav", Int32(SF_FORMAT_WAV)), ("wave", Int32(SF_FORMAT_WAV)),
        ("aif", Int32(SF_FORMAT_AIFF)), ("aiff", Int32(SF_FORMAT_AIFF)), ("aifc", Int32(SF_FORMAT_AIFF)),
        ("au", Int32(SF_FORMAT_AU)),
        ("flac", Int32(SF_FORMAT_FLAC)),
        ("ogg", Int32(SF_FORMAT_OGG)), ("oga", Int32(SF_FORMAT_OGG)), ("opus", Int32(SF_FORMAT_OGG)),
        ("mp3", Int32(SF_FORMAT_MPEG)), ("m1a", Int32(SF_FORMAT_MPEG)),
        ("w64", Int32(SF_FORMAT_W64)), ("rf64", Int32(SF_FORMAT_RF64)), ("caf", Int32(SF_FORMAT_CAF)),
    ]

    /// The endings of ``table``.
    public static let all: Set<String> = Set(table.map(\.ending))

    /// Whether `path` ends in one of ``all`` (case-insensitive).
    public static func isAudio(_ path: String) -> Bool {
        all.contains((path as NSString).pathExtension.lowercased())
    }

    /// The files under `folder` (recursively) whose names end in an audio ending, as paths relative to it, sorted.
    /// A symbolic link whose target is gone is listed too, and so is a file whose name is not UTF-8 (the walk gives
    /// its undecodable bytes as U+FFFD, a name no file has): reading it then fails naming it, where leaving it out
    /// would drop a file from a batch without a word. A folder given as a symbolic link is walked where it points (the
    /// walk itself follows no link), its files named under it as given.
    public static func files(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: resolved(folder)) else { return [] }
        var found: [String] = []
        for case let relative as String in walker where isAudio(relative) && isEntry(relative, under: folder) {
            found.append(relative)
        }
        return found.sorted()
    }

    /// Whether `relative`, a path a walk of `folder` gave, is an entry ``files(under:)`` lists: anything but a folder,
    /// a symbolic link whose target is gone, or a name that is not UTF-8 (``undecodedName``).
    public static func isEntry(_ relative: String, under folder: String) -> Bool {
        var isDirectory: ObjCBool = false
        let full = (folder as NSString).appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) { return !isDirectory.boolValue }
        return (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) != nil
            || relative.unicodeScalars.contains(undecodedName)
    }

    /// What a file name's bytes that are not UTF-8 read as once decoded (U+FFFD, the replacement character): Foundation's
    /// walks and the command line's arguments give such a name so, and no file on disk has it.
    public static let undecodedName: Unicode.Scalar = "\u{FFFD}"

    /// `folder` with its symbolic links resolved (`realpath(3)`), or as given when it cannot be: where a walk of it
    /// starts.
    public static func resolved(_ folder: String) -> String {
        guard let real = realpath(folder, nil) else { return folder }
        defer { free(real) }
        return String(cString: real)
    }

    /// The major formats the linked libsndfile reads, with the ending it names for each (`SFC_GET_FORMAT_MAJOR`).
    public static func libsndfileFormats() -> [(format: Int32, ending: String)] {
        var count: Int32 = 0
        _ = system_sf_command(nil, Int32(SFC_GET_FORMAT_MAJOR_COUNT), &count, Int32(MemoryLayout<Int32>.size))
        return (0..<count).map { i in
            var info = SF_FORMAT_INFO()
            info.format = i
            _ = system_sf_command(nil, Int32(SFC_GET_FORMAT_MAJOR), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
            return (info.format, info.extension.map { String(cString: $0) } ?? "")
        }
    }
}
