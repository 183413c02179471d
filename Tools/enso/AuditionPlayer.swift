import AudioCore
import AudioDevice
import CLISupport
import Foundation

/// Plays the strikes of an interactive audition on an output.
///
/// On a paced output (ALSA, null) each play starts at once, cutting off the one before. A file output is unpaced
/// and can be written only once, so there the plays are queued one after the other (0.5 s of silence between them)
/// and the whole audition is rendered to the file by ``finish(drain:)``.
///
/// - Thread safety: one control thread.
final class AuditionPlayer {
    private let output: any AudioOutput
    private let toFile: Bool
    private var queued: [StrikeListSource.Strike] = []
    private var queuedFrames = 0
    private var playing = false

    init(_ output: any AudioOutput) {
        self.output = output
        toFile = DeviceOptions.isFile(output)
    }

    /// Starts (or, to a file, queues) `strikes`, whose frames count from the start of this play.
    func play(_ strikes: [StrikeListSource.Strike]) throws {
        let length = StrikeListSource(strikes).length
        if toFile {
            queued += strikes.map { StrikeListSource.Strike(asset: $0.asset, at: $0.at + queuedFrames) }
            queuedFrames += length + output.format.sampleRate.hertz / 2
            return
        }
        if playing { output.stop(drain: false) }
        try check()
        do {
            try output.start(StrikeListSource(strikes), startFrame: 0, frameLimit: FrameCount(max(length, 1)))
        } catch {
            throw CommandFailure(error.message)
        }
        playing = true
    }

    /// Closes the current play if it has ended.
    func settle() throws {
        guard playing, !output.isRunning else { return }
        output.stop(drain: true)
        playing = false
        try check()
    }

    /// Waits until the current play has ended (or a stop is requested).
    func wait(_ signals: StopSignals) throws {
        while playing && output.isRunning && !signals.stopRequested { usleep(10_000) }
        if signals.stopRequested { return }
        try settle()
    }

    /// Ends the audition: stops the current play (played out with `drain`), or renders the queued plays to the file.
    func finish(drain: Bool) throws {
        if toFile && !queued.isEmpty {
            do {
                try output.start(StrikeListSource(queued), startFrame: 0, frameLimit: FrameCount(queuedFrames))
            } catch {
                throw CommandFailure(error.message)
            }
            playing = true
            while output.isRunning { usleep(10_000) }
        }
        if playing { output.stop(drain: drain || toFile) }
        playing = false
        try check()
    }

    private func check() throws {
        if let failure = output.failure { throw CommandFailure(failure.message) }
    }
}
