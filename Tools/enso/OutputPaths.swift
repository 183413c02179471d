import AudioFile
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
/// checked first, so the work is not lost to a typo in the path, and never written over what the command reads.
enum OutputFolder {
    /// Throws a usage error (exit 64) naming `--option` when `path` is a folder, is one of `inputs` (the files the
    /// command reads, as named: the same path, a hard link or a symbolic link to it), is an existing audio file (a
    /// page or a selection written over a recording loses it), or when its folder does not exist or is not writable.
    static func check(_ path: String, option: String, inputs: [String] = []) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw UsageError(
                    "--\(option) \(path): is a folder; name the file to write in it (for example \(example(in: path, option)))"
                )
            }
            for input in inputs {
                do { try DistinctOutput.check(input: input, output: path) } catch {
                    throw UsageError("--\(option) \(path): is the input file \(input), which is never written over")
                }
            }
            if AudioFileExtensions.isAudio(path) {
                throw UsageError("--\(option) \(path): is an audio file, which is never written over")
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("--\(option) \(path): the folder \(dir) does not exist")
        }
        guard access(dir, W_OK) == 0 else {
            throw UsageError(
                "--\(option) \(path): the folder \(dir) is not writable (\(String(cString: strerror(errno))))")
        }
    }

    /// A file in `folder` a folder given as `--option` is told to name: `report.html`, or `OPTION.json`.
    private static func example(in folder: String, _ option: String) -> String {
        (folder as NSString).appendingPathComponent(option == "html" ? "report.html" : option + ".json")
    }
}
