import AudioCore
import AudioFile
import Foundation

extension AssetPack {
    /// One addition prepared, stored under its temporary name and checked: what ``add(_:to:replace:strict:)`` does
    /// to every file before it decides, and what a trial (``trial(_:decoded:strict:)``) does without a pack.
    struct Stage {
        /// The manifest entry, naming the temporary file (`bells/.adding-ID.flac`).
        var entry: Entry
        /// The `enso assets check` findings on the stored file.
        var findings: [AssetCheck.Finding]
        /// The findings that keep it out of the pack (fail or error; with `strict`, warn too), as a line of text
        /// reads them (``AssetCheck/readAlone(_:)``); empty when it may join.
        var failed: [AssetCheck.Finding]
        /// What was done to it, in words.
        var steps: [String]

        init(entry: Entry, findings: [AssetCheck.Finding], failed: [AssetCheck.Finding], steps: [String]) {
            (self.entry, self.findings, self.failed, self.steps) = (entry, findings, failed, steps)
        }

        /// The stage of `addition` stored under the temporary name `stored` (relative to the pack) and checked:
        /// its findings naming the file as it will be stored, and those that keep it out.
        init(
            _ addition: Addition, entry: Entry, check: AssetCheck.AssetResult, stored: String, strict: Bool,
            steps: [String]
        ) {
            var check = check
            let file = AssetPack.folder(for: addition.kind) + "/" + addition.id + ".flac"
            for i in check.findings.indices {
                check.findings[i].message = check.findings[i].message.replacingOccurrences(of: stored, with: file)
            }
            let failed = check.findings.filter {
                $0.status == .fail || $0.status == .error || (strict && $0.status == .warn)
            }
            self.init(entry: entry, findings: check.findings, failed: AssetCheck.readAlone(failed), steps: steps)
        }
    }

    /// Prepares `addition` (``prepare(_:_:)``: a bell trimmed, DC removed and normalised to the pack's target), writes
    /// it as 24-bit FLAC to `<dir>/<bells|soundscapes>/.adding-ID.flac`, reads it back and checks it as `enso assets
    /// check` does. The temporary file is left for the caller, who renames or removes it.
    ///
    /// - Throws: `EnsoError`: `.failure` when the folder or file cannot be written; another kind when the file cannot
    ///   become an asset (too quiet to normalise, a true peak too high, a loop that does not fit).
    static func stage(
        _ addition: Addition, _ decoded: DecodedAudio, in dir: String, strict: Bool
    ) throws(EnsoError) -> Stage {
        let fm = FileManager.default
        let prepared = try prepare(addition, decoded)
        let relative = folder(for: addition.kind) + "/.adding-" + addition.id + ".flac"
        let temp = dir + "/" + relative
        do {
            try fm.createDirectory(atPath: dir + "/" + folder(for: addition.kind), withIntermediateDirectories: true)
        } catch {
            throw EnsoError(
                .failure,
                "\(dir): cannot make the \(folder(for: addition.kind)) folder: \(error.localizedDescription)")
        }
        do {
            try AudioFileEncoder.write(prepared.buffer, to: temp, options: EncodeOptions(format: .flac24, loops: []))
        } catch {
            throw EnsoError(.failure, error.message)
        }
        let stored = try AudioFileDecoder.decode(path: temp)
        guard let loudness = try measureLoudness(stored.buffer) else {
            throw EnsoError(.invalidInput, "\(addition.source): too short or silent to have an integrated loudness")
        }
        let entry = Entry(
            id: addition.id, displayName: addition.displayName, kind: addition.kind, file: relative,
            loop: prepared.loop,
            loudness: Loudness(integrated: (loudness * 100).rounded() / 100, target: addition.kind.loudnessTarget),
            licence: addition.licence, command: prepared.steps.joined(separator: " | "))
        // The check reads the file as stored, decoded once above.
        let check = AssetCheck.analyse(entry, decoded: stored, path: temp, strict: strict).result
        return Stage(addition, entry: entry, check: check, stored: relative, strict: strict, steps: prepared.steps)
    }

    /// What `enso assets add` would make of a file already decoded, without a pack: the same preparation, storing
    /// and checks (``stage(_:_:in:strict:)``) in a temporary folder that is removed again. `bells audition --pack`
    /// judges every candidate it would offer by this, so a candidate it keeps is one `assets add` adds.
    ///
    /// - Returns: the failing findings in words (`check: message`), empty when the file would be added; or the reason
    ///   it cannot be prepared at all.
    public static func trial(_ addition: Addition, decoded: DecodedAudio, strict: Bool = false) -> [String] {
        let dir = NSTemporaryDirectory() + "enso-trial-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let stage = try stage(addition, decoded, in: dir, strict: strict)
            // The messages name the file as given, not where the trial stored it.
            let stored = folder(for: addition.kind) + "/" + addition.id + ".flac"
            return stage.failed.map {
                "\($0.check): " + $0.message.replacingOccurrences(of: stored, with: addition.source)
            }
        } catch {
            return [error.message]
        }
    }
}
