import AudioEngine
import Foundation
import Synchronization

/// The loader thread of streamed themes: one plain thread that tops up every open ``AmbientStream`` of the
/// process every ``AmbientStreaming/loaderPeriodSeconds``, so render threads only ever read.
///
/// Streams are held weakly: a stream lives as long as the play that reads it (its voice retired and dropped on the
/// control side), and the loader forgets it then. The thread starts with the first stream and runs for the life of
/// the process (it sleeps between rounds and costs nothing with no stream open). It runs at the process's priority:
/// above the control thread it would delay clients, below it a busy client could starve the stream (the same
/// reasoning as the asset loading worker, docs/ARCHITECTURE.md).
///
/// - Thread safety: ``add(_:)`` from any thread.
/// - Real-time safe: no.
public final class StreamLoader: Sendable {
    /// The process's loader.
    public static let shared = StreamLoader()

    private struct State {
        var streams: [WeakBox] = []
        var started = false
    }
    private struct WeakBox {
        weak var stream: AmbientStream?
    }
    private let state = Mutex(State())

    /// Keeps `stream` filled until it is dropped.
    public func add(_ stream: AmbientStream) {
        let start = state.withLock { s -> Bool in
            s.streams.append(WeakBox(stream: stream))
            defer { s.started = true }
            return !s.started
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "enso-stream-loader"
            thread.start()
        }
    }

    /// Streams the loader keeps filled now (for tests and diagnostics).
    public var openStreams: Int { state.withLock { s in s.streams.filter { $0.stream != nil }.count } }

    private func run() {
        while true {
            let live = state.withLock { s -> [AmbientStream] in
                s.streams.removeAll { $0.stream == nil }
                return s.streams.compactMap(\.stream)
            }
            for stream in live { stream.fill() }
            Thread.sleep(forTimeInterval: AmbientStreaming.loaderPeriodSeconds)
        }
    }
}
