import AudioFile
import Foundation

/// One file of a batch: the path a command opens and names in its row, and where it was found: the ``root`` given
/// on the command line and the ``relativePath`` under it, which shards (``Shard``) and resumes read.
///
/// - Thread safety: a value type; any thread.
public struct BatchFile: Hashable, Sendable {
    /// The path as the command opens and names it (`bells/b07.wav` for `bells/`'s `b07.wav`).
    public var path: String
    /// The folder given on the command line it was found under (without a trailing `/`), or, for a file given
    /// itself, its folder as given (`.` when the path names none).
    public var root: String
    /// The path relative to ``root`` (`b07.wav`, `takes/b07.wav`).
    public var relativePath: String

    public init(path: String, root: String, relativePath: String) {
        self.path = path
        self.root = root
        self.relativePath = relativePath
    }

    /// The batch of `inputs`: each folder searched recursively for audio files (the one table of endings,
    /// ``AudioFile/AudioFileExtensions``, sorted), each file as given, in the inputs' order.
    ///
    /// A path that does not exist stays in the batch as itself, so the command gives it its own error row (naming it)
    /// instead of silently selecting nothing. So does a folder that holds no audio file; the batch commands refuse
    /// one before they start (``foldersWithoutAudio(_:)``): a folder is no audio file to give a row.
    ///
    /// - Complexity: one walk of each folder; the batch holds one path per file (the rows are not held here).
    public static func expand(_ inputs: [String]) -> [BatchFile] {
        var out: [BatchFile] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory)
            if exists && isDirectory.boolValue {
                var root = input
                while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
                let found = AudioFileExtensions.files(under: input)
                if !found.isEmpty {
                    let prefix = root == "/" ? "/" : root + "/"
                    out += found.map { BatchFile(path: prefix + $0, root: root, relativePath: $0) }
                    continue
                }
            }
            out.append(given(input))
        }
        return out
    }

    /// The file's absolute path with the symbolic links of its folder resolved: `realpath(3)` of the folder, then the
    /// file's name (a link to a file is a file of its own, with its own name). `x.wav`, `./x.wav`, `a/../x.wav`,
    /// `b//x.wav` (in `b`) and `$PWD/x.wav`, a file given itself or found in a folder given, are the one path: what
    /// tells rows of one file from rows of another (``ResultEnvelope/realPath``).
    ///
    /// The corresponding C function is `realpath`.
    /// - Returns: `nil` when the folder cannot be resolved (it does not exist, or may not be searched).
    public func realPath() -> String? {
        let (folder, name) = Self.split(path)
        guard name != "." && name != ".." else { return Self.resolved(path) }
        guard let real = Self.resolved(folder) else { return nil }
        return real == "/" ? "/" + name : real + "/" + name
    }

    /// `path` made absolute from `directory` (when it is relative) with its `.` and `..` components and repeated `/`
    /// taken out, without reading the disk (`a/../x.wav` from `/w` is `/w/x.wav`): where ``realPath()`` cannot be
    /// known (a folder gone, a row made on a disk not at hand), the nearest thing to it.
    public static func absolute(_ path: String, from directory: String) -> String {
        var parts: [Substring] = []
        let whole = path.hasPrefix("/") ? path : directory + "/" + path
        for part in whole.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The process's working directory (`/` when it cannot be read): what relative paths are relative to.
    public static var workingDirectory: String { FileManager.default.currentDirectoryPath }

    /// `realpath(3)` of `path`, or `nil`.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// `path`'s folder (`.` when it names none, `/` for one at the root) and last component, trailing `/` dropped.
    private static func split(_ path: String) -> (folder: String, name: String) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", trimmed) }
        let folder = trimmed[..<slash]
        return (folder.isEmpty ? "/" : String(folder), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// A folder given on the command line in which a walk finds no audio file: what a batch refuses before it
    /// starts (``foldersWithoutAudio(_:)``), since a folder is no audio file to give a row.
    public struct FolderWithoutAudio: Sendable, Equatable {
        /// The folder as given.
        public var folder: String
        /// The files under it (searched recursively), none of them with an audio ending.
        public var otherFiles: Int
        /// The `errno` of opening it when it cannot be read (`EACCES`), else `nil`.
        public var readError: Int32?
    }

    /// The folders among `inputs` under which ``expand(_:)`` finds no audio file (the endings of
    /// ``AudioFile/AudioFileExtensions``, searched recursively): an empty folder, one of text files only, one that
    /// cannot be read. Files and paths that do not exist are not looked at (each gets its own row).
    ///
    /// - Complexity: a walk of each folder that stops at its first audio file.
    public static func foldersWithoutAudio(_ inputs: [String]) -> [FolderWithoutAudio] {
        var out: [FolderWithoutAudio] = []
        let fm = FileManager.default
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            guard let handle = opendir(input) else {
                out.append(FolderWithoutAudio(folder: input, otherFiles: 0, readError: errno))
                continue
            }
            closedir(handle)
            guard let walker = fm.enumerator(atPath: AudioFileExtensions.resolved(input)) else {
                out.append(FolderWithoutAudio(folder: input, otherFiles: 0, readError: nil))
                continue
            }
            var others = 0
            var found = false
            // As ``AudioFileExtensions/files(under:)`` selects: an audio ending on anything but a folder (a link
            // whose target is gone and a name that is not UTF-8 included).
            for case let relative as String in walker {
                let full = (input as NSString).appendingPathComponent(relative)
                var folder: ObjCBool = false
                if fm.fileExists(atPath: full, isDirectory: &folder) && folder.boolValue { continue }
                if AudioFileExtensions.isAudio(relative) && AudioFileExtensions.isEntry(relative, under: input) {
                    found = true
                    break
                }
                others += 1
            }
            if !found { out.append(FolderWithoutAudio(folder: input, otherFiles: others, readError: nil)) }
        }
        return out
    }

    /// A file given itself: its folder as given is the root.
    static func given(_ path: String) -> BatchFile {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else {
            return BatchFile(path: path, root: ".", relativePath: trimmed)
        }
        let folder = trimmed[..<slash]
        return BatchFile(
            path: path, root: folder.isEmpty ? "/" : String(folder),
            relativePath: String(trimmed[trimmed.index(after: slash)...]))
    }
}
