import AudioCore
import AudioFile

/// `enso loops verify` of a long file: judged from the window around its seam (``SeamWindow``), read once,
/// with memory bounded by the window, not the file.
extension LoopVerifier {
    /// A file longer than this, in seconds, is judged from the window around its seam instead of decoded whole:
    /// 2 min, the length past which the player streams a theme and judges its seam from the same window
    /// (`AmbientStreaming.loadLimitSeconds`, AssetLoading; a test keeps the two equal), so `verify` gives the
    /// verdict the player acts on. Past it a whole decode grows with the length (an hour of stereo 48 kHz is
    /// 1.4 GB of samples, past the decode limit) while the window does not; a loop of up to 20 s in a longer file
    /// (a long intro) is still judged whole, with the same figures.
    public static let windowAboveSeconds = 120.0

    /// Verifies one file from the window around its seam: its loop found from the header or sidecar (or `--loop`),
    /// the window read (``SeamWindow/read(path:loop:sideSeconds:foldingToStereo:)``, channels kept) and judged as
    /// a decoded file is. Never throws: a file that cannot be read gives a row with verdict `error`.
    ///
    /// `verify(path:keepExcerpt:loopOption:)` calls it for files longer than ``windowAboveSeconds``; tests call it
    /// on short files, whose rows must equal the whole decode's.
    ///
    /// - Parameter sideSeconds: the window's side (``SeamWindow/sideSeconds``; tests lower it).
    public static func verifyWindow(
        path: String, keepExcerpt: Bool = false, loopOption: LoopOption? = nil,
        sideSeconds: Double = SeamWindow.sideSeconds
    ) -> Result {
        let window: SeamWindow
        let source: LoopSource
        do {
            let info = try AudioFileDecoder.info(path: path)
            var (region, found) = try loopRegion(info: info, frames: info.frames, path: path)
            if let loopOption {
                (region, found) = (
                    try optionRegion(loopOption, frames: info.frames, rate: info.sampleRate, path: path), .option
                )
            }
            source = found
            window = try SeamWindow.read(path: path, loop: region, sideSeconds: sideSeconds, foldingToStereo: false)
        } catch {
            return Result(file: path, failure: error.message, kind: error.name)
        }
        var result = judged(
            window.buffer, loop: window.loop, fileLoop: window.fileLoop, source: source, path: path,
            keepExcerpt: keepExcerpt)
        if let note = windowNote(window) { result.reasons.append(note) }
        return result
    }

    /// What a verdict read from `window` says of it, when the window does not hold the whole loop.
    static func windowNote(_ window: SeamWindow) -> String? {
        guard !window.holdsWholeLoop else { return nil }
        let seconds = Double(window.loop.length) / window.buffer.sampleRate.double
        return "judged from the \(String(format: "%.0f", seconds)) s around the seam (the loop's head and tail): "
            + "the loop is too long to decode whole"
    }
}
