import AudioCore
import AudioFile
import Foundation
import SystemIO

/// Loop points kept beside an audio file whose container cannot hold them (FLAC, Ogg, Opus, MP3):
/// `FILE.loop.json` next to `FILE` (for example `rain.ogg.loop.json`).
///
/// Schema (version 1), documented in docs/loops.md:
///
///     {"version": 1, "file": "rain.ogg", "sampleRate": 48000, "frames": 1440000,
///      "loop": {"start": 0, "end": 1440000}}
///
/// `file` is the audio file's name (no folder), `frames` its length, `loop` in frames with `end` exclusive.
/// Readers ignore unknown fields; a sidecar whose `frames` or `sampleRate` disagree with the audio is stale and
/// is refused with an error naming both files.
public struct LoopSidecar: Codable, Sendable, Equatable {
    /// The schema version this code writes and reads.
    public static let currentVersion = 1

    public var version: Int
    /// The audio file's name, without its folder.
    public var file: String
    public var sampleRate: Int
    public var frames: FrameCount
    public var loop: LoopRegion

    public init(file: String, sampleRate: Int, frames: FrameCount, loop: LoopRegion) {
        self.version = Self.currentVersion
        self.file = file
        self.sampleRate = sampleRate
        self.frames = frames
        self.loop = loop
    }

    /// The sidecar path for the audio file at `audioPath`.
    public static func path(for audioPath: String) -> String { audioPath + ".loop.json" }

    /// Reads the sidecar of `audioPath`, checking it against the audio's rate and length.
    ///
    /// - Returns: `nil` when there is no sidecar.
    /// - Throws: `EnsoError` `.invalidInput` when the sidecar is malformed, of an unknown version, stale or
    ///   its loop does not fit; the message names the sidecar file.
    public static func read(for audioPath: String, sampleRate: Int, frames: FrameCount) throws(EnsoError)
        -> LoopSidecar?
    {
        let sidecarPath = path(for: audioPath)
        guard FileManager.default.fileExists(atPath: sidecarPath) else { return nil }
        let sidecar: LoopSidecar
        var data = Data()
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: sidecarPath))
            sidecar = try JSONDecoder().decode(LoopSidecar.self, from: data)
        } catch let error as DecodingError {
            throw EnsoError(
                .invalidInput, "\(sidecarPath): not a loop sidecar (\(JSONSyntax.message(error, in: data)))")
        } catch {
            throw EnsoError(.invalidInput, "\(sidecarPath): not a loop sidecar (\(describe(error)))")
        }
        guard sidecar.version == currentVersion else {
            throw EnsoError(
                .invalidInput,
                "\(sidecarPath): version \(sidecar.version) is not supported (this enso reads \(currentVersion))")
        }
        guard sidecar.sampleRate == sampleRate, sidecar.frames == frames else {
            throw EnsoError(
                .invalidInput,
                "\(sidecarPath): stale: written for \(sidecar.frames) frames at \(sidecar.sampleRate) Hz, but \(audioPath) has \(frames) frames at \(sampleRate) Hz"
            )
        }
        guard sidecar.loop.start >= 0, sidecar.loop.end <= frames, sidecar.loop.start < sidecar.loop.end else {
            throw EnsoError(
                .invalidInput,
                "\(sidecarPath): loop \(sidecar.loop.start)..<\(sidecar.loop.end) does not fit in \(frames) frames")
        }
        return sidecar
    }

    /// Writes this sidecar beside `audioPath`, atomically (a temporary file in the same folder, then rename).
    ///
    /// - Throws: `EnsoError` `.failure` naming the sidecar when it cannot be written.
    public func write(for audioPath: String) throws(EnsoError) {
        let target = Self.path(for: audioPath)
        let data: Data
        do {
            data = try PrettyJSON.encode(self)
        } catch {
            throw EnsoError(.failure, "\(target): cannot write the loop sidecar (\(Self.describe(error)))")
        }
        do {
            try AtomicFile.write(Array(data), to: target)
        } catch {
            throw EnsoError(.failure, "cannot write the loop sidecar: \(error.message)")
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let e = error as? DecodingError { return e.fieldMessage }
        return (error as NSError).localizedDescription
    }
}
