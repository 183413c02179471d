import CLISupport
import Foundation
import Glibc

/// Commands that read IN and write OUT (`convert`, `bells trim|normalize`, `loops bake`) never write over IN: their
/// output is a trimmed, re-levelled or re-encoded copy, and the source is what the user needs to try again.
enum DistinctOutput {
    /// Throws a usage error (exit 64) when `output` is the file `input` names: the same path, a hard link or a
    /// symbolic link to it.
    static func check(input: String, output: String) throws {
        var a = stat()
        var b = stat()
        guard stat(input, &a) == 0, stat(output, &b) == 0 else { return }
        if a.st_dev == b.st_dev && a.st_ino == b.st_ino {
            throw UsageError(
                "\(output) is the input file \(input): OUT must be another file (IN is never written over)")
        }
    }
}

/// Files a command writes only after long work (`--html` reports after a batch, `--selection` after listening):
/// their folder is checked first, so the work is not lost to a typo in the path.
enum OutputFolder {
    /// Throws a usage error (exit 64) naming `--option` when the folder of `path` does not exist or is not writable.
    static func check(_ path: String, option: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--\(option) \(path): the folder \(dir) does not exist")
        }
        guard access(dir, W_OK) == 0 else {
            throw UsageError(
                "--\(option) \(path): the folder \(dir) is not writable (\(String(cString: strerror(errno))))")
        }
    }
}
