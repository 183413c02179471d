import Foundation

/// Writes `data` to `path` in place; `false` when it cannot.
///
/// Not `FileManager.createFile(atPath:contents:)`: on Linux that writes atomically through a
/// `TemporaryDirectory.*` folder in the system's temporary directory and never removes the folder, so a suite that
/// writes its fixtures with it leaves one folder behind per file.
@discardableResult
public func writeTestFile(_ path: String, _ data: Data? = nil) -> Bool {
    (try? (data ?? Data()).write(to: URL(fileURLWithPath: path))) != nil
}
