import AudioCore

/// A cue point (a named marker) in frames.
public struct CuePoint: Hashable, Sendable, Codable {
    public var id: Int32
    public var position: FramePosition
    public var name: String

    public init(id: Int32, position: FramePosition, name: String = "") {
        self.id = id
        self.position = position
        self.name = name
    }
}

/// What a file's header says: container, encoding, rate, channels, length, loops and cues.
public struct AudioFileInfo: Sendable, Equatable {
    /// The container, for example "WAV", "FLAC", "OGG".
    public var format: String
    /// The encoding, for example "PCM_16", "VORBIS", "FLOAT".
    public var subtype: String
    public var sampleRate: SampleRate
    public var channels: ChannelCount
    /// The number of frames.
    public var frames: FrameCount
    /// Loop regions from the WAV `smpl` chunk or AIFF instrument loops.
    public var loops: [LoopRegion] = []
    /// Cue points.
    public var cues: [CuePoint] = []
    /// Loops in the header that were ignored, and why (an end not after its start).
    public var loopWarnings: [String] = []

    /// The length in seconds.
    public var duration: Double { sampleRate.seconds(frames: frames) }
}

/// A decoded file: its samples and what its header said.
public struct DecodedAudio: Sendable {
    public var buffer: AudioBuffer
    public var info: AudioFileInfo
    /// The stream ended or broke before its declared end, and `buffer` holds what decoded
    /// (``AudioFileDecoder/decodeTolerant(path:)`` only; ``AudioFileDecoder/decode(path:)`` refuses such a file).
    public var truncated: Bool = false
    /// For a truncated stream, the frames its header declared (``info``'s `frames` count what decoded); `nil`
    /// otherwise, and when the header states no length.
    public var declaredFrames: FrameCount?

    /// What a salvaged file lost, for a warning (`nil` when nothing was cut): the file, the frames kept and the
    /// frames declared, in words.
    public func salvageNote(file: String) -> String? {
        guard truncated else { return nil }
        let declared = declaredFrames.map { " of the \($0) its header declares" } ?? ""
        return
            "\(file): damaged: the stream breaks or ends early; kept the \(info.frames) frames that decode\(declared)"
    }
}
