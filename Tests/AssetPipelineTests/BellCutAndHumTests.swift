import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// A sound cut off while it rings, and a floor that is hum (issue 43 §2 and §3; docs/bells.md, "Cut while ringing"
/// and "Hum is a floor"): cuts and hum made with sox, as a curator's tools would make them, on both sides of each line.
@Suite(.enabled(if: SoxTools.sox != nil, "sox is not installed (make test-deps)"))
struct BellCutAndHumTests {
    typealias P = BellSignals.Partial

    /// Runs sox with `arguments`; fails the test on a non-zero exit.
    static func sox(_ arguments: [String]) throws {
        let r = try ToolRunner.Running(SoxTools.sox!, arguments).wait(timeout: 120)
        try #require(r.exitCode == 0, "sox \(arguments.joined(separator: " ")): \(r.stderr)")
    }

    static func write(_ b: AudioBuffer, _ path: String) throws {
        try AudioFileEncoder.write(b, to: path, options: EncodeOptions(format: .wav24))
    }

    static func audition(_ path: String) -> BellAuditionResult {
        BellAudition.auditionFile(path, profile: .temple)
    }

    /// The first time (s) after its peak that the 10 ms RMS envelope of `b` falls `below` dB under the peak.
    static func crossing(_ b: AudioBuffer, below: Double) -> Double {
        let x = b.monoMix()
        let w = b.sampleRate.hertz / 100
        let levels = stride(from: 0, to: x.count - w, by: w / 2).map { i in
            x[i..<(i + w)].reduce(0.0) { $0 + Double($1) * Double($1) }
        }
        let peak = levels.indices.max { levels[$0] < levels[$1] }!
        let limit = levels[peak] * pow(10, -below / 10)
        let k = levels[peak...].firstIndex { $0 < limit } ?? levels.count - 1
        return Double(k * w / 2 + w) / b.sampleRate.double
    }

    /// `b` written to `dir`, then cut by sox where it first falls `below` dB under its peak, with a linear fade of
    /// `fade` seconds ending at the cut (none for 0).
    static func soxCut(_ b: AudioBuffer, below: Double, fade: Double = 0, in dir: String, _ name: String) throws
        -> String
    {
        let source = "\(dir)/\(name)-source.wav"
        try write(b, source)
        let at = crossing(b, below: below)
        let out = "\(dir)/\(name).wav"
        let fx = fade > 0 ? ["fade", "t", "0", String(format: "%.4f", at), String(format: "%.3f", fade)] : []
        try sox([source, out, "trim", "0", String(format: "%.4f", at)] + fx)
        return out
    }

    /// A ride bell: partials dying in 2–3 s over a pink-noise wash (−30 dBFS, 16 dB under their peak) that dies in
    /// `wash` seconds (T60), or holds steady.
    static func rideBell(wash: Double?, seconds: Double = 8) -> AudioBuffer {
        let partials = [P(310, 0.2, t60: 3), P(592, 0.14, t60: 3), P(845, 0.1, t60: 2.5), P(1273, 0.06, t60: 2)]
        let bell = BellSignals.bell(partials, seconds: seconds)
        let noise = BellSignals.noiseBurst(t60: wash, seconds: seconds, dbfs: -30, pink: true)
        var out = bell
        for i in out.samples.indices { out.samples[i] += noise.samples[i] }
        return out
    }

    // MARK: - §2: the floor is what is steady

    /// A ride bell whose noisy wash still falls at its own rate (T60 15 and 20 s: 4 and 3 dB/s) when the file is cut
    /// at −30 and −35 dB is cut while ringing (`truncated-tail`), not a noise floor: read as a floor, the tail was
    /// compared with itself and the cut passed. Cut at −45 dB it is a note. The same bell over a steady wash (the
    /// file's own floor) keeps its `noise-floor`, and the uncut bell over a wash that dies (T60 4 s) has neither.
    @Test func aTailStillFallingIsTheSoundNotItsFloor() throws {
        let dir = ToolRunner.temporaryDirectory("bell-cut-floor")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for wash in [15.0, 20.0] {
            for below in [30.0, 35.0] {
                let r = Self.audition(try Self.soxCut(Self.rideBell(wash: wash), below: below, in: dir, "wash\(wash)"))
                #expect(r.metrics?.noiseFloor == nil, "wash \(wash), cut \(below): \(r.defectDetails)")
                #expect(r.defects.contains(.truncatedTail), "wash \(wash), cut \(below): \(r.defectDetails)")
                #expect(!r.defects.contains(.noiseFloor), "wash \(wash), cut \(below): \(r.defectDetails)")
            }
        }
        let quiet = Self.audition(try Self.soxCut(Self.rideBell(wash: 15), below: 45, in: dir, "quiet"))
        #expect(
            !quiet.defects.contains(.truncatedTail) && !quiet.defects.contains(.noiseFloor), "\(quiet.defectDetails)")
        #expect(quiet.notes.contains { $0.hasPrefix("tail:") }, "\(quiet.notes)")
        let steadyPath = "\(dir)/steady.wav"
        try Self.write(Self.rideBell(wash: nil), steadyPath)
        let steady = Self.audition(steadyPath)
        #expect(
            steady.defects.contains(.noiseFloor) && !steady.defects.contains(.truncatedTail), "\(steady.defectDetails)")
        #expect(steady.defectDetails.first { $0.kind == .noiseFloor }?.evidence.hasPrefix("steady noise") == true)
        let diesPath = "\(dir)/dies.wav"
        try Self.write(Self.rideBell(wash: 4), diesPath)
        let dies = Self.audition(diesPath)
        #expect(dies.defects.isEmpty && dies.bellClass == .bellLike, "\(dies.defectDetails) \(dies.reasons)")
        #expect(DecayAnalysis.steadyChange == 1 && DecayAnalysis.steadyRate == 5)
    }

    // MARK: - §2: a cut one-shot is not judged by its decay

    /// A sampler one-shot cut inside its ringing before it fell 10 dB (a bell trimmed to 0.3 s, with and without a
    /// 10 ms fade, and to 0.6 s; a quick ding, 60 dB in 1 s, cut at −6 dB) shows neither its length nor its decay:
    /// `ambiguous`, with the cut as its reason, and the `truncated-tail` reject (under 0.4 s it was "far too short for
    /// a bell").
    /// The other side of the line: the ding cut at −20 dB has shown 20 dB of a decay far faster than a bell's
    /// (notification-like, by that decay, not by the length the cut left it), and at −45 dB (under the audible cut) likewise; a two-note figure cut at −6 dB is a figure;
    /// a bell cut where it still reads a long decay (−25 dB, 2.5 s in) stays bell-like, its cut a reject.
    @Test func aOneShotCutWhileRingingIsAmbiguous() throws {
        let dir = ToolRunner.temporaryDirectory("bell-cut-one-shot")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = BellSignals.bell(seconds: 6)
        try Self.write(bell, "\(dir)/bell.wav")
        for (seconds, fade) in [(0.3, 0.0), (0.3, 0.01), (0.6, 0.0)] {
            let out = "\(dir)/bell-\(seconds)-\(fade).wav"
            let fx = fade > 0 ? ["fade", "t", "0", "\(seconds)", "\(fade)"] : []
            try Self.sox(["\(dir)/bell.wav", out, "trim", "0", "\(seconds)"] + fx)
            let r = Self.audition(out)
            #expect(r.bellClass == .ambiguous && r.defects.contains(.truncatedTail), "\(seconds) s: \(r.reasons)")
            // Under 0.4 s the cut is the reason (it was "far too short for a bell"); longer, the decay not seen is.
            let reason = seconds < BellClass.shortest ? "cut off while still ringing" : "does not fall 10 dB"
            #expect(r.reasons.contains { $0.hasPrefix(reason) }, "\(seconds) s: \(r.reasons)")
        }
        let ding = BellSignals.bell(
            [P(1320, 0.4, t60: 1), P(2640, 0.1, t60: 0.8), P(3960, 0.05, t60: 0.6)], seconds: 2)
        let early = Self.audition(try Self.soxCut(ding, below: 6, in: dir, "ding-early"))
        #expect(early.bellClass == .ambiguous && early.defects.contains(.truncatedTail), "\(early.reasons)")
        let seen = Self.audition(try Self.soxCut(ding, below: 20, in: dir, "ding-seen"))
        #expect(seen.bellClass == .notificationLike && seen.defects.contains(.truncatedTail), "\(seen.reasons)")
        // Cut 0.33 s in, it is judged by the decay it showed, not as "far too short for a bell" (its length is the
        // cut's; the old code said so).
        #expect(seen.reasons.first?.hasPrefix("would fall 40 dB in") == true, "\(seen.reasons)")
        let deep = Self.audition(try Self.soxCut(ding, below: 45, in: dir, "ding-deep"))
        #expect(deep.bellClass == .notificationLike && !deep.defects.contains(.truncatedTail), "\(deep.reasons)")
        let figure = Self.audition(try Self.soxCut(BellSignals.twoNoteChime(), below: 6, in: dir, "figure"))
        #expect(figure.bellClass == .notificationLike, "\(figure.reasons)")
        let long = Self.audition(try Self.soxCut(bell, below: 25, in: dir, "long"))
        #expect(long.bellClass == .bellLike && long.defects.contains(.truncatedTail), "\(long.reasons)")
        #expect(BellClass.decaySeen == -10)
    }

    /// A one-shot faded out while it still rings (50 ms at 0.5 and 0.7 s, sox's default and linear fades): the fade
    /// is the file's edit, and the flux of the frames reaching into it (the fade spreading a clean ring's partials over
    /// bins that held nothing) is no strike. Before, such a clean ring read "2 strikes bring 1 new note" and turned
    /// notification-like; it reads one strike, `ambiguous` with its cut, as the same cut without a fade does.
    @Test func aFadeOverTheRingIsNoStrike() throws {
        let dir = ToolRunner.temporaryDirectory("bell-fade-one-shot")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let partials = [
            P(330, 0.5, t60: 8), P(911, 0.25, t60: 4.8), P(1782, 0.15, t60: 3.4), P(2947, 0.08, t60: 2.7),
        ]
        try Self.write(BellSignals.bell(partials, seconds: 2), "\(dir)/bell.wav")
        for seconds in [0.5, 0.7] {
            for type in ["l", "t"] {
                let out = "\(dir)/bell-\(seconds)-\(type).wav"
                try Self.sox([
                    "\(dir)/bell.wav", out, "trim", "0", "\(seconds)", "fade", type, "0", "\(seconds)", "0.05",
                ])
                let r = Self.audition(out)
                #expect(r.metrics?.strikes == 1 && r.metrics?.newNotes == 0, "\(seconds) s, \(type): \(r.reasons)")
                #expect(r.bellClass == .ambiguous && r.defects.contains(.truncatedTail), "\(seconds) s: \(r.reasons)")
            }
        }
    }

    // MARK: - §3: hum is a floor

    /// A bell recorded over mains hum (50 or 60 Hz with its 2nd and 3rd harmonics, about −42 dBFS, made by sox's
    /// `synth` and mixed in with `sox -m`): the steady hum under the tail is its floor, a `noise-floor` that names the
    /// hum's frequency, never a `truncated-tail` (the bell still sounding); its class stays bell-like. The same hum
    /// 60 dB further down is under any floor that matters: no defect.
    @Test(arguments: [50, 60])
    func humIsAFloor(_ mains: Int) throws {
        let dir = ToolRunner.temporaryDirectory("bell-hum")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(BellSignals.bell(seconds: 8), "\(dir)/bell.wav")
        func hum(_ gain: Double) throws -> String {
            var parts: [String] = []
            for (k, level) in [(1, -44.0), (2, -52.0), (3, -48.0)] {
                let part = "\(dir)/hum\(k)-\(gain).wav"
                try Self.sox([
                    "-n", "-r", "48000", "-b", "24", "-c", "1", part, "synth", "8", "sine", "\(mains * k)", "gain",
                    "\(level + gain)",
                ])
                parts.append(part)
            }
            let out = "\(dir)/bell-hum\(gain).wav"
            try Self.sox(["-m"] + (["\(dir)/bell.wav"] + parts).flatMap { ["-v", "1", $0] } + [out])
            return out
        }
        let r = Self.audition(try hum(0))
        #expect(r.metrics?.humFrequency == Double(mains), "\(r.defectDetails)")
        #expect(r.defects.contains(.noiseFloor) && !r.defects.contains(.truncatedTail), "\(r.defectDetails)")
        let evidence = r.defectDetails.first { $0.kind == .noiseFloor }?.evidence ?? ""
        #expect(evidence.contains("\(mains) Hz mains hum"), "\(evidence)")
        #expect(r.bellClass == .bellLike, "\(r.reasons)")
        let faint = Self.audition(try hum(-60))
        #expect(faint.defects.isEmpty && faint.bellClass == .bellLike, "\(faint.defectDetails)")
    }
}
