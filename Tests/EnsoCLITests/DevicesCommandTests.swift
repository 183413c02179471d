import AudioTestSupport
import Foundation
import Testing

@Suite("enso devices")
struct DevicesCommandTests {
    @Test("lists playback devices like aplay -L, and as JSON")
    func listsDevices() throws {
        let r = try ToolRunner.run("enso", ["devices"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let i = try #require(lines.firstIndex(of: "null"))
        #expect(lines[i + 1].hasPrefix("    Discard all samples"))
        let json = try ToolRunner.run("enso", ["devices", "--json"])
        #expect(json.exitCode == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(parsed?.contains { $0["name"] as? String == "null" } == true)
    }
}
