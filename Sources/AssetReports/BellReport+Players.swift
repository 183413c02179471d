import AssetPipeline
import AudioCore
import Dispatch
import Foundation
import Synchronization

extension BellReport {
    /// Which candidates the page lets a listener hear, and what they hear: the size and the speed of the page are
    /// its sound (300 bells with 8 s stereo players made an 18.6 MB page, and encoding them took three times the
    /// whole audition).
    ///
    /// - **The first ``limit`` candidates carry a player**, best first: in rank order, the best of each
    ///   near-duplicate group before the others of any group (the others sound the same to a listener). A set of
    ///   ``limit`` candidates or fewer has every player; past it, the rest (at 300 candidates the rejects among them
    ///   first) say how to hear the file (`enso strike FILE`) instead of carrying sound.
    /// - **A player plays the first ``excerptSeconds``, mono**: the strike and the first seconds of the ring, where
    ///   a bell's tone, attack and beating are heard; how long it rings is in its decay figure and measures. The
    ///   mono mix is the audition's own analysis signal (the loudest channel where the mix cancels), encoded as Ogg
    ///   Vorbis at ``ReportAudio`` quality at the page's common level.
    ///
    /// A 6 s mono excerpt is about 24 kB of Vorbis (32 kB in base64) and about 40 ms of one core to encode, so the
    /// 24 players of a large set are about 0.8 MB and 1 CPU-s (docs/benchmarks.md).
    enum Players {
        /// At most this many candidates carry a player: a curator listens best first and decides within the first
        /// two dozen, the whole of a typical set; at 300 candidates it keeps the page near 5 MB and its encoding
        /// near a sixth of the audition's time.
        static let limit = 24
        /// Seconds of a bell a player plays (faded out over its last ``fadeSeconds``).
        static let excerptSeconds = 6.0
        /// The fade at the end of an excerpt cut short: long enough to sound like a release, not a cut.
        static let fadeSeconds = 0.5

        /// The sound a page carries at most, in bytes of base64: 24 players of typical bells take about 0.8 MB, 24 of
        /// recordings over a noise floor up to 1.8 MB; past this, the players that come last go without sound, so
        /// 300 cards (about 13 kB each without a player) and their sound stay under 6 MB.
        static let soundBudget = 1_500_000

        /// The candidates (indices, rank order) that carry a player, in the order they get one: of those with an
        /// excerpt (`hasSound`), the best of each group in rank order, then the others of the groups; the first
        /// ``limit`` of them.
        static func chosen(_ hasSound: [Bool], groups: ReportGroups) -> [Int] {
            let order = hasSound.indices.filter { hasSound[$0] }.sorted { a, b in
                let (la, lb) = (groups.isLead(a), groups.isLead(b))
                return la != lb ? la : a < b
            }
            return Array(order.prefix(limit))
        }

        /// The excerpt of `buffer` a player plays, and its label (``label(_:)``): the first ``excerptSeconds`` of
        /// the audition's analysis signal (the mono mix `mix`, or the loudest channel where the mix cancels).
        static func excerpt(_ buffer: AudioBuffer, mix: [Float]? = nil) -> (Excerpt, String) {
            let rate = buffer.sampleRate.hertz
            let keep = min(buffer.frameCount, Int(excerptSeconds * Double(rate)))
            let whole = mix ?? buffer.finiteMonoMix()
            let signal = buffer.channels > 1 ? BellAudition.analysisSignal(buffer, mono: whole) : whole
            var mono = Array(signal.prefix(keep))
            if keep < buffer.frameCount { ReportAudio.fadeOut(&mono, frames: Int(fadeSeconds * Double(rate))) }
            return (Excerpt(mono, sampleRate: buffer.sampleRate), label(buffer))
        }

        /// What a player of `buffer`'s excerpt says it plays: the whole file, or its first ``excerptSeconds``.
        static func label(_ buffer: AudioBuffer) -> String {
            let keep = min(buffer.frameCount, Int(excerptSeconds * Double(buffer.sampleRate.hertz)))
            let channels = buffer.channels > 1 ? ", mono" : ""
            guard keep < buffer.frameCount else { return "the whole file\(channels)" }
            return "its first \(ReportPage.number(excerptSeconds, digits: 0)) s of "
                + "\(ReportPage.number(buffer.duration)) s\(channels)"
        }

        /// The page's line on its players: how many carry their sound, and how the others are heard: from their
        /// files (`fromFiles`, ``ReportLinks``), or by the command each card gives; and, when the run held too few
        /// distinct sounds' excerpts (``HeldExcerpts``: `held` of them), how many distinct sounds ranked lower were
        /// `passedOver`.
        static func note(
            players chosen: Int, candidates: Int, fromFiles: Bool, passedOver: Int = 0, held: Int = 0
        ) -> String {
            guard chosen < candidates else { return "" }
            let how = fromFiles ? "from disk" : "by the command its card gives"
            let among =
                passedOver == 0
                ? ""
                : " The players were chosen among the best \(held) candidates, whose "
                    + "excerpts a run holds: they are fewer than \(limit) distinct sounds, so \(passedOver) distinct "
                    + "sound\(passedOver == 1 ? " ranked lower is" : "s ranked lower are") heard \(how) instead."
            let others =
                fromFiles
                ? "every other card plays its file from disk, by its path from this page's folder (move the page "
                    + "and the files together, or not at all)"
                : "each other card says how to hear its file"
            return "<p class=\"muted\">The first \(chosen) of \(candidates) candidates carry their sound in the page "
                + "(best first, the best of each near-duplicate group before the others; "
                + "\(ReportPage.number(excerptSeconds, digits: 0)) s, mono), so the page stays small; \(others)."
                + "\(among)</p>\n"
        }

        /// How to hear `file` without the page: the `enso strike` command, quoted for a shell.
        static func hearIt(_ file: String) -> String {
            let quoted = "'" + file.replacingOccurrences(of: "'", with: "'\\''") + "'"
            return "<code>enso strike \(ReportPage.escape(quoted))</code>"
        }

        /// What a card without a player says instead.
        static func absent(_ file: String) -> String {
            "<p class=\"muted noplayer\">Not among this page's players: hear it with \(hearIt(file))</p>"
        }

        /// Encodes the `chosen` excerpts (in parallel) at one common level, each sound dropped once encoded; the
        /// others' sounds are dropped unencoded. The clips are kept in `chosen`'s order while their bytes fit in
        /// `budget` (``soundBudget``); a clip past it is dropped.
        static func encode(
            _ sketches: [Sketch?], chosen: [Int], budget: Int = soundBudget, progress: (@Sendable () -> Void)?
        ) -> (items: [Sketch?], target: Double?) {
            var items = sketches
            let wanted = Set(chosen)
            for i in items.indices where !wanted.contains(i) { items[i]?.sound = nil }
            let picked = chosen.filter { items[$0]?.sound?.excerpt != nil }
            guard !picked.isEmpty else { return (items, nil) }
            // Each excerpt is made floats again where it is measured and where it is encoded (a copy of 6 s: far
            // less than its measuring), so the players' floats are not all held at once (28 MB at 48 kHz).
            let sounds = picked.map { items[$0]!.sound!.excerpt! }
            let levels = Mutex([ReportAudio.Level?](repeating: nil, count: picked.count))
            DispatchQueue.concurrentPerform(iterations: picked.count) { k in
                let level = ReportAudio.level(sounds[k].buffer)
                levels.withLock { $0[k] = level }
            }
            let measured = levels.withLock { $0.map { $0! } }
            let target = ReportAudio.matchedLevel(measured)
            let encoded = Mutex([Result<ReportAudio.Clip, EnsoError>?](repeating: nil, count: picked.count))
            DispatchQueue.concurrentPerform(iterations: picked.count) { k in
                let r = Result(catching: { () throws(EnsoError) -> ReportAudio.Clip in
                    try ReportAudio.clip(sounds[k].buffer, level: measured[k], target: target)
                })
                encoded.withLock { $0[k] = r }
                progress?()
            }
            let clips = encoded.withLock { $0 }
            var spent = 0
            for (k, i) in picked.enumerated() {
                items[i]?.sound = nil
                items[i]?.level = measured[k]
                switch clips[k] {
                case .success(let clip)?:
                    spent += clip.dataURI.utf8.count
                    if spent <= budget { items[i]?.clip = clip }
                case .failure(let error)?: items[i]?.failure = error.message
                case nil: break
                }
            }
            return (items, target)
        }
    }

    /// A mono excerpt held from a file's audition until the page is made: 16-bit samples scaled to its own peak, so
    /// the excerpts of a 300-file batch take half the memory of floats while keeping 96 dB under their peak, far
    /// more than the page's Vorbis keeps.
    struct Excerpt: Sendable {
        var samples: [Int16]
        var scale: Float
        var sampleRate: SampleRate

        init(_ mono: [Float], sampleRate: SampleRate) {
            // The samples are finite, so the largest finite |x| is the peak.
            let peak = mono.withUnsafeBufferPointer { PeakScan.absMax($0) }
            let scale = peak > 0 ? peak / Float(Int16.max) : 1
            let inverse = 1 / scale
            // Truncated toward zero as `Int32(v)` would, without its per-sample trap check and without
            // `rounded(.towardZero)` (a call to libm's `truncf` on this target, which kept the loop scalar):
            // adding and taking away 1.5 × 2²³ rounds a magnitude under 2²² to the nearest whole number, one less
            // where that rounded up is its floor; the whole number is then read from the low mantissa bits after
            // adding 1.5 × 2²³ again (the trick of `StreamingFileWriter.quantize16`, which rounds instead). Every
            // step is a select, so the loop vectorises.
            let magic: Float = 12_582_912
            samples = [Int16](unsafeUninitializedCapacity: mono.count) { out, count in
                mono.withUnsafeBufferPointer { m in
                    for i in m.indices {
                        var v = m[i] * inverse
                        v = v < 32767 ? v : 32767
                        v = v > -32767 ? v : -32767
                        let a = abs(v)
                        let nearest = (a + magic) - magic
                        let floor = nearest > a ? nearest - 1 : nearest
                        let whole = v < 0 ? -floor : floor
                        out[i] = Int16(truncatingIfNeeded: (whole + magic).bitPattern)
                    }
                }
                count = mono.count
            }
            self.scale = scale
            self.sampleRate = sampleRate
        }

        /// The excerpt as floats, for its level and its encoding.
        var buffer: AudioBuffer {
            AudioBuffer(channelData: [samples.map { Float($0) * scale }], sampleRate: sampleRate)
        }
    }
}
