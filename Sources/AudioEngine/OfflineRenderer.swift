import AudioCore

/// Renders a whole session as fast as the machine allows, block by block, handing each block to a sink.
///
/// Nothing is held beyond one block: a 24 h session streams through a fixed buffer, so the sink decides
/// where the audio goes (a file writer, a checksum, a test's array). The total length is exactly the
/// timeline's ``SessionTimeline/endFrame``: the last block is cut to it.
///
/// Theme changes can be scheduled on exact frames (``scheduleTheme(_:atFrame:crossfadeFrames:)``): the
/// renderer ends a block at each change frame and sends ``SessionEngine/setTheme(_:crossfadeFrames:)``
/// before the next, so the crossfade starts on that frame whatever ``blockFrames`` is.
///
/// Streamed themes are pulled before each block (``SessionEngine/pullStreams()``), so the render is the same
/// whatever a loader thread does meanwhile.
///
/// - Thread safety: one thread drives the renderer (it is both the engine's render and control thread).
/// - Real-time safe: no (meant for offline use; the sink may do I/O).
public final class OfflineRenderer {
    /// The engine being rendered.
    public let engine: SessionEngine
    /// Frames per block.
    public let blockFrames: Int
    private let buffer: UnsafeMutablePointer<Float>
    /// Scheduled theme changes, sorted by frame (stable: equal frames keep the order they were added).
    private var themeChanges: [(frame: FramePosition, asset: LoadedAsset?, crossfadeFrames: Int)] = []

    /// A renderer pulling `blockFrames` at a time from `engine` (prepares the engine for that size).
    public init(engine: SessionEngine, blockFrames: Int = 4096) {
        precondition(blockFrames > 0, "blockFrames must be positive")
        self.engine = engine
        self.blockFrames = blockFrames
        buffer = .allocate(capacity: blockFrames * 2)
        buffer.initialize(repeating: 0, count: blockFrames * 2)
        engine.prepare(maxFrames: blockFrames)
    }

    deinit { buffer.deallocate() }

    /// The frames a whole render produces: the timeline's end frame.
    ///
    /// - Throws: ``EnsoError`` `.invalidInput` for a session that runs until stopped.
    public func totalFrames() throws(EnsoError) -> FrameCount {
        guard let end = engine.timeline.endFrame else {
            throw EnsoError(.invalidInput, "repeat forever runs until stopped; it cannot be rendered offline")
        }
        return end
    }

    /// Schedules a crossfade to `asset` (`nil`: to silence) that starts exactly on output frame `frame`.
    ///
    /// Offline nothing pauses, so the output frame is the session frame. A change at or before the
    /// engine's current position is sent before the next block; each change is sent once. The asset must already be at the engine
    /// rate: the render loop only hands it over.
    ///
    /// - Parameters:
    ///   - asset: the new theme, or `nil`.
    ///   - frame: the output frame the crossfade starts on.
    ///   - crossfadeFrames: crossfade length in frames (clamped to 0 or more).
    public func scheduleTheme(_ asset: LoadedAsset?, atFrame frame: FramePosition, crossfadeFrames: Int) {
        if let a = asset {
            precondition(a.sampleRate == engine.sampleRate, "\(a.id): asset rate differs from the engine rate")
        }
        let index = themeChanges.firstIndex { $0.frame > frame } ?? themeChanges.count
        themeChanges.insert((frame, asset, max(0, crossfadeFrames)), at: index)
    }

    /// Renders from the engine's current position to the end, calling `sink` with each interleaved stereo
    /// block and the output frame of its first frame.
    ///
    /// Events are drained after every block and passed to `onEvent` (retired assets are freed here).
    ///
    /// - Parameters:
    ///   - sink: receives each block (valid only during the call).
    ///   - onEvent: receives every engine event, in order.
    /// - Returns: the number of frames rendered.
    /// - Throws: ``EnsoError`` for an until-stopped session, or whatever `sink` throws (rendering stops).
    @discardableResult
    public func run(
        sink: (UnsafeBufferPointer<Float>, FramePosition) throws -> Void,
        onEvent: (EngineEvent) -> Void = { _ in }
    ) throws -> FrameCount {
        let total = try totalFrames()
        var rendered: FrameCount = 0
        let start = engine.outputFrame
        var nextChange = 0
        defer { themeChanges.removeFirst(nextChange) }
        while start + rendered < total {
            let position = start + rendered
            while nextChange < themeChanges.count, themeChanges[nextChange].frame <= position {
                let change = themeChanges[nextChange]
                engine.setTheme(change.asset, crossfadeFrames: change.crossfadeFrames)
                nextChange += 1
            }
            var limit = total - position
            if nextChange < themeChanges.count { limit = min(limit, themeChanges[nextChange].frame - position) }
            let n = Int(min(FrameCount(blockFrames), limit))
            // Streamed themes: every ring full before the block, whatever a loader thread has done.
            engine.pullStreams()
            engine.render(into: buffer, frames: n)
            while let e = engine.pollEvent() { onEvent(e) }
            try sink(UnsafeBufferPointer(start: buffer, count: 2 * n), start + rendered)
            rendered += FrameCount(n)
        }
        return rendered
    }
}
