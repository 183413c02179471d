import Foundation

extension DecayAnalysis {
    /// How long a recording must hold its level before the sound for that level to be read as its floor (s): the
    /// tail's least span (``noiseFloor``).
    static let leadFloorSeconds = 0.3
    /// How far the level before the sound and the level at the end may differ and still be one floor (dB): half or
    /// twice its power.
    static let sameFloor = 3.0

    /// The median of envelope `values` (dB), the upper of the two middle ones for an even count: a floor's level.
    static func median(_ values: ArraySlice<Double>) -> Double { values.sorted()[values.count / 2] }

    /// The noise floor a recording holds before its sound (dBFS, the median of `db` there), when it ends on it too:
    /// what it holds where the sound is not, read where the tail after the sound is too short to tell (a notification
    /// over −45 dBFS of noise, 0.24 s of it after the sound; the tail read the end as a cut 34 dB down).
    ///
    /// The stretch before the sound is the file's opening until the envelope first rises ``sameFloor`` over the
    /// opening's 100 ms (a steady noise read in 10 ms windows stays within about 1 dB of its level; a sound rises far
    /// over it, and music or a voice moves by more at once). It is the floor when it lasts ``leadFloorSeconds`` or
    /// more, before the peak, steadily (its level moves less than ``steadyChange`` across it), as noise (under half of
    /// its power in partials, ``TonalityAnalysis/tonality(_:frames:)``), and the file's last 100 ms sit within
    /// ``sameFloor`` of it: the recording ends where it began, on its floor. Nil otherwise, and for digital silence.
    ///
    /// - Parameters:
    ///   - db: the envelope (dBFS), every `hop` seconds.
    ///   - peakIndex: the envelope peak's index.
    ///   - spectrogram: the spectra the tonality is read from, made only when the level asks for it.
    static func floorBeforeTheSound(
        _ db: [Double], peakIndex: Int, hop: Double, spectrogram: () -> Spectrogram
    ) -> Double? {
        let n = db.count
        func frames(_ seconds: Double) -> Int { values(seconds, hop: hop) }
        let short = frames(0.1)
        guard peakIndex > frames(leadFloorSeconds), n >= 2 * short else { return nil }
        let opening = median(db[0..<short])
        let rise = db[0..<peakIndex].firstIndex { $0 > opening + sameFloor } ?? peakIndex
        guard rise >= frames(leadFloorSeconds), opening > -120, abs(median(db[(n - short)..<n]) - opening) <= sameFloor
        else { return nil }
        let lead = Array(db[0..<rise])
        guard abs(slope(lead, hop: hop)) * Double(rise) * hop <= steadyChange else { return nil }
        let spec = spectrogram()
        let last = min(spec.frameCount, Int(Double(rise) * hop / spec.hopSeconds))
        guard last > 1, let tonality = TonalityAnalysis.tonality(spec, frames: 0..<last),
            tonality < TonalityAnalysis.tonalShare
        else { return nil }
        return median(lead[...])
    }
}
