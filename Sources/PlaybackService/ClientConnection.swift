import ControlProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// One connected front end: where its lines come from, where replies and events go, what it subscribed to,
/// and a bounded queue of bytes not yet written.
///
/// The queue is what keeps a client that never reads from blocking the server: once more than
/// ``maxQueuedBytes`` are waiting, a socket client is disconnected and a stdio client's new lines are
/// dropped (and counted). Writes never block: sockets and pipes (stdout of a front end) are non-blocking;
/// any other stdout (a terminal, a file) is written only when `poll` says it takes bytes, one pipe page at a time.
///
/// - Thread safety: the server's loop thread only.
final class ClientConnection {
    /// The most bytes queued for one client before it is treated as not reading.
    static let maxQueuedBytes = 1 << 20
    /// The longest reply line sent: half the queue, so that a reply still fits behind a queue half full of events.
    /// A longer one is replaced by an error reply saying so (``enqueue(reply:)``); `sessions.list` pages stay under
    /// it.
    static let maxReplyBytes = maxQueuedBytes / 2

    let id: Int
    let readFD: Int32
    let writeFD: Int32
    let isSocket: Bool
    var framer = LineFramer()
    /// Answers its requests and keeps its subscription.
    var dispatcher: RequestDispatcher<SessionController>
    private(set) var queue: [UInt8] = []
    private var queueOffset = 0
    /// Lines dropped because the queue was full (stdio only).
    private(set) var dropped = 0
    /// Set when the client is gone (closed, failed, or disconnected for not reading).
    var closeReason: String?
    /// Whether its input has ended (EOF).
    var inputEnded = false
    /// Requests received and not run yet, oldest first (``RequestScheduler``).
    var held: [RequestScheduler.Held] = []
    /// The request waiting for its assets, when one is: the requests after it wait behind it.
    var parked: RequestScheduler.Parked?
    /// Whether requests of it are still to be answered.
    var hasWork: Bool { !held.isEmpty || parked != nil }

    /// Whether writes to ``writeFD`` return at once (`O_NONBLOCK`) instead of blocking when it is full.
    private let nonBlocking: Bool

    init(id: Int, readFD: Int32, writeFD: Int32, isSocket: Bool, dispatcher: RequestDispatcher<SessionController>) {
        self.id = id
        self.readFD = readFD
        self.writeFD = writeFD
        self.isSocket = isSocket
        self.dispatcher = dispatcher
        var st = stat()
        let kind = fstat(writeFD, &st) == 0 ? st.st_mode & S_IFMT : 0
        if isSocket || kind == S_IFIFO || kind == S_IFSOCK {
            let flags = fcntl(writeFD, F_GETFL)
            nonBlocking = flags >= 0 && (flags & O_NONBLOCK != 0 || fcntl(writeFD, F_SETFL, flags | O_NONBLOCK) == 0)
        } else {
            nonBlocking = false
        }
    }

    var queuedBytes: Int { queue.count - queueOffset }
    var hasPendingOutput: Bool { queuedBytes > 0 }

    /// Queues `line` (newline included). Returns `false` when the queue is full.
    @discardableResult
    func enqueue(_ line: [UInt8]) -> Bool {
        guard closeReason == nil else { return false }
        if queuedBytes + line.count > Self.maxQueuedBytes {
            if isSocket {
                closeReason = "not reading (over \(Self.maxQueuedBytes) bytes queued); disconnected"
            } else {
                dropped += 1
            }
            return false
        }
        if queueOffset > 0 && queueOffset >= queue.count / 2 {
            queue.removeFirst(queueOffset)
            queueOffset = 0
        }
        queue += line
        return true
    }

    /// Queues `reply`; when its line is longer than ``maxReplyBytes``, queues instead an `unsupported` error reply
    /// with the same id saying how long it was, so every request gets a reply that can arrive.
    func enqueue(reply: Reply) {
        var line = reply.line
        if line.count > Self.maxReplyBytes {
            let why = ProtocolError(
                .unsupported,
                "the reply is \(line.count) bytes, over the \(Self.maxReplyBytes) one reply may take; ask for less")
            line = Reply.failure(reply.id, why).line
        }
        enqueue(line)
    }

    /// Writes as much of the queue as the descriptor takes without blocking.
    func flush() {
        while hasPendingOutput && closeReason == nil {
            // A blocking stdout (a terminal, a file): one pipe page at a time, and only when poll says it is writable.
            if !nonBlocking {
                var p = pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0)
                guard poll(&p, 1, 0) == 1, p.revents & Int16(POLLOUT) != 0 else {
                    if p.revents & Int16(POLLERR | POLLHUP) != 0 { closeReason = "output closed" }
                    return
                }
            }
            let chunk = nonBlocking ? queuedBytes : min(queuedBytes, Int(PIPE_BUF))
            let n = queue.withUnsafeBytes { buf in
                isSocket
                    ? send(writeFD, buf.baseAddress! + queueOffset, chunk, Int32(MSG_NOSIGNAL))
                    : write(writeFD, buf.baseAddress! + queueOffset, chunk)
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                closeReason = "write failed: \(String(cString: strerror(errno)))"
                return
            }
            queueOffset += n
            if queueOffset == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueOffset = 0
            }
            if !nonBlocking { return }
        }
    }

    /// Reads what is available and returns the frames it completes; sets ``inputEnded`` at EOF.
    func readFrames() -> [LineFramer.Frame] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress!, $0.count) }
        if n < 0 {
            if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return [] }
            inputEnded = true
            return []
        }
        if n == 0 {
            inputEnded = true
            return framer.finish().map { [$0] } ?? []
        }
        return framer.append(buffer[0..<n])
    }
}
