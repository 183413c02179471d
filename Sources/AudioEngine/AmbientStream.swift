import AudioCore
import Synchronization

/// Writes the frames a streamed theme plays, in the order it plays them, on the control side.
///
/// The play sequence is the theme as the ambient player would read a loaded asset: the frames before the loop
/// once, then the loop over and over (its wrap, its seam fix and its rate conversion already applied), so the
/// render thread only ever reads forward. Implementations decode a file (`AssetLoading`); tests inject their own.
///
/// - Thread safety: called by one thread at a time (``AmbientStream`` holds it under a lock).
/// - Real-time safe: no (it decodes, resamples and allocates).
public protocol AmbientStreamProducer: AnyObject {
    /// Writes the next up to `frames` frames of the play sequence: channel 0 at `left`, channel 1 at `right`
    /// (`nil` for a mono theme).
    ///
    /// - Returns: the frames written; 0 when none are ready now (a slow source), which the stream retries later.
    /// - Throws: ``EnsoError`` naming the file when reading fails; the stream then stops asking (its voice goes
    ///   silent through the underrun fade and ``AmbientStream/failure`` holds the error).
    func produce(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>?, frames: Int)
        throws(EnsoError) -> Int
}

/// What a streamed ``LoadedAsset`` opens each time it starts playing: a fresh ``AmbientStream`` at its first
/// frame (two voices of one theme, as in a crossfade to itself, each read their own).
///
/// - Thread safety: any thread (it is called on the control thread).
public protocol AmbientStreamSource: Sendable {
    /// A new stream at frame 0 of the play sequence, with some of it already decoded (what the first render
    /// blocks need), and handed to whatever loader thread keeps it filled.
    func makeStream() -> AmbientStream

    /// The bytes of audio the source itself keeps resident for as long as its asset is cached (a streamed theme's
    /// seam-fix crossfade), apart from each play's ring; 0 by default.
    var residentBytes: Int { get }
}

extension AmbientStreamSource {
    public var residentBytes: Int { 0 }
}

/// A bounded single-producer single-consumer ring of planar frames between a loader and the render thread.
///
/// The control side (a loader thread, or ``OfflineRenderer`` pulling before each block) calls ``fill(limit:)``,
/// which asks the ``AmbientStreamProducer`` for frames and writes them in place into the ring; the render thread
/// only reads what has been published (``readable``) and moves its read index on. Both indices are monotonic
/// frame counts in atomics (release on publish, acquire on read), so neither side waits for the other, and the
/// render thread never locks, allocates or touches a file. The ring's memory is allocated once, in `init`.
///
/// - Thread safety: ``fill(limit:)`` and ``failure`` from any control thread (serialised by a lock the render
///   thread never takes); the reading side from one render thread.
/// - Real-time safe: the reading side is; ``fill(limit:)`` is not.
public final class AmbientStream: @unchecked Sendable {
    /// 1 or 2.
    public let channels: Int
    /// Frames the ring holds.
    public let capacity: Int
    let storage: UnsafeMutablePointer<Float>
    private let written = Atomic<Int64>(0)
    private let consumed = Atomic<Int64>(0)
    /// The producer, only ever touched under the lock (so it need not be `Sendable` itself).
    private struct Producing: ~Copyable, @unchecked Sendable {
        var producer: any AmbientStreamProducer
        var failure: EnsoError?
    }
    private let producing: Mutex<Producing>

    /// A ring of `capacity` frames of `channels` channels fed by `producer`.
    ///
    /// - Real-time safe: no (allocates the ring).
    public init(channels: Int, capacity: Int, producer: any AmbientStreamProducer) {
        precondition(channels == 1 || channels == 2, "a stream holds 1 or 2 channels")
        precondition(capacity > 0, "a stream's ring holds at least one frame")
        self.channels = channels
        self.capacity = capacity
        storage = .allocate(capacity: channels * capacity)
        storage.initialize(repeating: 0, count: channels * capacity)
        producing = Mutex(Producing(producer: producer, failure: nil))
    }

    deinit { storage.deallocate() }

    /// The bytes the ring holds (what a playing streamed theme keeps resident).
    public var residentBytes: Int { channels * capacity * MemoryLayout<Float>.size }

    /// The error that stopped the producer, if any.
    ///
    /// - Thread safety: control side.  - Real-time safe: no (locks).
    public var failure: EnsoError? { producing.withLock { $0.failure } }

    /// Decoded frames not yet read.
    ///
    /// - Thread safety: any thread.  - Real-time safe: yes.
    public var readable: Int { Int(written.load(ordering: .acquiring) - consumed.load(ordering: .relaxed)) }

    /// Frames read by the render thread so far.
    ///
    /// - Thread safety: any thread.  - Real-time safe: yes.
    public var framesRead: Int64 { consumed.load(ordering: .acquiring) }

    /// Asks the producer for frames until the ring is full, `limit` frames were written or the producer has none
    /// ready; returns the frames written.
    ///
    /// - Thread safety: any control thread (callers are serialised; the render thread may read meanwhile).
    /// - Real-time safe: no.
    @discardableResult
    public func fill(limit: Int = .max) -> Int {
        producing.withLock { state in
            guard state.failure == nil else { return 0 }
            var total = 0
            while total < limit {
                let w = written.load(ordering: .relaxed)
                let free = capacity - Int(w - consumed.load(ordering: .acquiring))
                let offset = Int(w % Int64(capacity))
                let run = min(free, capacity - offset, limit - total)
                if run <= 0 { break }
                let n: Int
                do throws(EnsoError) {
                    n = try state.producer.produce(
                        left: storage + offset, right: channels == 2 ? storage + capacity + offset : nil, frames: run)
                } catch {
                    state.failure = error
                    break
                }
                if n <= 0 { break }
                written.store(w + Int64(min(n, run)), ordering: .releasing)
                total += min(n, run)
            }
            return total
        }
    }

    // MARK: - Render side

    /// The ring position of the next frame to read.
    @inline(__always)
    var readOffset: Int { Int(consumed.load(ordering: .relaxed) % Int64(capacity)) }

    /// Channel `ch` of the ring (a mono stream returns channel 0 for both).
    @inline(__always)
    func channel(_ ch: Int) -> UnsafePointer<Float> {
        UnsafePointer(storage + (channels == 1 ? 0 : ch) * capacity)
    }

    /// Marks `n` frames read, freeing their room for the producer.
    @inline(__always)
    func advance(_ n: Int) {
        consumed.store(consumed.load(ordering: .relaxed) + Int64(n), ordering: .releasing)
    }
}
