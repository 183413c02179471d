import AudioCore
import Dispatch
import Synchronization
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

/// One background thread that loads assets for the server, and a pipe that wakes the server's `poll` loop when a
/// load is done.
///
/// Jobs run one at a time in the order submitted (two cores are shared with the render thread, and a second load
/// at once would only slow the first). A finished job leaves its ticket and outcome in an outbox and writes one byte
/// to the pipe; the loop polls ``wakeFD`` and takes the outbox with ``takeFinished()``.
///
/// - Thread safety: ``submit(ticket:_:)`` and ``takeFinished()`` from the server's loop thread; the jobs run on the
///   worker's.
final class LoadingWorker: Sendable {
    /// A finished job: its ticket and what it produced (`nil` for a job that stores its result itself).
    typealias Finished = (ticket: Int, outcome: AssetLibrary.Outcome?)

    /// The pipe's read end: readable when a job has finished.
    let wakeFD: Int32
    private let signalFD: Int32
    private let queue = DispatchQueue(label: "enso.asset-loading", qos: .userInitiated)
    private let outbox = Mutex<[Finished]>([])

    /// - Throws: `EnsoError` when the pipe cannot be made (out of descriptors).
    init() throws(EnsoError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw EnsoError(errno: errno, "cannot make the asset-loading worker's wake-up pipe")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeFD = fds[0]
        signalFD = fds[1]
    }

    deinit {
        close(wakeFD)
        close(signalFD)
    }

    /// Runs `job` on the worker; its ticket and outcome come back through ``takeFinished()``.
    func submit(ticket: Int, _ job: @escaping @Sendable () -> AssetLibrary.Outcome?) {
        queue.async { [self] in
            let outcome = job()
            outbox.withLock { $0.append((ticket, outcome)) }
            var byte: UInt8 = 1
            // A full pipe already holds a wake-up: the byte is not needed.
            _ = write(signalFD, &byte, 1)
        }
    }

    /// The jobs finished since the last call, in the order they finished.
    func takeFinished() -> [Finished] {
        var drain = [UInt8](repeating: 0, count: 256)
        while drain.withUnsafeMutableBytes({ read(wakeFD, $0.baseAddress!, $0.count) }) > 0 {}
        return outbox.withLock { finished in
            defer { finished.removeAll() }
            return finished
        }
    }
}
