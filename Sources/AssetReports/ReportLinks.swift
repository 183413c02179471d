import Foundation

/// Where a page finds the files it describes, so that every candidate is playable without the page carrying its
/// sound: each file by a URL relative to the folder the page is written to (issue #45: 300 embedded excerpts would
/// make a page of tens of megabytes).
///
/// A file named on the command line relative to the working directory, or by an absolute path, is linked from the
/// page's folder (`enso bells audition bells/ --html out/report.html` links `../bells/a.wav`). The links keep
/// working while the page and the files keep their places relative to each other: a page beside its files, or the
/// folder that holds both, can be moved, copied or served over HTTP as one; a page mailed alone keeps only its
/// embedded excerpts, and its file players say the file is not where the page expects it.
///
/// - Thread safety: a value; any thread.
public struct ReportLinks: Sendable {
    /// The page's folder, as absolute path components.
    let folder: [String]
    /// The folder relative file names are read from, as absolute path components.
    let base: [String]

    /// Links for a page written to `page`, whose files are named relative to `workingDirectory`.
    public init(page: String, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        base = Self.components(workingDirectory, base: [])
        folder = Array(Self.components(page, base: base).dropLast())
    }

    /// The URL of `file` relative to the page's folder, each path segment percent-encoded (RFC 3986: every byte
    /// but letters, digits and `-._~`), or nil for a name that is no file (`-`, standard input).
    func url(_ file: String) -> String? {
        guard !file.isEmpty, file != "-", !file.hasPrefix("<") else { return nil }
        let path = Self.components(file, base: base)
        var shared = 0
        while shared < min(path.count - 1, folder.count) && path[shared] == folder[shared] { shared += 1 }
        let segments = Array(repeating: "..", count: folder.count - shared) + path[shared...]
        return segments.map { Self.encode($0) }.joined(separator: "/")
    }

    /// The absolute path components of `path` (relative paths from `base`), `.` and `..` resolved by name, as a
    /// URL resolves them (symbolic links are not followed).
    static func components(_ path: String, base: [String]) -> [String] {
        var out = path.hasPrefix("/") ? [] : base
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !out.isEmpty { out.removeLast() }
            default: out.append(String(part))
            }
        }
        return out
    }

    /// Characters a path segment keeps as they are (RFC 3986 "unreserved"); `..` stays a parent step.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? segment
    }
}
