import AudioCore
import AudioTestSupport
import Glibc
import SystemIO
import Testing

/// A socket address holds any path that fits `sun_path` with its terminating zero, refuses a longer one by name, and
/// binds and connects a real socket.
@Suite struct UnixSocketAddressTests {
    @Test func aPathTooLongForTheAddressIsRefusedByName() {
        let fits = "/" + String(repeating: "f", count: UnixSocketAddress.maxPathBytes - 1)
        #expect((try? UnixSocketAddress(path: fits))?.path == fits)
        let long = fits + "g"
        let error = #expect(throws: EnsoError.self) { try UnixSocketAddress(path: long) }
        #expect(error?.kind == .invalidInput)
        #expect(error?.message.contains(long) == true, "\(error?.message ?? "")")
    }

    @Test func aBoundListeningSocketAcceptsAConnection() throws {
        let address = try UnixSocketAddress(path: ToolRunner.temporaryDirectory("unix-socket") + "/s.sock")
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(server)
            close(client)
        }
        try #require(server >= 0 && client >= 0)
        #expect(address.bind(server) == 0)
        #expect(listen(server, 1) == 0)
        #expect(address.connect(client) == 0)
        let accepted = accept(server, nil, nil)
        #expect(accepted >= 0)
        close(accepted)
    }

    @Test func aFailedCallLeavesErrnoForTheCaller() throws {
        let address = try UnixSocketAddress(path: ToolRunner.temporaryDirectory("unix-socket") + "/nobody.sock")
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        try #require(client >= 0)
        let rc = address.connect(client)
        let e = errno
        #expect(rc == -1 && e == ENOENT)
    }
}
