import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// Channel problems that one command mends (issue #43 §4): a dead channel, an inverted one and out-of-phase stereo
/// are `fixable` `channel` defects whose `fix` is an `enso convert` that mends this file; run, the file passes.
/// The cases are made with sox from a clean stereo bell, on both sides of each threshold (docs/bells.md).
@Suite(.enabled(if: Sox.path != nil, "sox is not installed (make test installs it)"))
struct ChannelMendTests {
    let fixture = CLIFixture("channel-mend")
    var dir: String { fixture.dir }

    /// The audition's row, as far as these tests read it.
    struct Row: Decodable {
        struct Defect: Decodable {
            var kind: String
            var severity: String
            var evidence: String
            var fix: String?
        }
        var verdict: String
        var `class`: String?
        var defectDetails: [Defect]
    }

    /// A clean stereo bell whose two channels are different bells (uncorrelated partials of equal power), so that
    /// sox's `remix` sets their correlation: `-a·L + b·R` correlates with L at −a / √(a² + b²).
    func base() throws -> String {
        let left = BellSignals.bell(seconds: 6, attack: 0.005, channels: 1).withChannel(0) { Array($0) }
        let right = BellSignals.bell(
            [BellSignals.Partial(311, 0.5, t60: 5), BellSignals.Partial(733, 0.3, t60: 4)], seconds: 6
        ).withChannel(0) { Array($0) }
        let scale = Float((rms(left) / rms(right)))
        let path = dir + "/base.wav"
        try AudioFileEncoder.write(
            AudioBuffer(channelData: [left, right.map { $0 * scale }], sampleRate: .hz48000), to: path,
            options: EncodeOptions(format: .wavf))
        return path
    }

    func rms(_ x: [Float]) -> Double { (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot() }

    /// `sox base OUT remix SPEC…`.
    func remix(_ base: String, _ name: String, _ spec: [String]) throws -> String {
        let out = dir + "/\(name).wav"
        let r = try ToolRunner.run(Sox.path!, [base, out, "remix"] + spec)
        #expect(r.exitCode == 0, "sox: \(r.stderr)")
        return out
    }

    func audition(_ file: String) throws -> Row {
        let r = try ToolRunner.run("enso", ["bells", "audition", "--json", file])
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        return try #require(rows.first, "\(r.stdout) \(r.stderr)")
    }

    /// The `fix` a row gives for `file`: the rule's command with the file and `fixed/NAME` in place of `IN OUT`,
    /// after the `mkdir` that makes `fixed`.
    func fix(_ file: String, _ option: String) -> String {
        "mkdir -p fixed && enso convert \(file) fixed/\((file as NSString).lastPathComponent) \(option)"
    }

    /// Runs the defect's fix on the file (its own output replaced by one beside it) and auditions the result.
    func mend(_ file: String, _ fix: String) throws -> Row {
        let out = file.replacingOccurrences(of: ".wav", with: "-mended.wav")
        let words = fix.split(separator: " ").map(String.init)
        #expect(Array(words.prefix(7)) == ["mkdir", "-p", "fixed", "&&", "enso", "convert", file], "\(fix)")
        try CLIFixture.succeeds(["convert", file, out] + words.dropFirst(8))
        return try audition(out)
    }

    @Test("a dead channel (remix 1 0, remix 0 2) is fixable by the live one, and the mended file has no defect")
    func deadChannel() throws {
        let base = try base()
        #expect(try audition(base).defectDetails.isEmpty)
        for (name, spec, live) in [("dead-right", ["1", "0"], 1), ("dead-left", ["0", "2"], 2)] {
            let row = try audition(try remix(base, name, spec))
            let d = try #require(row.defectDetails.first { $0.kind == "channel" }, "\(name): \(row.defectDetails)")
            #expect(d.severity == "fixable" && row.verdict == "fix", "\(name): \(row)")
            #expect(d.fix == fix(dir + "/\(name).wav", "--use-channel \(live)"), "\(name): \(d)")
            #expect(d.evidence == "the \(live == 1 ? "right" : "left") channel is digitally silent", "\(d.evidence)")
            #expect(row.class == "bell-like")
            let mended = try mend(dir + "/\(name).wav", try #require(d.fix))
            #expect(mended.defectDetails.isEmpty && mended.verdict == "keep", "\(name): \(mended.defectDetails)")
        }
    }

    @Test("a channel 18 dB down is no defect; 22 dB down it is, and --use-channel mends it")
    func quietChannelBothSidesOfTwentyDecibels() throws {
        let base = try base()
        // 0.126 is −18 dB, 0.079 is −22 dB.
        let near = try audition(try remix(base, "minus18", ["1", "2v0.126"]))
        #expect(!near.defectDetails.contains { $0.kind == "channel" }, "\(near.defectDetails)")
        let far = try audition(try remix(base, "minus22", ["1", "2v0.079"]))
        let d = try #require(far.defectDetails.first { $0.kind == "channel" }, "\(far.defectDetails)")
        #expect(d.evidence.hasPrefix("the right channel is 22 dB quieter"), "\(d.evidence)")
        #expect(try mend(dir + "/minus22.wav", try #require(d.fix)).defectDetails.isEmpty)
    }

    @Test("inverted (remix 1 1v-1) and out of phase (correlation −0.6) are fixable by --invert-channel 2; −0.4 is none")
    func invertedAndOutOfPhase() throws {
        let base = try base()
        // −a·L + b·R with a² + b² = 1 correlates with L at −a.
        let cases: [(String, [String], Bool)] = [
            ("inverted", ["1", "1v-1"], true),
            ("phase-060", ["1", "1v-0.6,2v0.8"], true),
            ("phase-040", ["1", "1v-0.4,2v0.917"], false),
        ]
        for (name, spec, defect) in cases {
            let row = try audition(try remix(base, name, spec))
            let d = row.defectDetails.first { $0.kind == "channel" }
            #expect((d != nil) == defect, "\(name): \(row.defectDetails)")
            guard let d else { continue }
            #expect(
                d.severity == "fixable" && d.fix == fix(dir + "/\(name).wav", "--invert-channel 2"), "\(name): \(d)")
            let mended = try mend(dir + "/\(name).wav", try #require(d.fix))
            #expect(mended.defectDetails.isEmpty && mended.verdict == "keep", "\(name): \(mended.defectDetails)")
        }
    }

    @Test("--use-channel and --invert-channel act on IN's channels; a channel IN lacks is bad usage (exit 64)")
    func channelOptions() throws {
        let input = dir + "/in.wav"
        try AudioFileEncoder.write(
            AudioBuffer(channelData: [[0.5, -0.25, 0.125], [0.1, 0.2, 0.3]], sampleRate: .hz48000), to: input,
            options: EncodeOptions(format: .wavf))
        try CLIFixture.succeeds(["convert", input, dir + "/used.wav", "--use-channel", "2"])
        let used = try AudioFileDecoder.decode(path: dir + "/used.wav").buffer
        #expect(Array(used.channel(0)) == [0.1, 0.2, 0.3] && Array(used.channel(1)) == [0.1, 0.2, 0.3])
        try CLIFixture.succeeds(["convert", input, dir + "/inverted.wav", "--invert-channel", "1"])
        let inverted = try AudioFileDecoder.decode(path: dir + "/inverted.wav").buffer
        #expect(Array(inverted.channel(0)) == [-0.5, 0.25, -0.125] && Array(inverted.channel(1)) == [0.1, 0.2, 0.3])
        // Before the --channels mapping: the live channel, then mono.
        try CLIFixture.succeeds(["convert", input, dir + "/mono.wav", "--use-channel", "1", "--channels", "1"])
        #expect(Array(try AudioFileDecoder.decode(path: dir + "/mono.wav").buffer.channel(0)) == [0.5, -0.25, 0.125])
        let bad = try ToolRunner.run("enso", ["convert", input, dir + "/x.wav", "--use-channel", "3"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--use-channel 3"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.wav"))
    }
}

/// sox, found on `PATH` (a test-only dependency: `make test` installs it).
enum Sox {
    static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { "\($0)/sox" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
