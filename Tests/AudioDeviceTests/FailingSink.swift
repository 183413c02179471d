import AudioCore

@testable import AudioDevice

/// A null device on a manual clock whose writes fail on demand, as a device that disappears mid-stream: the
/// fault is injected here, in a sink of the test's own, and played through the same render loop as every output.
///
/// - Thread safety: one thread (the test's, stepping a ``ManualOutput``).
final class FailingSink: PCMSink, @unchecked Sendable {
    let device: NullSink<ManualClock>
    let deviceName: String
    /// What the next write returns: a negative errno (0: writes go to the device).
    var writeError: Int32 = 0
    /// Whether ``writeError`` applies to one write only (an underrun) or to every write from now on (a lost device).
    var failOnce = false

    init(name: String, format: StreamFormat, clock: ManualClock) {
        deviceName = name
        device = NullSink(
            name: name, rate: format.sampleRate.hertz, bufferFrames: format.bufferFrames, clock: clock)
    }

    func write(_ data: UnsafeRawPointer, frames: Int) -> Int {
        let error = writeError
        guard error == 0 else {
            if failOnce { writeError = 0 }
            return Int(error)
        }
        return device.write(data, frames: frames)
    }
    func delay(_ frames: inout Int) -> Int32 { device.delay(&frames) }
    func recover(_ code: Int32) -> Int32 { device.recover(code) }
    func prepare() -> Int32 { device.prepare() }
    func drain() { device.drain() }
    func drop() { device.drop() }
    func timestamps() -> (monotonic: Int64, realtime: Int64) { device.timestamps() }
}
