import CLISupport
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
            throw UsageError("\(output) is the input file \(input): OUT must be another file (IN is never written over)")
        }
    }
}
