import AudioCore
import AudioDevice
import Testing

@Suite struct OutputConfigTests {
    @Test func defaultsSuitATimer() throws {
        let c = OutputConfig()
        #expect(c.device == "default")
        #expect(c.periodFrames == 2048 && c.bufferFrames == 8192)
        #expect(c.sampleRate == .hz48000 && c.channels == .stereo)
        try c.validate()
    }

    @Test(arguments: [
        (1000, 8192, "period 1000 frames"), (2048, 3000, "buffer 3000 frames"), (2048, 2048, "at least two periods"),
        (8, 64, "period 8 frames"),
    ])
    func sizesMustBePowersOfTwo(period: Int, buffer: Int, message: String) {
        var c = OutputConfig()
        c.periodFrames = period
        c.bufferFrames = buffer
        #expect(throws: EnsoError.self) { try c.validate() }
        do {
            try c.validate()
        } catch {
            #expect(error.kind == .invalidInput)
            #expect(error.message.contains(message))
        }
    }

    @Test func priorityAndFormatsAreChecked() {
        var c = OutputConfig()
        c.realtimePriority = 120
        #expect(throws: EnsoError.self) { try c.validate() }
        c = OutputConfig()
        c.formats = []
        #expect(throws: EnsoError.self) { try c.validate() }
    }
}
