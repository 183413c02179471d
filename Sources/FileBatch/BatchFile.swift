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
    /// A path that does not exist, and a folder that holds no audio file, stay in the batch as themselves, so the
    /// command gives each its own error row (naming it) instead of silently selecting nothing.
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
