import AudioCore
import AudioTestSupport
import Foundation
import Glibc
import Testing

@testable import AudioFile

/// A full disk is said as such (issue 47, item 11): libsndfile's FLAC encoder reported it as "problem with
/// initialization of the flac decoder". The disk is a 64 KiB tmpfs, filled up, mounted for the test (root only).
@Suite struct FullDiskTests {
    /// A small tmpfs mounted at a new folder, or `nil` when this process may not mount one (not root, or no
    /// `CAP_SYS_ADMIN` in a container).
    static func mountTinyDisk() -> String? {
        guard geteuid() == 0 else { return nil }
        let dir = ToolRunner.temporaryDirectory("tiny-disk")
        guard let r = try? ToolRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]),
            r.exitCode == 0
        else { return nil }
        return dir
    }

    static let canMount: Bool = {
        guard let dir = mountTinyDisk() else { return false }
        _ = try? ToolRunner.run("/bin/umount", [dir])
        return true
    }()

    @Test(.enabled(if: canMount, "needs root and the right to mount a tmpfs"))
    func aFullDiskWhileWritingAFLACSaysNoSpaceLeft() throws {
        let disk = try #require(Self.mountTinyDisk())
        defer { _ = try? ToolRunner.run("/bin/umount", [disk]) }
        // Fill it: the last write fails with ENOSPC.
        _ = writeTestFile(disk + "/fill", Data(count: 1 << 20))
        let fd = open(disk + "/fill", O_WRONLY | O_APPEND)
        while fd >= 0 && write(fd, [UInt8](repeating: 0, count: 4096), 4096) > 0 {}
        close(fd)
        let wave = SignalGenerator.sine(frequency: 440, amplitude: 0.5, frames: 48_000, sampleRate: 48_000)
        let tone = AudioBuffer(channelData: [wave, wave], sampleRate: SampleRate(checked: 48_000))
        let target = disk + "/bell.flac"
        for format in [EncodeFormat.flac, .flac24, .wav16] {
            let error = #expect(throws: EnsoError.self) {
                try AudioFileEncoder.write(tone, to: target, options: EncodeOptions(format: format))
            }
            #expect(
                error?.message.lowercased().contains("no space left on device") == true,
                "\(format): \(String(describing: error))")
            #expect(error?.message.contains("flac decoder") == false, "\(format)")
            #expect(error?.code == ENOSPC || error?.message.contains("cannot create") == true, "\(format)")
        }
        // Nothing half-written is left on the disk.
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == ["fill"])
    }
}
