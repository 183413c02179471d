import AudioCore
import AudioFile
import Foundation

extension AssetPack {
    /// ``stage(_:_:in:strict:)`` for a long soundscape (``AssetCheck/streams(_:_:)``), never held whole: its loop
    /// found from its header or sidecar, its gain to the target measured in passes over the file in chunks (by the
    /// rule of ``normalizationGain(target:name:loudness:)``, since the relative gate moves with the level), then one more
    /// pass writing it with that gain as 24-bit FLAC under its temporary name, which is checked as `assets check`
    /// checks a long soundscape (``AssetCheck/analyseStreaming(_:path:info:strict:)``).
    ///
    /// - Throws: as ``stage(_:_:in:strict:)``.
    static func stageStreaming(
        _ addition: Addition, info: AudioFileInfo, in dir: String, strict: Bool
    ) throws(EnsoError) -> Stage {
        let target = addition.kind.loudnessTarget
        let region = try LoopVerifier.loopRegion(info: info, frames: info.frames, path: addition.source).region
        let gain = try normalizationGain(target: target, name: addition.source) { (gain) throws(EnsoError) in
            try AssetCheck.pass(path: addition.source, gain: gain).loudness
        }
        let relative = folder(for: addition.kind) + "/.adding-" + addition.id + ".flac"
        let temp = dir + "/" + relative
        do {
            try FileManager.default.createDirectory(
                atPath: dir + "/" + folder(for: addition.kind), withIntermediateDirectories: true)
        } catch {
            throw EnsoError(
                .failure,
                "\(dir): cannot make the \(folder(for: addition.kind)) folder: \(error.localizedDescription)")
        }
        // The loudness written: the manifest's figure (the check then reads the stored file's, within 0.1 LU).
        let written: Double?
        do throws(EnsoError) {
            let writer = try StreamingFileWriter(
                path: temp, format: .flac24, sampleRate: info.sampleRate, channels: info.channels)
            written = try AssetCheck.pass(path: addition.source, gain: Float(gain)) { (chunk) throws(EnsoError) in
                try writer.write(interleaved: chunk)
            }.loudness
            try writer.finish()
        } catch {
            throw error.kind == .invalidInput ? error : EnsoError(.failure, error.message)
        }
        guard let written else {
            throw EnsoError(.invalidInput, "\(addition.source): too short or silent to have an integrated loudness")
        }
        let stored = try AudioFileDecoder.info(path: temp)
        let whole = region.start == 0 && region.end == FramePosition(info.frames)
        let name = (addition.source as NSString).lastPathComponent
        let steps = [
            "enso assets add --kind soundscape \(name)",
            String(format: "gain %+.2f dB to %g LUFS", 20 * log10(Double(gain)), target), "flac 24-bit",
        ]
        let entry = Entry(
            id: addition.id, displayName: addition.displayName, kind: addition.kind, file: relative,
            loop: whole ? nil : region,
            loudness: Loudness(integrated: (written * 100).rounded() / 100, target: target), licence: addition.licence,
            command: steps.joined(separator: " | "))
        let check = AssetCheck.analyseStreaming(entry, path: temp, info: stored, strict: strict).result
        return Stage(addition, entry: entry, check: check, stored: relative, strict: strict, steps: steps)
    }
}
