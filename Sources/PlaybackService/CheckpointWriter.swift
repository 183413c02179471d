import AudioCore
import ControlProtocol
import Dispatch
import Synchronization

/// Writes a sitting's checkpoints on a background queue, in the order given, so the thread that asks never waits
/// for the disk.
///
/// A checkpoint is a temporary file, an fsync, a rename and an fsync of the folder
/// (``SessionJournal/checkpoint(_:)``): 2 to 8 ms on an ordinary disk, every ``RunningSession/checkpointInterval``
/// seconds and at each pause and resume. On `enso serve`'s control thread that was the longest wait any client's
/// `status` saw while a session played (docs/ARCHITECTURE.md, "Checkpoints are written off the control thread").
/// The record is built by the caller, on its own thread, as of the moment it asks; only the write moves.
///
/// - Thread safety: ``write(_:to:)``, ``drain()`` and ``takeWarnings()`` from one thread (the session's control
///   thread); the writes run on the queue.
final class CheckpointWriter: Sendable {
    private let queue = DispatchQueue(label: "enso.checkpoints")
    private let warnings = Mutex<[String]>([])

    init() {}

    /// Saves `record` as its sitting's checkpoint in `journal` once the earlier writes are done; a failure becomes a
    /// warning (``takeWarnings()``), as it was when the write was the caller's.
    func write(_ record: SessionRecord, to journal: SessionJournal) {
        queue.async { [self] in
            do throws(EnsoError) { try journal.checkpoint(record) } catch {
                warnings.withLock { $0.append("cannot checkpoint session \(record.id): \(error.message)") }
            }
        }
    }

    /// Waits until every write asked for so far is done (before the final record replaces the checkpoint).
    func drain() { queue.sync {} }

    /// The warnings of the writes done since the last call.
    func takeWarnings() -> [String] {
        warnings.withLock { w in
            defer { w.removeAll() }
            return w
        }
    }
}
