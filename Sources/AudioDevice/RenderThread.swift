import AudioCore

#if canImport(Glibc)
    import Glibc
#endif

/// A joinable POSIX thread for rendering, with SCHED_FIFO when the process may have it.
///
/// - Thread safety: `spawn` and `join` from the control thread.
final class RenderThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private let thread: pthread_t

    private init(thread: pthread_t) {
        self.thread = thread
    }

    /// Starts `body` on a new thread, with SCHED_FIFO at `priority` when given and permitted.
    ///
    /// - Returns: The thread, and a warning when real-time scheduling was refused (the thread then runs
    ///   at normal priority).
    /// - Throws: ``EnsoError`` of kind `failure` when no thread could be created at all.
    static func spawn(priority: Int32?, _ body: @escaping () -> Void) throws(EnsoError) -> (RenderThread, String?) {
        var warning: String?
        if let priority {
            var attr = pthread_attr_t()
            pthread_attr_init(&attr)
            defer { pthread_attr_destroy(&attr) }
            pthread_attr_setinheritsched(&attr, Int32(PTHREAD_EXPLICIT_SCHED))
            pthread_attr_setschedpolicy(&attr, SCHED_FIFO)
            var param = sched_param(sched_priority: priority)
            pthread_attr_setschedparam(&attr, &param)
            let (thread, rc) = create(&attr, body)
            if let thread { return (RenderThread(thread: thread), nil) }
            warning =
                "real-time scheduling (SCHED_FIFO priority \(priority)) refused: \(String(cString: strerror(rc))); playing at normal priority (grant 'rtprio' in /etc/security/limits.conf, or run as root)"
        }
        let (thread, rc) = create(nil, body)
        guard let thread else {
            throw EnsoError(.failure, "cannot start the render thread: \(String(cString: strerror(rc)))", code: rc)
        }
        return (RenderThread(thread: thread), warning)
    }

    private static func create(_ attr: UnsafePointer<pthread_attr_t>?, _ body: @escaping () -> Void) -> (
        pthread_t?, Int32
    ) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, attr,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                body.run()
                return nil
            }, context)
        if rc != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            return (nil, rc)
        }
        return (thread, 0)
    }

    /// Waits for the thread to end.
    func join() { pthread_join(thread, nil) }
}
