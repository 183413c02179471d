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
    /// The warnings not yet taken, and the reason the last write failed while writes keep failing.
    private let state = Mutex<(warnings: [String], failing: String?)>(([], nil))

    init() {}

    /// Saves `record` as its sitting's checkpoint in `journal` once the earlier writes are done. A failure becomes a
    /// warning (``takeWarnings()``), as it was when the write was the caller's, once while writes keep failing for
    /// the same reason (a full disk would otherwise log a line every checkpoint interval), and the first write that
    /// succeeds after says so.
    func write(_ record: SessionRecord, to journal: SessionJournal) {
        queue.async { [self] in
            do throws(EnsoError) {
                try journal.checkpoint(record)
                state.withLock { s in
                    guard s.failing != nil else { return }
                    s.failing = nil
                    s.warnings.append("checkpoints of session \(record.id) are written again")
                }
            } catch {
                state.withLock { s in
                    guard s.failing != error.message else { return }
                    s.failing = error.message
                    s.warnings.append(
                        "cannot checkpoint session \(record.id): \(error.message) (said once while it lasts)")
                }
            }
        }
    }

    /// Waits until every write asked for so far is done (before the final record replaces the checkpoint).
    func drain() { queue.sync {} }

    /// The warnings of the writes done since the last call.
    func takeWarnings() -> [String] {
        state.withLock { s in
            defer { s.warnings.removeAll() }
            return s.warnings
        }
    }
}
