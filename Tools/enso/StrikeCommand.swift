import AudioCore
import AudioDevice
import AudioEngine
import CLISupport
import Foundation

/// `enso strike BELL`: plays one bell and exits when it has decayed.
enum StrikeCommand {
    static let command = Command(
        name: "strike",
        abstract: "Strike one bell on the output and exit when it has decayed.",
        discussion: """
            BELL is an asset id of the pack or an audio file. The bell plays at --volume (default 1) and the
            command returns once it has decayed below -60 dB and the device has played it out.
            """,
        arguments: [ArgumentSpec("bell", help: "A bell asset id or an audio file.")],
        options: DeviceOptions.specs + [volume.spec, assets.spec],
        exitCodes: [
            ExitCodeMeaning(.success, "Played."),
            ExitCodeMeaning(.failure, "The device could not be opened or failed, or the bell could not be loaded."),
            ExitCodeMeaning(.usage, "Bad usage or an unknown asset id."),
        ],
        run: { args, _ in try run(args) })

    /// A gain: 1 plays the bell as it is, 0 is silence.
    static let volume = Option<Double>("volume", valueName: "GAIN", range: 0...1, default: 1, help: "Gain.")
    static let assets = PlanOptions.assets

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        guard let bellName = args.positionals.first, args.positionals.count == 1 else {
            throw UsageError("expected exactly one bell (an asset id or an audio file)")
        }
        let gain = try args.valueOrDefault(of: volume)
        var planArgs = ParsedArguments()
        planArgs.values[PlanOptions.option(.bell).spec.name] = [bellName]
        if let a = try args.value(of: assets) { planArgs.values[PlanOptions.assets.spec.name] = [a] }
        var parsed = try PlanOptions.parse(planArgs)
        let output = try DeviceOptions.open(args, rate: parsed.rate)
        parsed.rate = output.format.sampleRate
        let bell = try PlanOptions.loadAssets(parsed, includeAmbient: false, bellLabel: "BELL").bell
        let source = OneShotSource(bell, gain: Float(gain))
        let frames = bell.decayFrames(gain: gain)
        let signals = StopSignals()
        do {
            try output.start(source, startFrame: 0, frameLimit: max(frames, 1))
        } catch {
            throw CommandFailure(error.message)
        }
        for w in output.warnings { Terminal.err("Warning: \(w)") }
        while output.isRunning && !signals.stopRequested { usleep(10_000) }
        output.stop(drain: !signals.stopRequested)
        if let failure = output.failure { throw CommandFailure(failure.message) }
        Terminal.out(
            "\(bell.id): \(PlanCommand.offsetText(output.format.sampleRate.seconds(frames: frames))) on '\(output.deviceName)'"
        )
        return .success
    }
}
