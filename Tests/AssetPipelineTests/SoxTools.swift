import AudioTestSupport
import Foundation

/// The command-line tools the judgment tests make their material with (sox, opusenc), found on `PATH`; nil when
/// missing (`make test-deps` installs them), and the tests that need them show as skipped.
enum SoxTools {
    /// `name` found on `PATH`, or nil.
    static func tool(_ name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let sox = tool("sox")
    static let opusenc = tool("opusenc")
    /// Whether this sox writes MP3 (libsox-fmt-mp3).
    static let soxWritesMP3: Bool = {
        guard let sox, let r = try? ToolRunner.Running(sox, ["-h"]).wait(timeout: 30) else { return false }
        return r.stdout.contains(" mp3")
    }()
}
