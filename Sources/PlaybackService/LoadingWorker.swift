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
/// The thread is the worker's own, at nice ``backgroundNice`` by default: a load is hundreds of milliseconds of
/// decoding and resampling, and a thread of the default weight that does it keeps its core when the control thread
/// or a client wakes there, which then waits for the kernel's next tick (4 ms at 250 Hz) before it runs, once on the
/// way in and once on the way out (docs/ARCHITECTURE.md, "The loader gives its core up"). At nice 19 the scheduler
/// hands the core over at once, and the load still gets every cycle nobody else wants.
///
/// - Thread safety: ``submit(ticket:_:)`` and ``takeFinished()`` from the server's loop thread; the jobs run on the
///   worker's.
final class LoadingWorker: Sendable {
    /// A finished job: its ticket and what it produced (`nil` for a job that stores its result itself).
    typealias Finished = (ticket: Int, outcome: AssetLibrary.Outcome?)
    /// A load.
    typealias Job = @Sendable () -> AssetLibrary.Outcome?

    /// The worker thread's nice value by default: the lowest priority that still shares the CPU by weight (1/68 of a
    /// nice-0 thread's share when both want it), unlike `SCHED_IDLE`, which a busy thread of the same session would
    /// starve. A thread may always raise its own nice value, so this needs no privilege.
    static let backgroundNice: Int32 = 19

    /// The pipe's read end: readable when a job has finished.
    let wakeFD: Int32
    private let shared: Shared

    /// A worker whose thread runs at nice `nice` (``backgroundNice``; `nil` leaves the process's own).
    ///
    /// - Throws: `EnsoError` when the pipe cannot be made (out of descriptors) or the thread cannot be started.
    init(nice: Int32? = LoadingWorker.backgroundNice) throws(EnsoError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw EnsoError(errno: errno, "cannot make the asset-loading worker's wake-up pipe")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeFD = fds[0]
        shared = Shared(wakeFD: fds[0], signalFD: fds[1], nice: nice)
        try shared.startThread()
    }

    /// The thread ends after its current job and closes the pipe.
    deinit { shared.stop() }

    /// Runs `job` on the worker; its ticket and outcome come back through ``takeFinished()``.
    func submit(ticket: Int, _ job: @escaping Job) {
        shared.submit(ticket: ticket, job)
    }

    /// The jobs finished since the last call, in the order they finished.
    func takeFinished() -> [Finished] {
        var drain = [UInt8](repeating: 0, count: 256)
        while drain.withUnsafeMutableBytes({ read(wakeFD, $0.baseAddress!, $0.count) }) > 0 {}
        return shared.takeFinished()
    }

    /// The worker thread's nice value, once it has started (`nil` before); for tests.
    var threadNice: Int32? { shared.threadNice }

    /// What the loop thread and the worker thread share; the thread keeps it alive until it ends.
    private final class Shared: Sendable {
        private struct State {
            var jobs: [(ticket: Int, job: Job)] = []
            var finished: [Finished] = []
            var stopping = false
            var nice: Int32?
        }

        let wakeFD: Int32
        let signalFD: Int32
        let nice: Int32?
        private let state = Mutex(State())
        /// Counts the jobs submitted and the stop; the thread waits on it.
        private let pending = DispatchSemaphore(value: 0)

        init(wakeFD: Int32, signalFD: Int32, nice: Int32?) {
            self.wakeFD = wakeFD
            self.signalFD = signalFD
            self.nice = nice
        }

        deinit {
            close(wakeFD)
            close(signalFD)
        }

        var threadNice: Int32? { state.withLock { $0.nice } }

        func submit(ticket: Int, _ job: @escaping Job) {
            state.withLock { $0.jobs.append((ticket, job)) }
            pending.signal()
        }

        func stop() {
            state.withLock { $0.stopping = true }
            pending.signal()
        }

        func takeFinished() -> [Finished] {
            state.withLock { s in
                defer { s.finished.removeAll() }
                return s.finished
            }
        }

        /// Starts the detached thread that runs ``run()``; it holds `self` until it ends.
        func startThread() throws(EnsoError) {
            var attr = pthread_attr_t()
            pthread_attr_init(&attr)
            defer { pthread_attr_destroy(&attr) }
            pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
            let context = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            let rc = pthread_create(
                &thread, &attr,
                { raw in
                    Unmanaged<Shared>.fromOpaque(raw!).takeRetainedValue().run()
                    return nil
                }, context)
            guard rc == 0 else {
                Unmanaged<Shared>.fromOpaque(context).release()
                throw EnsoError(
                    .failure, "cannot start the asset-loading thread: \(String(cString: strerror(rc)))", code: rc)
            }
        }

        /// The thread's body: lowers its own priority, then runs each job in turn until ``stop()``.
        private func run() {
            // On Linux the nice value is the calling thread's own (setpriority(2), "BUGS"): the control thread and
            // the render thread keep theirs. Should it fail, the loads run at the normal priority: slower for the others.
            if let nice { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
            errno = 0
            let actual = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            state.withLock { $0.nice = actual }
            while true {
                pending.wait()
                let next = state.withLock { s -> (ticket: Int, job: Job)? in
                    s.stopping || s.jobs.isEmpty ? nil : s.jobs.removeFirst()
                }
                guard let (ticket, job) = next else { return }
                let outcome = job()
                state.withLock { $0.finished.append((ticket, outcome)) }
                var byte: UInt8 = 1
                // A full pipe already holds a wake-up: the byte is not needed.
                _ = write(signalFD, &byte, 1)
            }
        }
    }
}
