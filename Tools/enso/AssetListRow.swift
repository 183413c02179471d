import AssetPipeline
import AudioFile
import ControlProtocol
import Foundation

/// One row of `enso assets list --json`: the protocol's asset object (`AssetsReply.Entry`, docs/protocol.md's
/// `assets`: `id`, `name`, `kind`, `durationSeconds`, `loopSeconds`, `loudnessLUFS`, `licence`, `problem`), so a
/// front end reads one shape from the CLI and the server, and the stored `file` (relative to the pack). Read from the
/// manifest and the file's header: nothing is decoded. A file that cannot be read, or a soundscape whose manifest loop
/// does not fit its file (the test and the words of `assets check`'s `loop` rule, ``PackMeasures/loopFits``: `render`
/// and `play` refuse such a loop), has a `problem`.
struct AssetListRow: Encodable {
    var entry: AssetsReply.Entry
    var file: String

    init(_ e: AssetPack.Entry, in pack: AssetPack) {
        var duration: Double?
        var loop: Double?
        var problem: String?
        do {
            let info = try AudioFileDecoder.info(path: pack.path(of: e))
            duration = info.duration
            // A soundscape without a loop in the manifest loops as a whole file (EngineAssetLoader.ThemeLoop).
            if e.kind == .soundscape {
                let measures = PackMeasures(entry: e, frameCount: Int(info.frames))
                if measures.loopFits {
                    loop = info.sampleRate.seconds(frames: measures.loopRegion.length)
                } else {
                    problem = measures.loopMisfit
                }
            }
        } catch {
            problem = error.message
        }
        // As played: the file's loudness, which the manifest records (`manifest-loudness` checks it), plus its gain.
        entry = AssetsReply.Entry(
            id: e.id, name: e.displayName, kind: e.kind.rawValue, durationSeconds: duration, loopSeconds: loop,
            loudnessLUFS: e.loudness.integrated + e.gainDB, licence: e.licence, problem: problem)
        file = e.file
    }

    enum CodingKeys: String, CodingKey { case file }

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
    }
}
