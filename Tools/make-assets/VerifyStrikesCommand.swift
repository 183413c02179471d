import AudioCore
import AudioFile
import CLISupport
import Foundation

/// `make-assets verify-strikes`: proves that every strike of a rendered session starts on its planned frame.
///
/// Given the plan (`enso plan --json`), a bells-only render of it (`enso render --ambient none --format wavf`)
/// and the bell asset, it rebuilds the expected output by adding the bell at exactly each planned strike frame
/// and compares it with the render sample by sample. The engine mixes bells linearly and its soft clipper
/// passes samples below 0.9 bit for bit, so the two agree to float rounding; a strike one frame early or late
/// leaves a residual as large as the strike's own transient. The session's last 20 ms are not compared: the
/// engine's end ramp (docs/engine.md, "Transitions") brings whatever still rings there to exactly 0.
enum VerifyStrikesCommand {
    static let command = Command(
        name: "verify-strikes",
        abstract: "Check that every strike in a bells-only session render starts on its planned frame.",
        discussion: """
            Used by 'make demo'. Exit codes: 0 every strike on its frame, 1 a strike is off (the message names it),
            2 an input could not be read, 64 bad usage.
            """,
        options: [
            .value("plan", valueName: "FILE", help: "The plan as printed by 'enso plan --json' (required)."),
            .value("render", valueName: "FILE", help: "The bells-only render of that plan, float WAV (required)."),
            .value("bell", valueName: "FILE", help: "The bell asset the plan strikes (required)."),
        ],
        run: { args, _ in try run(args) })

    struct Plan: Decodable {
        struct Event: Decodable {
            var kind: String
            var frame: Int64
            var cycle: Int?
            var strike: Int?
        }
        var sampleRate: Int
        var endFrame: Int64?
        var events: [Event]
    }

    /// The end ramp's length, seconds (`SessionTimeline.declickSeconds`): frames from `endFrame` minus this on
    /// are left out of the comparison.
    static let endRampSeconds = 0.020

    /// The largest sample difference accepted: float rounding of a sum of up to three bells (~1e-7) with
    /// two orders of magnitude to spare; a misplaced strike leaves ~1e-2.
    static let tolerance: Float = 1e-5

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        guard let planPath = args.value("plan"), let renderPath = args.value("render"),
            let bellPath = args.value("bell")
        else { throw UsageError("--plan, --render and --bell are required") }
        let plan: Plan
        do {
            plan = try JSONDecoder().decode(Plan.self, from: Data(contentsOf: URL(fileURLWithPath: planPath)))
        } catch {
            throw CommandFailure("\(planPath): not a plan from 'enso plan --json' (\(error))", exitCode: .inputError)
        }
        let render: AudioBuffer
        let bell: AudioBuffer
        do {
            render = try AudioFileDecoder.decode(path: renderPath).buffer
            bell = try AudioFileDecoder.decode(path: bellPath).buffer
        } catch {
            throw CommandFailure(error.message, exitCode: .inputError)
        }
        guard render.sampleRate.hertz == plan.sampleRate, bell.sampleRate == render.sampleRate else {
            throw CommandFailure(
                "rates differ: plan \(plan.sampleRate) Hz, render \(render.sampleRate.hertz) Hz, bell \(bell.sampleRate.hertz) Hz; "
                    + "render at the bell's rate so no resampling is involved")
        }
        let strikes = plan.events.filter { $0.kind == "strike" }
        var expected = [Float](repeating: 0, count: render.frameCount * render.channels)
        for s in strikes {
            for c in 0..<render.channels {
                let bc = min(c, bell.channels - 1)
                for i in 0..<bell.frameCount {
                    let f = Int(s.frame) + i
                    guard f < render.frameCount else { break }
                    expected[c * render.frameCount + f] += bell.samples[bc * bell.frameCount + i]
                }
            }
        }
        var residual = [Float](repeating: 0, count: render.frameCount)
        let ramp = max(1, Int((endRampSeconds * Double(plan.sampleRate)).rounded()))
        let compared = min(render.frameCount, plan.endFrame.map { max(0, Int($0) - ramp) } ?? render.frameCount)
        for c in 0..<render.channels {
            for f in 0..<compared {
                let d = abs(render.samples[c * render.frameCount + f] - expected[c * render.frameCount + f])
                residual[f] = max(residual[f], d)
            }
        }
        let worstFrame = residual.indices.max { residual[$0] < residual[$1] } ?? 0
        let worst = residual.isEmpty ? 0 : residual[worstFrame]
        let rate = Double(plan.sampleRate)
        for s in strikes {
            // The strike's own transient: a misplaced strike shows here first.
            let window = max(0, Int(s.frame) - 64)..<min(render.frameCount, Int(s.frame) + 4096)
            let local = window.isEmpty ? 0 : residual[window].max()!
            Terminal.out(
                String(
                    format: "strike %d.%d  frame %9lld  %9.3f s  %@", s.cycle ?? 0, s.strike ?? 0, s.frame,
                    Double(s.frame) / rate,
                    local <= tolerance ? "on its planned frame" : String(format: "OFF (residual %.2e)", Double(local))))
        }
        guard worst <= tolerance else {
            let near = strikes.min { abs(Int($0.frame) - worstFrame) < abs(Int($1.frame) - worstFrame) }
            throw CommandFailure(
                String(
                    format:
                        "%@: differs from the bell placed at the planned frames by %.2e at frame %d (%.3f s, nearest strike %d.%d at frame %lld)",
                    renderPath, worst, worstFrame, Double(worstFrame) / rate, near?.cycle ?? 0, near?.strike ?? 0,
                    near?.frame ?? 0))
        }
        Terminal.out(
            String(
                format:
                    "all %d strikes on their planned frames (render equals the bell placed at them within %.0e; worst %.1e)",
                strikes.count, Double(tolerance), Double(worst)))
        return .success
    }
}
