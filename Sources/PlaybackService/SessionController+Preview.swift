import AudioCore
import AudioDevice
import AudioEngine
import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A preview on the server's output: its source, the output it plays on, and how it is to end.
///
/// - Thread safety: the server's control thread.
final class PreviewPlayback {
    /// Why a preview ended (`preview.ended`'s `reason`).
    enum Reason: String {
        case finished, stopped, replaced, failed
    }

    let id = UUID().uuidString.lowercased()
    let source: PreviewSource
    let output: any AudioOutput
    /// Output time is the frame count (an unpaced file).
    let unpaced: Bool
    /// How it ends when it falls silent: `finished`, or `stopped` after a `stop`.
    var reason = Reason.finished

    init(source: PreviewSource, output: any AudioOutput, unpaced: Bool) {
        self.source = source
        self.output = output
        self.unpaced = unpaced
    }

    /// Whether every frame it sounds has been heard (written, for an unpaced file).
    var isHeardThrough: Bool {
        let end = source.endFrame
        if unpaced { return source.renderedFrames >= end || !output.isRunning }
        return (output.clock.frameHeardNow ?? 0) >= end
    }
}

extension SessionController {
    /// Starts a preview (ending any other first, as `replaced`) on a newly opened output.
    ///
    /// Refused during a session: a preview would sound inside the sitting (docs/protocol.md, "Preview").
    func startPreview(_ fields: PreviewFields) throws(ProtocolError) -> PreviewReply {
        if let s = session, !s.ended {
            throw ProtocolError(
                .busy,
                "session \(s.id) is playing: a preview would sound inside the sitting; stop it first (set and strike change its sound)"
            )
        }
        // Loaded while any preview playing plays on (at the rate the output is asked for), then that one ends: the
        // output is taken by one at a time.
        var loadWarnings: [String] = []
        var source = try previewSource(fields, rate: preferredRate) { loadWarnings.append($0) }
        pending += endPreview(.replaced)
        let out: any AudioOutput
        do { out = try openOutput(preferredRate) } catch {
            throw ProtocolError(ErrorCode(error.kind), "output \(output): \(error.message)")
        }
        let rate = out.format.sampleRate
        if rate != preferredRate {
            loadWarnings.removeAll()
            source = try previewSource(fields, rate: rate) { loadWarnings.append($0) }
        }
        let (kind, asset) =
            switch fields.sound {
            case .bell(let bell): ("bell", bell)
            case .theme(let theme, _): ("theme", theme)
            }
        let now = wallClock()
        do {
            try out.start(source, startFrame: 0, frameLimit: source.frameCount)
        } catch {
            throw ProtocolError(ErrorCode(error.kind), "output \(output): \(error.message)")
        }
        for w in out.warnings { warnings.append(w) }
        let p = PreviewPlayback(source: source, output: out, unpaced: output.isUnpaced)
        preview = p
        // Its last frame has been heard `seconds` after the start, as `start`'s times are (``OutputStart``).
        let ends = OutputStart.heardAt(frame: source.frameCount, startedAt: now, rate: rate)
        return PreviewReply(
            previewId: p.id, kind: kind, asset: asset, seconds: rate.seconds(frames: source.frameCount),
            startsAt: ProtocolTime.format(now), endsAt: ProtocolTime.format(ends),
            warnings: loadWarnings.isEmpty ? nil : loadWarnings)
    }

    /// The source `fields` ask for, its asset loaded at `rate`; `warn` receives the load's warnings (a theme
    /// seam-fixed in memory), as `start` and `set` give them.
    private func previewSource(
        _ fields: PreviewFields, rate: SampleRate, warn: (String) -> Void
    ) throws(ProtocolError) -> PreviewSource {
        let defaults = SessionPlan()
        switch fields.sound {
        case .bell(let bell):
            let a = try assets.load(bell, kind: .bell, rate: rate, field: "bell", warn: warn)
            return PreviewSource(bell: a, gain: fields.volume ?? defaults.bellVolume)
        case .theme(let theme, let seconds):
            let a = try assets.load(theme, kind: .soundscape, rate: rate, field: "theme", warn: warn)
            return PreviewSource(
                theme: a, gain: fields.volume ?? defaults.ambientVolume, frames: rate.frames(seconds: seconds))
        }
    }

    /// Whether `command` takes the output from the playing preview: a `start` or `preview` that passes its checks
    /// made before anything sounds (the plan, the assets `prepared` for it) while a preview plays. The scheduler then
    /// fades the preview out with ``releaseOutput()`` and runs the command once that has been heard, serving every
    /// other client meanwhile; a request refused for its own fields leaves the preview playing.
    func takesOutputFromPreview(_ command: ControlCommand, prepared: [AssetSource: AssetLibrary.Outcome]) -> Bool {
        guard preview != nil else { return false }
        if prepared.values.contains(where: { if case .failure = $0 { true } else { false } }) { return false }
        switch command {
        case .start(let fields):
            return (try? fields.plan()) != nil && (try? fields.themeAt(rate: preferredRate, endFrame: nil)) != nil
        case .preview: return true
        default: return false
        }
    }

    /// Fades the playing preview out over the de-click length (ending as `replaced`, unless a `stop` already ends
    /// it); ``pollPreview()`` ends it once that is heard, and the output is free.
    func releaseOutput() {
        guard let p = preview else { return }
        if p.reason == .finished { p.reason = .replaced }
        p.source.stop()
    }

    /// `stop` of a preview: it fades out over the de-click length; ``pollPreview()`` ends it once that is heard.
    func stopPreview(_ p: PreviewPlayback) {
        p.source.stop()
        p.reason = .stopped
    }

    /// Ends a preview that has been heard through, or whose output failed: its `preview.ended`.
    func pollPreview() -> [ProtocolEvent] {
        guard let p = preview else { return [] }
        if let failure = p.output.failure, !p.output.isRunning {
            let error = ProtocolError(ErrorCode(failure.kind), failure.message)
            return finishPreview(p, .failed, error: error)
        }
        return p.isHeardThrough ? finishPreview(p, p.reason) : []
    }

    /// Ends the preview now, for `reason`: it fades out over the de-click length and this waits until that is heard
    /// (an output buffer, ~0.2 s with ALSA defaults; at most 1 s), so the cut makes no click. The server calls it
    /// only when it ends; its scheduler frees the output for a `start` or `preview` without waiting
    /// (``releaseOutput()``), so by then no preview plays and this returns at once.
    func endPreview(_ reason: PreviewPlayback.Reason) -> [ProtocolEvent] {
        guard let p = preview else { return [] }
        p.source.stop()
        let deadline = Date().addingTimeInterval(1)
        while !p.isHeardThrough && p.output.failure == nil && Date() < deadline { usleep(2_000) }
        return finishPreview(p, reason)
    }

    private func finishPreview(
        _ p: PreviewPlayback, _ reason: PreviewPlayback.Reason, error: ProtocolError? = nil
    ) -> [ProtocolEvent] {
        // Heard through: nothing is left to play (a file is kept whole).
        p.output.stop(drain: p.unpaced)
        preview = nil
        let ended = PreviewEnded(
            previewId: p.id, reason: reason.rawValue, at: ProtocolTime.format(wallClock()), error: error)
        return [.previewEnded(ended)]
    }
}
