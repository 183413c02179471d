import AudioCore
import AudioFile

extension LoopVerifier {
    /// A loop given on the command line (`loops verify --loop START:END`): frames, or seconds with an `s` suffix.
    ///
    ///     LoopVerifier.LoopOption(parsing: "19166:76403")    // frames, end exclusive
    ///     LoopVerifier.LoopOption(parsing: "0.5s:2.25s")     // seconds, rounded to the nearest frame
    ///     LoopVerifier.LoopOption(parsing: "500ms:2s")       // milliseconds too
    public struct LoopOption: Sendable, Equatable {
        /// One end of the loop.
        public enum Bound: Sendable, Equatable {
            case frames(Int64)
            case seconds(Double)

            init?(_ text: Substring) {
                if text.hasSuffix("ms") {
                    guard let ms = Double(text.dropLast(2)), ms.isFinite, ms >= 0 else { return nil }
                    self = .seconds(ms / 1000)
                } else if text.hasSuffix("s") {
                    guard let s = Double(text.dropLast()), s.isFinite, s >= 0 else { return nil }
                    self = .seconds(s)
                } else {
                    guard let f = Int64(text), f >= 0 else { return nil }
                    self = .frames(f)
                }
            }

            func frames(at rate: Int) -> Int64 {
                switch self {
                case .frames(let f): return f
                case .seconds(let s): return Int64((s * Double(rate)).rounded())
                }
            }
        }

        public var start: Bound
        public var end: Bound

        /// Parses `START:END`; `nil` when either side is not a whole number of frames, a number of seconds ending in
        /// `s` or of milliseconds ending in `ms`.
        public init?(parsing text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let start = Bound(parts[0]), let end = Bound(parts[1]) else { return nil }
            self.start = start
            self.end = end
        }

        /// Why the loop is empty or ends before it starts, when both ends are in the same unit (a mixed
        /// `0.5s:24000` needs the file's rate, so it is checked against the file); `nil` when it is in order.
        public var misorder: String? {
            let ordered: Bool
            switch (start, end) {
            case (.frames(let a), .frames(let b)): ordered = a < b
            case (.seconds(let a), .seconds(let b)): ordered = a < b
            default: return nil
            }
            return ordered ? nil : "the loop ends before it starts, or where it starts: END must be after START"
        }

        /// The loop in frames at `rate`.
        public func region(sampleRate rate: Int) -> LoopRegion {
            LoopRegion(start: start.frames(at: rate), end: end.frames(at: rate))
        }
    }

    /// The region of `option` in the decoded file at `path`, checked as an embedded loop is.
    ///
    /// - Throws: `EnsoError` `.invalidInput` when it does not fit the audio or holds fewer than 2 frames.
    static func optionRegion(
        _ option: LoopOption, of decoded: DecodedAudio, path: String
    ) throws(EnsoError) -> LoopRegion {
        try optionRegion(
            option, frames: FrameCount(decoded.buffer.frameCount), rate: decoded.buffer.sampleRate, path: path)
    }

    /// The loop `--loop` gives in a file of `frames` frames at `rate`.
    ///
    /// - Throws: as ``optionRegion(_:of:path:)``.
    static func optionRegion(
        _ option: LoopOption, frames: FrameCount, rate: SampleRate, path: String
    ) throws(EnsoError) -> LoopRegion {
        let region = option.region(sampleRate: rate.hertz)
        guard region.start >= 0, region.end <= frames, region.start < region.end else {
            throw EnsoError(
                .invalidInput, "\(path): --loop \(region.start)..<\(region.end) does not fit in \(frames) frames")
        }
        guard region.length >= 2 else {
            throw EnsoError(.invalidInput, "\(path): --loop holds fewer than 2 frames")
        }
        return region
    }
}
