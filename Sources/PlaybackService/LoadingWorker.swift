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
/// Jobs run one at a time (two cores are shared with the render thread, and a second load at once would only slow
/// the first), taken in turn from each owner (a client) that has jobs waiting: the next job is the oldest of the
/// owner whose last job ran longest ago, so one client's loads hold another's up for at most the one load running.
/// An owner's jobs not started yet are dropped with ``cancel(owner:)`` when it goes. A finished job leaves its ticket
/// and outcome in an outbox and writes one byte to the pipe; the loop polls ``wakeFD`` and takes the outbox with
/// ``takeFinished()``.
///
/// The thread is the worker's own, at the process's priority. A Dispatch queue ran the loads before, and its
/// `userInitiated` quality of service put its thread at nice -2 when the process may raise priorities (as root): the
/// load then outweighed the control thread and the clients on a core they shared, and each of them that woke there
/// waited for the kernel's next tick (4 ms at 250 Hz) to run (docs/ARCHITECTURE.md, "The loader does not outrank the
/// control thread"). A lower priority than the process's own starves the load behind a busy client of the same session
/// (measured: a `set theme` took 17.9 s at nice 19), so it is not lowered either.
///
/// - Thread safety: ``submit(ticket:owner:_:)``, ``cancel(owner:)`` and ``takeFinished()`` from the server's loop
///   thread; the jobs run on the worker's.
final class LoadingWorker: Sendable {
    /// A finished job: its ticket and what it produced (`nil` for a job that stores its result itself).
    typealias Finished = (ticket: Int, outcome: AssetLibrary.Outcome?)
    /// A load.
    typealias Job = @Sendable () -> AssetLibrary.Outcome?

    /// The pipe's read end: readable when a job has finished.
    let wakeFD: Int32
    private let shared: Shared

    /// - Throws: `EnsoError` when the pipe cannot be made (out of descriptors) or the thread cannot be started.
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
        shared = Shared(wakeFD: fds[0], signalFD: fds[1])
        _ = Self.heapTrimDisabled
        try shared.startThread()
    }

    /// Whether glibc's malloc was told never to return the free top of its heaps to the kernel
    /// (`mallopt(M_TRIM_THRESHOLD, INT_MAX)`, once per process; `false` when the C library has no `mallopt`).
    ///
    /// At the end of a load the loader frees its intermediate buffers (the decoded, seam-fixed and resampled copies
    /// of a theme), and malloc then gave its arena's top back in one burst: a 64 MB heap unmapped and 52 MB of
    /// `MADV_DONTNEED` (strace), kernel work during which another client's `status` waited 5.5-7 ms, once per
    /// load (docs/ARCHITECTURE.md). Without the trim that wait is gone (0.3 ms median of the longest waits). Large
    /// blocks are still mapped on their own and unmapped when freed (the setting also stops the mmap threshold from
    /// rising; it stays at 128 KiB unless a freed block raised it first), so the buffers themselves go back to the
    /// kernel; what stays is the free top of the heaps.
    static let heapTrimDisabled: Bool = {
        // `mallopt` is declared in <malloc.h>, which the Glibc module does not import.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        /// `M_TRIM_THRESHOLD` in <malloc.h>.
        let trimThreshold: Int32 = -1
        return unsafeBitCast(symbol, to: MallOpt.self)(trimThreshold, Int32.max) == 1
    }()

    /// The thread ends after its current job and closes the pipe.
    deinit { shared.stop() }

    /// Runs `job` on the worker in `owner`'s turn; its ticket and outcome come back through ``takeFinished()``.
    func submit(ticket: Int, owner: Int, _ job: @escaping Job) {
        shared.submit(Queued(ticket: ticket, owner: owner, job: job))
    }

    /// Drops the jobs of `owner` not started yet (one running finishes, and its outcome comes back as usual).
    ///
    /// - Returns: the tickets of the jobs dropped.
    @discardableResult
    func cancel(owner: Int) -> [Int] {
        shared.cancel(owner: owner)
    }

    /// The jobs finished since the last call, in the order they finished.
    func takeFinished() -> [Finished] {
        var drain = [UInt8](repeating: 0, count: 256)
        while drain.withUnsafeMutableBytes({ read(wakeFD, $0.baseAddress!, $0.count) }) > 0 {}
        return shared.takeFinished()
    }

    /// The worker thread's nice value, once it has started (`nil` before); for tests.
    var threadNice: Int32? { shared.threadNice }

    /// A job waiting for its turn.
    private struct Queued {
        var ticket: Int
        /// Whose job it is (a client's id): turns go round the owners.
        var owner: Int
        var job: Job
    }

    /// What the loop thread and the worker thread share; the thread keeps it alive until it ends.
    private final class Shared: Sendable {
        private struct State {
            /// Jobs waiting, oldest first.
            var jobs: [Queued] = []
            var finished: [Finished] = []
            var stopping = false
            var nice: Int32?
            /// When each owner's last job started (a count of jobs started), for the turns.
            var lastStarted: [Int: Int] = [:]
            var started = 0

            /// Takes the next job: the oldest of the owner whose last job started longest ago (never: first).
            mutating func takeNext() -> Queued? {
                var best: Int?
                var bestTurn = Int.max
                for (i, queued) in jobs.enumerated() {
                    let turn = lastStarted[queued.owner] ?? -1
                    if turn < bestTurn {
                        best = i
                        bestTurn = turn
                    }
                }
                guard let best else { return nil }
                let next = jobs.remove(at: best)
                started += 1
                lastStarted[next.owner] = started
                // Owners with nothing waiting are forgotten, so the table stays as small as the queue.
                lastStarted = lastStarted.filter { owner, _ in
                    owner == next.owner || jobs.contains { $0.owner == owner }
                }
                return next
            }
        }

        let wakeFD: Int32
        let signalFD: Int32
        private let state = Mutex(State())
        /// Counts the jobs submitted and the stop; the thread waits on it.
        private let pending = DispatchSemaphore(value: 0)

        init(wakeFD: Int32, signalFD: Int32) {
            self.wakeFD = wakeFD
            self.signalFD = signalFD
        }

        deinit {
            close(wakeFD)
            close(signalFD)
        }

        var threadNice: Int32? { state.withLock { $0.nice } }

        func submit(_ queued: Queued) {
            state.withLock { $0.jobs.append(queued) }
            pending.signal()
        }

        func cancel(owner: Int) -> [Int] {
            // The semaphore keeps a count for each dropped job: the thread wakes for it, finds nothing and waits again.
            state.withLock { s in
                let dropped = s.jobs.filter { $0.owner == owner }.map(\.ticket)
                s.jobs.removeAll { $0.owner == owner }
                return dropped
            }
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

        /// The thread's body: notes its nice value (the thread's own on Linux), then runs each job in turn until
        /// ``stop()``.
        private func run() {
            errno = 0
            let actual = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            state.withLock { $0.nice = actual }
            while true {
                pending.wait()
                let next = state.withLock { s -> Queued?? in s.stopping ? nil : .some(s.takeNext()) }
                guard let next else { return }
                // A dropped job's wake-up.
                guard let queued = next else { continue }
                let outcome = queued.job()
                state.withLock { $0.finished.append((queued.ticket, outcome)) }
                var byte: UInt8 = 1
                // A full pipe already holds a wake-up: the byte is not needed.
                _ = write(signalFD, &byte, 1)
            }
        }
    }
}
