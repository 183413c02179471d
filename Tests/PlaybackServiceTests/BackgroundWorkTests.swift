import AudioTestSupport
import ControlProtocol
import Foundation
import Synchronization
import Testing

@testable import PlaybackService

#if canImport(Glibc)
    import Glibc
#endif

/// The server's slow work runs off its control thread without outranking it: the asset loader on a thread of its own
/// at the process's priority, the checkpoints on a queue of their own, in order, before the final record
/// (docs/ARCHITECTURE.md).
@Suite struct BackgroundWorkTests {
    private static let which = __priority_which_t(PRIO_PROCESS.rawValue)

    @Test func theLoaderThreadRunsAtItsCreatorsPriorityAndAnswersThroughThePipe() throws {
        errno = 0
        let before = getpriority(Self.which, 0)
        let worker = try LoadingWorker()
        // The thread notes its nice value when it starts: wait for a job it ran (not for a time).
        let ran = DispatchSemaphore(value: 0)
        worker.submit(ticket: 7, owner: 1) {
            ran.signal()
            return nil
        }
        ran.wait()
        // A Dispatch queue of `userInitiated` ran the loads at nice -2 as root, above the control thread.
        #expect(worker.threadNice == before)
        var p = pollfd(fd: worker.wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, -1)
        #expect(worker.takeFinished().map(\.ticket) == [7])
    }

    /// The worker's jobs run in turn across owners, and an owner's jobs not started are dropped when it goes.
    /// The first job is held by a semaphore while the rest are queued, so the order is the worker's alone.
    @Test func loadsTakeTurnsAcrossClientsAndAGoneClientsAreDropped() throws {
        let worker = try LoadingWorker()
        let running = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let order = Mutex<[Int]>([])
        func job(_ ticket: Int) -> LoadingWorker.Job {
            {
                order.withLock { $0.append(ticket) }; return nil
            }
        }
        // Client 1's first load runs and is held; it has three more waiting, then client 2 asks for one.
        worker.submit(ticket: 10, owner: 1) {
            order.withLock { $0.append(10) }
            running.signal()
            go.wait()
            return nil
        }
        running.wait()
        for t in [11, 12, 13] { worker.submit(ticket: t, owner: 1, job(t)) }
        worker.submit(ticket: 20, owner: 2, job(20))
        worker.submit(ticket: 21, owner: 2, job(21))
        go.signal()
        var finished: [Int] = []
        let deadline = Date().addingTimeInterval(10)
        while finished.count < 6 && Date() < deadline {
            var p = pollfd(fd: worker.wakeFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 100)
            finished += worker.takeFinished().map(\.ticket)
        }
        // Client 2's first load waits for the one running only, then the turns alternate.
        #expect(order.withLock { $0 } == [10, 20, 11, 21, 12, 13])
        #expect(finished == [10, 20, 11, 21, 12, 13])

        // Client 3 goes while its first load runs: its others are dropped, client 4's runs next.
        worker.submit(ticket: 30, owner: 3) {
            order.withLock { $0.append(30) }
            running.signal()
            go.wait()
            return nil
        }
        running.wait()
        for t in [31, 32] { worker.submit(ticket: t, owner: 3, job(t)) }
        worker.submit(ticket: 40, owner: 4, job(40))
        #expect(worker.cancel(owner: 3) == [31, 32])
        go.signal()
        finished = []
        while finished.count < 2 && Date() < deadline {
            var p = pollfd(fd: worker.wakeFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 100)
            finished += worker.takeFinished().map(\.ticket)
        }
        #expect(finished == [30, 40])
        // The dropped jobs' wake-ups do not stop the thread: a later job still runs.
        worker.submit(ticket: 50, owner: 5, job(50))
        while !finished.contains(50) && Date() < deadline {
            var p = pollfd(fd: worker.wakeFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 100)
            finished += worker.takeFinished().map(\.ticket)
        }
        #expect(order.withLock { $0 }.suffix(3) == [30, 40, 50])
    }

    @Test func aServerKeepsTheFreeTopOfItsHeaps() throws {
        _ = try LoadingWorker()
        // glibc's malloc accepted the setting (mallopt returns 1), so a load's end frees no heap in a burst.
        #expect(LoadingWorker.heapTrimDisabled)
    }

    @Test func aCheckpointOnItsWayNeverOutlivesTheFinalRecord() throws {
        let assets = ServerFixtures.assets()
        let journal = SessionJournal(path: assets + "/bg/sessions.jsonl")
        // Every fsync off this thread after the start's checkpoint is slow, so a checkpoint asked for by the pause is
        // still being written when the session ends here: the final record must wait for it, or the checkpoint's
        // rename lands after the record removed it.
        let slow = Mutex(false)
        let here = pthread_self()
        journal.syscalls.fsync = { fd in
            if slow.withLock({ $0 }) && pthread_equal(pthread_self(), here) == 0 { usleep(100_000) }
            return Glibc.fsync(fd)
        }
        let c = SessionController(
            output: .null, journal: journal, assets: AssetLibrary(directory: ToolRunner.temporaryDirectory("no-pack")),
            checkpointInterval: 60)
        let ahead = Mutex(0.0)
        c.wallClock = { Date().addingTimeInterval(ahead.withLock { $0 }) }
        var dispatcher = RequestDispatcher(service: c)
        let start = try ControlCommand(
            try Request.parse(Array(#"{"command":"start","sitting":600,"bell":"\#(assets)/bell.wav"}"#.utf8)))
        let id = try #require(try dispatcher.execute(start).get()["sessionId"]?.stringValue)
        #expect(
            FileManager.default.fileExists(atPath: journal.checkpointPath(id)),
            "the start's checkpoint is written at once")
        slow.withLock { $0 = true }
        // Past the least spacing of forced checkpoints: the pause asks for one at once.
        ahead.withLock { $0 = 1 }
        _ = try dispatcher.execute(try ControlCommand(try Request.parse(Array(#"{"command":"pause"}"#.utf8)))).get()
        let writer = try #require(c.session?.checkpointWriter)
        _ = c.shutdown()
        // Whatever was still on its way has landed by now.
        writer.drain()
        #expect(!FileManager.default.fileExists(atPath: journal.checkpointPath(id)))
        #expect(try journal.read().records.map(\.id) == [id])
        #expect(try journal.recoverInterrupted().isEmpty)
    }
}
