import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to a child that has already exited must fail the write, not kill the test process.
///
/// A test that hands a child standard input (``ToolRunner/run(_:_:stdin:environment:currentDirectory:timeout:)``, a
/// server harness) races the child's exit: a child that refuses its arguments exits before it reads, and the write
/// then meets a closed pipe. By default that is SIGPIPE, which ends the whole test run; ignored, it is an `EPIPE`
/// the write reports.
public enum BrokenPipes {
    /// Ignores SIGPIPE for the rest of the process (once; idempotent).
    public static func ignore() { _ = ignored }

    private static let ignored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}
