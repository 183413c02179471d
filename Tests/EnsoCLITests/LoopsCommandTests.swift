import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `enso loops verify|find|bake` end to end on small synthesized files (48 kHz stereo, 1.5 s).
@Suite struct LoopsCommandTests {
    static let period = 12_000

    /// A folder with a seamless WAV, a random-cut FLAC in a subfolder, and a corrupt WAV.
    static func makeFolder() throws -> String {
        let dir = ToolRunner.temporaryDirectory("enso-loops")
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
        let good = LoopSignals.periodicNoise(period: period, frames: period * 6, seed: 1)
        try AudioFileEncoder.write(good, to: dir + "/good.wav", options: EncodeOptions(format: .wav16))
        let cut = LoopSignals.periodicNoise(period: period, frames: period * 6 + 4_321, seed: 2)
        try AudioFileEncoder.write(cut, to: dir + "/sub/cut.flac", options: EncodeOptions(format: .flac))
        try Data("RIFF not really a wave".utf8).write(to: URL(fileURLWithPath: dir + "/broken.wav"))
        return dir
    }

    @Test func verifyExitCodesAndTable() throws {
        let dir = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let all = try ToolRunner.run("enso", ["loops", "verify", dir])
        #expect(all.exitCode == 2, "\(all.stderr)")
        #expect(all.stderr.contains("Error: \(dir)/broken.wav"))
        #expect(all.stdout.contains("FILE"))
        #expect(all.stdout.contains("3 files: 1 pass, 0 warn, 1 fail, 1 error"), "\(all.stdout)")
        #expect(all.stdout.contains("pulse breaks at the seam"))
        let lines = all.stdout.split(separator: "\n")
        // Aligned: the VERDICT column starts at the same place on every row.
        let col = lines[0].range(of: "VERDICT")!.lowerBound.utf16Offset(in: lines[0])
        for line in lines.dropFirst(2).dropLast() {
            let verdict = line.dropFirst(col).prefix(5)
            #expect(["pass ", "fail ", "error", "warn "].contains(String(verdict)), "\(line)")
        }
        let failing = try ToolRunner.run("enso", ["loops", "verify", dir + "/good.wav", dir + "/sub"])
        #expect(failing.exitCode == 1)
        let passing = try ToolRunner.run("enso", ["loops", "verify", dir + "/good.wav"])
        #expect(passing.exitCode == 0)
        #expect(passing.stdout.contains("seamless"))
    }

    @Test func verifyJSONAndCSV() throws {
        let dir = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("enso", ["loops", "verify", "--json", dir])
        #expect(r.exitCode == 2)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 3)
        let byFile = Dictionary(uniqueKeysWithValues: rows.map { ($0["file"] as! String, $0) })
        let good = try #require(byFile[dir + "/good.wav"])
        #expect(good["verdict"] as? String == "pass")
        let loop = try #require(good["loop"] as? [String: Any])
        #expect(loop["start"] as? Int == 0 && loop["end"] as? Int == Self.period * 6)
        let metrics = try #require(good["metrics"] as? [[String: Any]])
        #expect(metrics.count == 7)
        for m in metrics {
            #expect(m["name"] is String && m["threshold"] is Double)
            #expect(m.keys.contains("value") && m.keys.contains("ok"))
        }
        #expect(byFile[dir + "/sub/cut.flac"]?["verdict"] as? String == "fail")
        #expect((byFile[dir + "/sub/cut.flac"]?["reasons"] as? [String])?.isEmpty == false)
        let broken = try #require(byFile[dir + "/broken.wav"])
        #expect(broken["verdict"] as? String == "error")
        #expect((broken["metrics"] as? [Any])?.isEmpty == true)
        let csv = try ToolRunner.run("enso", ["loops", "verify", "--csv", dir + "/good.wav"])
        let csvLines = csv.stdout.split(separator: "\n")
        #expect(
            csvLines.first
                == "file,verdict,group,groupRank,start,end,continuity,spectral,level,click,dcOffset,rhythm,dip,reasons")
        #expect(csvLines.count == 2)
        #expect(csvLines.last?.hasPrefix("\(dir)/good.wav,pass,1,1,0,\(Self.period * 6),") == true)
    }

    /// `--loop START:END` judges a candidate (frames, or seconds with `s`) without writing it, also in JSON;
    /// a malformed or misfitting one is refused.
    @Test func verifyJudgesAGivenLoop() throws {
        let dir = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/good.wav"
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let cut = try ToolRunner.run(
            "enso", ["loops", "verify", "--json", "--loop", "0:\(Self.period * 3 + 777)", file])
        #expect(cut.exitCode == 1, "\(cut.stdout)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(cut.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["loopSource"] as? String == "option")
        #expect((rows.first?["loop"] as? [String: Any])?["end"] as? Int == Self.period * 3 + 777)
        let seconds = try ToolRunner.run("enso", ["loops", "verify", "--loop", "0.25s:1.25s", file])
        #expect(seconds.exitCode == 0, "\(seconds.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        let bad = try ToolRunner.run("enso", ["loops", "verify", "--loop", "10-20", file])
        #expect(bad.exitCode == 64 && bad.stderr.contains("--loop"), "\(bad.stderr)")
        let outside = try ToolRunner.run("enso", ["loops", "verify", "--loop", "0:99999999", file])
        #expect(outside.exitCode == 2 && outside.stderr.contains("does not fit"), "\(outside.stderr)")
    }

    @Test func strictCountsWarningsAndHTMLReport() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-strict")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 2 %: over the 1 % every command warns at (SignalDefectScan.audibleDCOffset).
        let dc = LoopSignals.addingDC(
            to: LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 6, seed: 3), offset: 0.02)
        try AudioFileEncoder.write(dc, to: dir + "/dc.wav", options: EncodeOptions(format: .wavf))
        let lenient = try ToolRunner.run("enso", ["loops", "verify", dir + "/dc.wav"])
        #expect(lenient.exitCode == 0)
        #expect(lenient.stdout.contains("warn") && lenient.stdout.contains("DC offset of +2.00 %"))
        let strict = try ToolRunner.run(
            "enso", ["loops", "verify", "--strict", "--html", dir + "/report.html", dir + "/dc.wav"])
        #expect(strict.exitCode == 1)
        let html = try String(contentsOfFile: dir + "/report.html", encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<svg") && html.contains("data:image/png;base64,"))
        #expect(html.contains("dc-offset"))
        #expect(!html.contains("http://") || html.contains("xmlns=\"http://www.w3.org/2000/svg\""), "self-contained")
    }

    @Test func findJSONAndWrite() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-find")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cut = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 5 + 3_333, seed: 4)
        try AudioFileEncoder.write(cut, to: dir + "/cut.wav", options: EncodeOptions(format: .wav16))
        try AudioFileEncoder.write(cut, to: dir + "/cut.flac", options: EncodeOptions(format: .flac))
        let r = try ToolRunner.run(
            "enso", ["loops", "find", "--json", "--min-length", "0.4", "--top", "3", dir + "/cut.wav"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["wholeFileLoops"] as? Bool == false)
        // Every documented key is there, `null` when nothing was written (docs/cli.md).
        #expect(Set(json.keys) == ["file", "wholeFileLoops", "candidates", "written", "writtenVerdict"])
        #expect(json["written"] is NSNull && json["writtenVerdict"] is NSNull)
        let candidates = try #require(json["candidates"] as? [[String: Any]])
        #expect(!candidates.isEmpty && candidates.count <= 3)
        let best = candidates[0]
        let length = (best["end"] as! Int) - (best["start"] as! Int)
        #expect(length % Self.period == 0, "\(best)")
        #expect(best["score"] is Double && best["reasons"] is [String])
        // --write: a WAV gets its smpl loop, and verify then judges that loop.
        let w = try ToolRunner.run("enso", ["loops", "find", "--write", dir + "/cut.wav"])
        #expect(w.exitCode == 0 && w.stdout.contains("Wrote the best loop to \(dir)/cut.wav"))
        #expect(try AudioFileDecoder.info(path: dir + "/cut.wav").loops.count == 1)
        let v = try ToolRunner.run("enso", ["loops", "verify", "--json", dir + "/cut.wav"])
        #expect(v.exitCode == 0, "\(v.stdout)")
        #expect(v.stdout.contains("\"loopSource\": \"embedded\""))
        // Other formats get a sidecar.
        let f = try ToolRunner.run("enso", ["loops", "find", "--write", dir + "/cut.flac"])
        #expect(f.exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/cut.flac.loop.json"))
        let vf = try ToolRunner.run("enso", ["loops", "verify", "--json", dir + "/cut.flac"])
        #expect(vf.exitCode == 0 && vf.stdout.contains("\"loopSource\": \"sidecar\""), "\(vf.stdout)")
        #expect(!f.stdout.contains("does not pass verify"))
        // Noise that never repeats: the written loop needs a crossfade, and find says so (and bake is the way).
        let rain = LoopSignals.addingClick(
            to: LoopSignals.periodicNoise(
                period: 4 * 48_000, frames: 4 * 48_000, smoothingHz: 2_000, poles: 2, seed: 5),
            at: 4 * 48_000 - 3, amplitude: 0.5, frames: 3)
        try AudioFileEncoder.write(rain, to: dir + "/rain.wav", options: EncodeOptions(format: .wavf))
        let rw = try ToolRunner.run("enso", ["loops", "find", "--write", dir + "/rain.wav"])
        #expect(
            rw.exitCode == 0 && rw.stdout.contains("does not pass verify") && rw.stdout.contains("enso loops bake"),
            "\(rw.stdout)")
        let rj = try ToolRunner.run("enso", ["loops", "find", "--write", "--json", dir + "/rain.wav"])
        let rjson = try #require(try JSONSerialization.jsonObject(with: Data(rj.stdout.utf8)) as? [String: Any])
        #expect(["warn", "fail"].contains(rjson["writtenVerdict"] as? String ?? "pass"), "\(rj.stdout)")
    }

    @Test func bakeMakesALoopThatPasses() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-bake")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cut = LoopSignals.drips(period: Self.period, frames: Self.period * 6 + 5_000, seed: 5)
        try AudioFileEncoder.write(cut, to: dir + "/in.wav", options: EncodeOptions(format: .wavf))
        #expect(try ToolRunner.run("enso", ["loops", "verify", dir + "/in.wav"]).exitCode == 1)
        let b = try ToolRunner.run("enso", ["loops", "bake", "--json", dir + "/in.wav", dir + "/out.wav"])
        #expect(b.exitCode == 0, "\(b.stdout) \(b.stderr)")
        #expect(b.stdout.contains("\"verdict\": \"pass\""))
        let info = try AudioFileDecoder.info(path: dir + "/out.wav")
        #expect(info.loops == [LoopRegion(start: 0, end: info.frames)])
        #expect(info.frames % FrameCount(Self.period) == 0)
        #expect(try ToolRunner.run("enso", ["loops", "verify", dir + "/out.wav"]).exitCode == 0)
        let bad = try ToolRunner.run("enso", ["loops", "bake", dir + "/in.wav", dir + "/out.xyz"])
        #expect(bad.exitCode == 64 && bad.stderr.contains("unknown extension"))
        let missing = try ToolRunner.run("enso", ["loops", "bake", dir + "/nope.wav", dir + "/o.wav"])
        #expect(missing.exitCode == 2)
    }
}

extension LoopsCommandTests {
    /// A file that already loops as a whole is baked whole and unchanged; with --crossfade the search still runs.
    @Test func bakeKeepsAFileThatAlreadyLoopsWhole() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-bake-whole")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let frames = Self.period * 8
        let good = LoopSignals.periodicNoise(period: Self.period, frames: frames, seed: 3)
        try AudioFileEncoder.write(good, to: dir + "/in.wav", options: EncodeOptions(format: .wav16))
        let b = try ToolRunner.run("enso", ["loops", "bake", "--json", dir + "/in.wav", dir + "/out.wav"])
        #expect(b.exitCode == 0, "\(b.stdout) \(b.stderr)")
        #expect(b.stdout.contains("\"crossfade\": 0") && b.stdout.contains("\"curve\": \"none\""), "\(b.stdout)")
        let original = try AudioFileDecoder.decode(path: dir + "/in.wav")
        let baked = try AudioFileDecoder.decode(path: dir + "/out.wav")
        #expect(baked.buffer.samples == original.buffer.samples, "the samples are kept as they are")
        #expect(baked.info.loops == [LoopRegion(start: 0, end: FrameCount(frames))])
        let text = try ToolRunner.run("enso", ["loops", "bake", dir + "/in.wav", dir + "/out.flac"])
        #expect(text.exitCode == 0 && text.stdout.contains("already loops cleanly"), "\(text.stdout)")
        // The same noise 1 % of full scale off centre: the line says how large an offset it removed (−40 dBFS).
        var offset = good
        for i in offset.samples.indices { offset.samples[i] += 0.01 }
        try AudioFileEncoder.write(offset, to: dir + "/dc.wav", options: EncodeOptions(format: .wavf))
        let dc = try ToolRunner.run("enso", ["loops", "bake", dir + "/dc.wav", dir + "/dc-out.wav"])
        #expect(
            dc.exitCode == 0 && dc.stdout.contains("written unchanged but for a DC offset at -40 dBFS, removed,"),
            "\(dc.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir + "/out.flac.loop.json"))
        let searched = try ToolRunner.run(
            "enso", ["loops", "bake", "--json", "--crossfade", "0.1", dir + "/in.wav", dir + "/x.wav"])
        #expect(searched.exitCode == 0 && !searched.stdout.contains("\"curve\": \"none\""), "\(searched.stdout)")
    }

    /// --min-length/--max-length steer bake's search; a limit no loop can meet exits 1 and writes nothing.
    @Test func bakeSearchHonoursLengthLimits() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-bake-limits")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let rate = 48_000.0
        let cut = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 8 + 3_000, seed: 4)
        try AudioFileEncoder.write(cut, to: dir + "/in.wav", options: EncodeOptions(format: .wavf))
        // A whole-file loop that passes is still searched when the limits exclude its length.
        let good = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 8, seed: 3)
        try AudioFileEncoder.write(good, to: dir + "/whole.wav", options: EncodeOptions(format: .wavf))
        for (file, limits, lo, hi) in [
            ("in.wav", ["--min-length", "1.2"], 1.2, 2.1), ("in.wav", ["--max-length", "0.8"], 0.4, 0.8),
            ("whole.wav", ["--max-length", "1.5"], 0.75, 1.5),
        ] {
            let b = try ToolRunner.run(
                "enso", ["loops", "bake", "--json"] + limits + [dir + "/" + file, dir + "/out.wav"])
            #expect(b.exitCode == 0, "\(limits): \(b.stdout) \(b.stderr)")
            let seconds = Double(try AudioFileDecoder.info(path: dir + "/out.wav").frames) / rate
            #expect(seconds >= lo - 0.01 && seconds <= hi + 0.01, "\(file) \(limits): \(seconds) s")
        }
        try? FileManager.default.removeItem(atPath: dir + "/none.wav")
        let impossible = try ToolRunner.run(
            "enso", ["loops", "bake", "--min-length", "60", dir + "/in.wav", dir + "/none.wav"])
        #expect(impossible.exitCode == 1 && impossible.stderr.contains("in.wav"), "\(impossible.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/none.wav"))
    }
}

/// `--listen` through the raw file output (unpaced, no device needed): the seam clip is the loop's tail then head.
@Suite struct LoopsListenTests {
    @Test func listenPlaysTheRealSeamThroughTheOutput() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-listen")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let n = 72_000
        let b = LoopSignals.periodicNoise(period: 12_000, frames: n, seed: 9)
        try AudioFileEncoder.write(b, to: dir + "/l.wav", options: EncodeOptions(format: .wavf))
        let r = try ToolRunner.run(
            "enso",
            [
                "loops", "verify", "--listen", "--listen-seconds", "0.5", "--repeat", "2", "--output",
                "file:\(dir)/out.raw",
                dir + "/l.wav",
            ])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Listening: \(dir)/l.wav (pass)"))
        let raw = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.raw"))
        let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let side = 24_000
        let clipFrames = 2 * side + 19_200  // tail + head + 0.4 s pause
        #expect(samples.count == 2 * 2 * clipFrames, "two repetitions, stereo")
        // Away from the 20 ms fades the clip is the loop itself: frame side-1 is the loop's last, side its first.
        #expect(samples[2 * (side - 1)] == b[0, n - 1])
        #expect(samples[2 * side] == b[0, 0])
        #expect(samples[2 * (side + 1) + 1] == b[1, 1])
    }
}

extension LoopsCommandTests {
    /// `bake` writes `.wav` and `.flac` at IN's bit depth, as `convert` does (a 24-bit rain was written at 16 bits),
    /// and refuses before any work a format that cannot hold IN's rate, saying how to convert IN first (the
    /// refusal told the user to add `--rate`, an option `bake` does not have).
    @Test func bakeKeepsTheDepthAndRefusesAFormatThatCannotHoldTheRate() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-bake-format")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 8, sampleRate: 44_100, seed: 3)
        try AudioFileEncoder.write(good, to: dir + "/in.wav", options: EncodeOptions(format: .wav24))
        let b = try ToolRunner.run("enso", ["loops", "bake", dir + "/in.wav", dir + "/out.wav"])
        #expect(b.exitCode == 0, "\(b.stdout) \(b.stderr)")
        #expect(try AudioFileDecoder.info(path: dir + "/out.wav").subtype == "PCM_24")
        let rate = try AudioFileDecoder.info(path: dir + "/in.wav").sampleRate.hertz
        try #require(!EncodeFormat.opusRates.contains(rate), "the fixture's rate must be one Opus cannot hold")
        let opus = try ToolRunner.run("enso", ["loops", "bake", dir + "/in.wav", dir + "/out.opus"])
        #expect(opus.exitCode == 64, "\(opus.stderr)")
        #expect(opus.stderr.contains("\(dir)/out.opus: Opus holds"), "\(opus.stderr)")
        #expect(opus.stderr.contains("enso convert \(dir)/in.wav OUT --rate 48000"), "\(opus.stderr)")
        #expect(!opus.stderr.contains("add --rate"), "\(opus.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.opus"))
        let aiff = try ToolRunner.run("enso", ["loops", "bake", dir + "/in.wav", dir + "/out.aiff"])
        #expect(aiff.exitCode == 64 && aiff.stderr.contains(".opus or .mp3 name"), "\(aiff.stderr)")
    }

    /// A designer's loop half a period off: `verify` fails it and says `find` mends it, `find` ranks it first mended
    /// and `bake` bakes it mended, saying so.
    @Test func aLoopHalfAPeriodOffIsFoundAndBakedMended() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-mend")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let period = 480
        let note = LoopSignals.periodicNoise(period: period, frames: 96_000, smoothingHz: 2_000, seed: 49)
        let broken = LoopRegion(start: 24_000, end: FrameCount(24_000 + 40 * period - period / 2))
        try AudioFileEncoder.write(note, to: dir + "/in.wav", options: EncodeOptions(format: .wav16, loops: [broken]))
        let v = try ToolRunner.run("enso", ["loops", "verify", "--json", dir + "/in.wav"])
        #expect(v.exitCode == 1 && v.stdout.contains("`enso loops find` mends it: its end moved"), "\(v.stdout)")
        let f = try ToolRunner.run("enso", ["loops", "find", dir + "/in.wav"])
        #expect(f.exitCode == 0 && f.stdout.contains("the embedded loop mended ranks first"), "\(f.stdout)")
        let b = try ToolRunner.run("enso", ["loops", "bake", dir + "/in.wav", dir + "/out.wav"])
        #expect(b.exitCode == 0 && b.stdout.contains("frames mends it"), "\(b.stdout) \(b.stderr)")
        let info = try AudioFileDecoder.info(path: dir + "/out.wav")
        #expect(info.frames % FrameCount(period) == 0, "\(info.frames)")
        #expect(try ToolRunner.run("enso", ["loops", "verify", dir + "/out.wav"]).exitCode == 0)
    }

    /// A designer's loop that verify only warns on (its end a few frames off the period) is baked as it was set, as
    /// `find` ranks it first unmoved: `bake` moves an end only when the seam fails.
    @Test func aLoopThatOnlyWarnsIsBakedUnmoved() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-warn")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let period = 480
        let note = LoopSignals.periodicNoise(period: period, frames: 96_000, smoothingHz: 2_000, seed: 44)
        let start = 24_000
        let end = try #require(
            (1...period / 2).lazy.map { start + 40 * period - $0 }.first {
                SeamRules.judge(note, loop: start..<$0).verdict == .warn
            })
        let loop = LoopRegion(start: FramePosition(start), end: FramePosition(end))
        try AudioFileEncoder.write(note, to: dir + "/in.wav", options: EncodeOptions(format: .wavf, loops: [loop]))
        let b = try ToolRunner.run("enso", ["loops", "bake", dir + "/in.wav", dir + "/out.wav"])
        #expect(b.exitCode == 0 && !b.stdout.contains("mends it"), "\(b.stdout) \(b.stderr)")
        #expect(try AudioFileDecoder.info(path: dir + "/out.wav").frames == loop.length)
    }

    /// `find` says where the loop it keeps comes from: a second `find --write` on a FLAC called the loop its
    /// first run wrote to the sidecar "the embedded loop".
    @Test func findNamesTheSidecarsLoopAsSuch() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-find-sidecar")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = LoopSignals.periodicNoise(period: Self.period, frames: Self.period * 8, seed: 3)
        try AudioFileEncoder.write(good, to: dir + "/in.flac", options: EncodeOptions(format: .flac))
        let first = try ToolRunner.run("enso", ["loops", "find", "--write", dir + "/in.flac"])
        #expect(first.stdout.contains("the whole file already loops cleanly"), "\(first.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir + "/in.flac.loop.json"))
        let second = try ToolRunner.run("enso", ["loops", "find", dir + "/in.flac"])
        #expect(
            second.exitCode == 0 && second.stdout.contains("the sidecar's loop already loops cleanly"),
            "\(second.stdout)")
    }
}

extension LoopsCommandTests {
    /// A 1000-frame 16-bit mono WAV of a 441 Hz tone whose `smpl` chunk holds one loop stored as given (end
    /// inclusive, as the chunk stores it).
    static func wav(loopStart start: Int, endInclusive end: Int) -> Data {
        func le(_ v: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + le(body.count, 4) + body }
        let samples: [UInt8] = (0..<1000).flatMap { (i: Int) -> [UInt8] in
            le(Int(8000 * sin(Double(i) * 2 * Double.pi / 100)) & 0xFFFF, 2)
        }
        let fmt = le(1, 2) + le(1, 2) + le(44_100, 4) + le(88_200, 4) + le(2, 2) + le(16, 2)
        let smpl = [0, 0, 22_675, 60, 0, 0, 0, 1, 0, 0, 0, start, end, 0, 0].flatMap { le($0, 4) }
        let body = Array("WAVE".utf8) + chunk("fmt ", fmt) + chunk("smpl", smpl) + chunk("data", samples)
        return Data(Array("RIFF".utf8) + le(body.count, 4) + body)
    }

    /// Loop points that cannot be used are said, not passed over: a loop that ends before it starts made `verify`
    /// judge the whole file (and pass it), and `info` listed a loop past the end without a word.
    @Test func brokenLoopPointsAreSaid() throws {
        let dir = ToolRunner.temporaryDirectory("enso-loops-broken")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.wav(loopStart: 500, endInclusive: 99).write(to: URL(fileURLWithPath: dir + "/reversed.wav"))
        try Self.wav(loopStart: 100, endInclusive: 4999).write(to: URL(fileURLWithPath: dir + "/past.wav"))
        let reversed = try ToolRunner.run("enso", ["loops", "verify", dir + "/reversed.wav"])
        #expect(reversed.exitCode == 2, "\(reversed.stdout)")
        #expect(reversed.stdout.contains("no usable embedded loop: loop 1 (500..<100)"), "\(reversed.stdout)")
        let past = try ToolRunner.run("enso", ["info", dir + "/past.wav"])
        #expect(past.exitCode == 0)
        #expect(past.stderr.contains("loop 1 (100..<5000) does not fit in 1000 frames"), "\(past.stderr)")
        let json = try ToolRunner.run("enso", ["info", "--json", dir + "/past.wav"])
        #expect(json.stdout.contains("does not fit in 1000 frames"), "\(json.stdout)")
    }
}
