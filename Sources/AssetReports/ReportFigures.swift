import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import Foundation

/// The figures the reports share, on ``ReportPlot`` axes: a log-frequency spectrogram, a min/max waveform (with
/// clipped runs and a cut end marked) and the clipped runs themselves.
///
/// - Thread safety: pure functions.
enum ReportFigures {
    /// The spectrogram of `mono` as an SVG: time across in seconds (sample 0 at `startSeconds`), frequency up on a
    /// log axis from `lowHz` to Nyquist with ticks at 1-2-5 × 10ⁿ Hz, `range` dB below the loudest cell.
    ///
    /// - Parameters:
    ///   - fftSize: a power of two; larger resolves low partials, smaller resolves time (1024 for a seam,
    ///     4096 for a bell at 48 kHz).
    ///   - columns, rows: the PNG's size (spectrum frames evenly spread over the signal, log-spaced bands).
    static func spectrogram(
        _ mono: [Float], sampleRate: Int, startSeconds: Double = 0, fftSize: Int = 1024, columns: Int = 360,
        rows: Int = 120, lowHz: Double = 40, range: Float = 70, markers: [ReportPlot.Marker] = [], title: String
    ) -> String {
        let size = fftSize
        guard mono.count >= size, columns > 1, rows > 1 else { return "" }
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        let hann = HannWindow.shared(size)
        let bins = size / 2 + 1
        let bands = logBands(bins: bins, sampleRate: sampleRate, rows: rows, lowHz: lowHz)
        var db = [Float](repeating: -200, count: columns * rows)
        var frame = [Float](repeating: 0, count: size)
        var power = [Float](repeating: 0, count: bins)
        for col in 0..<columns {
            let start = (mono.count - size) * col / (columns - 1)
            for i in 0..<size { frame[i] = mono[start + i] * hann[i] }
            frame.withUnsafeBufferPointer { f in
                power.withUnsafeMutableBufferPointer { p in fft.powerSpectrum(f.baseAddress!, into: p.baseAddress!) }
            }
            for (row, band) in bands.enumerated() {
                var s: Float = 0
                for k in band { s = max(s, power[k]) }
                db[row * columns + col] = 10 * log10(max(s, 1e-20))
            }
        }
        return spectrogramPlot(
            db, columns: columns, rows: rows, frameSize: size, signalFrames: mono.count, sampleRate: sampleRate,
            startSeconds: startSeconds, lowHz: lowHz, range: range, markers: markers, title: title)
    }

    /// The spectra a bell was analysed with (its ``Spectrogram``, frame `k` centred on sample `k · hop`) drawn as
    /// ``spectrogram(_:sampleRate:startSeconds:fftSize:columns:rows:lowHz:range:markers:title:)`` draws a signal:
    /// each column shows the frame nearest the middle of the frame that function would transform there, so the
    /// report's picture costs no transform of its own.
    ///
    /// - Parameters:
    ///   - signalFrames: the length of the signal drawn in samples.
    ///   - startFrame: the sample of that signal frame 0 is centred on (the analysis started there, after silence
    ///     the file begins with: ``BellAnalysis/soundStart``); a column before the spectra's first frame's half hop
    ///     is that silence.
    static func spectrogram(
        _ s: Spectrogram, signalFrames: Int, startFrame: Int = 0, sampleRate: Int, columns: Int = 360, rows: Int = 120,
        lowHz: Double = 40, range: Float = 70, title: String
    ) -> String {
        let size = s.size
        guard signalFrames >= size, s.frameCount > 0, columns > 1, rows > 1 else { return "" }
        let bins = s.binCount
        let bands = logBands(bins: bins, sampleRate: sampleRate, rows: rows, lowHz: lowHz)
        let hop = max(1, size / 2)
        var db = [Float](repeating: -200, count: columns * rows)
        s.power.withUnsafeBufferPointer { power in
            for col in 0..<columns {
                let middle = (signalFrames - size) * col / (columns - 1) + size / 2 - startFrame
                guard middle + hop / 2 >= 0 else { continue }
                let k = min(s.frameCount - 1, (middle + hop / 2) / hop)
                let frame = UnsafeBufferPointer(rebasing: power[(k * bins)..<((k + 1) * bins)])
                for (row, band) in bands.enumerated() {
                    db[row * columns + col] = 10 * log10(max(loudest(frame, band), 1e-20))
                }
            }
        }
        return spectrogramPlot(
            db, columns: columns, rows: rows, frameSize: size, signalFrames: signalFrames, sampleRate: sampleRate,
            startSeconds: 0, lowHz: lowHz, range: range, markers: [], title: title)
    }

    /// The largest of `power[band]`, 0 when none is larger: eight bins at a time (the wide bands near Nyquist hold
    /// hundreds). Maxima are exact in any order, so this is the value bin by bin; a NaN never wins (it compares
    /// false), as in a comparison bin by bin.
    static func loudest(_ power: UnsafeBufferPointer<Float>, _ band: Range<Int>) -> Float {
        precondition(band.lowerBound >= 0 && band.upperBound <= power.count, "band outside the spectrum")
        guard let base = power.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var lanes = SIMD8<Float>(repeating: 0)
        var b = band.lowerBound
        while b &+ 8 <= band.upperBound {
            lanes = SIMDLanes.max(lanes, raw.loadUnaligned(fromByteOffset: b &* 4, as: SIMD8<Float>.self))
            b &+= 8
        }
        var v: Float = 0
        for j in 0..<8 where lanes[j] > v { v = lanes[j] }
        while b < band.upperBound {
            let p = base[b]
            v = p > v ? p : v
            b &+= 1
        }
        return v
    }

    /// The bins of each of `rows` log-spaced bands from `lowHz` to Nyquist, row 0 (the top) the highest; each row
    /// takes its loudest bin.
    static func logBands(bins: Int, sampleRate: Int, rows: Int, lowHz: Double) -> [Range<Int>] {
        let nyquist = Double(sampleRate) / 2
        return (0..<rows).map { row in
            let f0 = lowHz * pow(nyquist / lowHz, Double(rows - 1 - row) / Double(rows))
            let f1 = lowHz * pow(nyquist / lowHz, Double(rows - row) / Double(rows))
            let b0 = min(bins - 1, Int((f0 / nyquist * Double(bins - 1)).rounded()))
            let b1 = min(bins, max(b0 + 1, Int((f1 / nyquist * Double(bins - 1)).rounded())))
            return b0..<b1
        }
    }

    /// Band levels in dB (`rows × columns`, row 0 at the top) as a PNG on time and log-frequency axes, `range` dB
    /// below the loudest cell.
    static func spectrogramPlot(
        _ db: [Float], columns: Int, rows: Int, frameSize size: Int, signalFrames: Int, sampleRate: Int,
        startSeconds: Double, lowHz: Double, range: Float, markers: [ReportPlot.Marker], title: String
    ) -> String {
        let loudest = db.max() ?? -200
        // 32 shades (steps of 2.2 dB over 70 dB): as many as the eye tells apart on the palette, and a third of the
        // PNG's bytes of 256 shades (a report holds one spectrogram per file).
        let pixels = db.map { v -> UInt8 in UInt8(max(0, min(255, (v - (loudest - range)) / range * 255))) & 0xF8 }
        let png = Data(LoopReport.PNG.encode(width: columns, height: rows, pixels: pixels, palette: LoopReport.palette))
        // Column c is centred on its frame's middle: the image spans half a frame in from each end.
        let rate = Double(sampleRate)
        let nyquist = rate / 2
        let half = Double(size / 2) / rate
        let t0 = startSeconds + half
        let t1 = startSeconds + Double(signalFrames) / rate - half
        let whole = startSeconds...(startSeconds + Double(signalFrames) / rate)
        var plot = ReportPlot(
            x: .init(t0...t1, label: startSeconds < 0 ? "s from the seam" : "s", ticks: ReportPlot.ticks(whole)),
            y: .init(lowHz...nyquist, label: "Hz", log: true))
        plot.imagePNG = png.base64EncodedString()
        plot.markers = markers
        plot.description = "spectrogram, log frequency \(Int(lowHz)) Hz to \(Int(nyquist)) Hz"
        return plot.svg(title: title)
    }

    /// Min/max of `mono` per column over `frames`, as x (seconds, sample 0 at `startSeconds`), low and high.
    static func envelope(
        _ mono: [Float], frames: Range<Int>, sampleRate: Int, startSeconds: Double = 0, columns: Int = 400
    ) -> (band: ReportPlot.Band, peak: Float) {
        var xs: [Double] = []
        var lows: [Double] = []
        var highs: [Double] = []
        var peak: Float = 0
        let count = frames.count
        for c in 0..<columns {
            let a = frames.lowerBound + c * count / columns
            let b = max(a + 1, frames.lowerBound + (c + 1) * count / columns)
            let (mn, mx) = mono.withUnsafeBufferPointer { extremes($0, a..<min(b, frames.upperBound)) }
            peak = max(peak, max(-mn, mx))
            xs.append(startSeconds + Double(a) / Double(sampleRate))
            lows.append(Double(mn))
            highs.append(Double(mx))
        }
        return (ReportPlot.Band(x: xs, low: lows, high: highs, style: "s0"), peak)
    }

    /// The lowest and the highest of `x[range]` and 0 (a column's span of the waveform), eight samples at a time:
    /// minima and maxima are exact in any order, and a lane only takes a value strictly past its own (so −0 never
    /// replaces 0 and a NaN never wins), as the comparisons sample by sample did.
    static func extremes(_ x: UnsafeBufferPointer<Float>, _ range: Range<Int>) -> (low: Float, high: Float) {
        precondition(range.lowerBound >= 0 && range.upperBound <= x.count, "range outside the signal")
        guard let base = x.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        var lows = SIMD8<Float>(repeating: 0)
        var highs = SIMD8<Float>(repeating: 0)
        var i = range.lowerBound
        while i &+ 8 <= range.upperBound {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            lows = lows.replacing(with: v, where: v .< lows)
            highs = highs.replacing(with: v, where: v .> highs)
            i &+= 8
        }
        var low: Float = 0
        var high: Float = 0
        for j in 0..<8 {
            low = lows[j] < low ? lows[j] : low
            high = highs[j] > high ? highs[j] : high
        }
        while i < range.upperBound {
            let v = base[i]
            low = v < low ? v : low
            high = v > high ? v : high
            i &+= 1
        }
        return (low, high)
    }

    /// Columns of a card's waveform and spectrogram: one per two and a half pixels of the figure's 496-pixel plot
    /// area. An envelope or a spectrum that fine shows every clipped run, cut end and partial the card speaks of;
    /// finer only adds bytes to the page (300 cards hold 600 of these figures).
    static let figureColumns = 200

    /// A bell's waveform (clipped runs shaded, a cut end marked with `cutLevel` dB when the tail is cut) and its
    /// spectrogram: the two figures every bell card shows, in the bell and the assets reports alike.
    ///
    /// - Parameters:
    ///   - spectrogram: the spectra the bell was analysed with (``BellAnalysis/spectrogram``); without them (a file
    ///     the audition could not measure) the waveform alone.
    ///   - soundStart: the frames of `buffer` before the spectra's first (``BellAnalysis/soundStart``).
    ///   - clipped: whether the file has clipped runs to find (the audition counted them: a file without any is not
    ///     searched again).
    ///   - mono: the buffer's mono mix, when the caller has it already.
    static func bellFigures(
        _ buffer: AudioBuffer, spectrogram: Spectrogram?, soundStart: Int = 0, cutLevel: Double?, clipped: Bool = true,
        mono: [Float]? = nil
    ) -> [String] {
        let wave = waveform(
            buffer, clipped: clipped ? clippedRuns(buffer) : [],
            cutEnd: cutLevel.map { "cut at \(ReportPage.number($0, digits: 0)) dB" }, title: "waveform", mono: mono)
        guard let spectrogram else { return [wave] }
        return [
            wave,
            Self.spectrogram(
                spectrogram, signalFrames: buffer.frameCount, startFrame: soundStart,
                sampleRate: buffer.sampleRate.hertz, columns: figureColumns, title: "spectrogram, 70 dB range"),
        ]
    }

    /// The whole waveform on a −1…1 axis (full scale drawn), the clipped runs shaded and labelled, and the end
    /// marked when `cutEnd` says the file stops the sound (e.g. "cut at −15 dB").
    static func waveform(
        _ buffer: AudioBuffer, clipped: [Range<Int>], cutEnd: String?, title: String, mono: [Float]? = nil
    ) -> String {
        let mono = mono ?? buffer.finiteMonoMix()
        guard !mono.isEmpty else { return "" }
        let rate = buffer.sampleRate.hertz
        let seconds = Double(mono.count) / Double(rate)
        var plot = ReportPlot(
            x: .init(0...seconds, label: "s"), y: .init(-1...1, label: "amplitude", ticks: [-1, -0.5, 0, 0.5, 1]))
        plot.bands = [envelope(mono, frames: 0..<mono.count, sampleRate: rate, columns: figureColumns).band]
        plot.references = [-1, 1]
        // Runs closer than a pixel column would draw one on another: merge them first.
        let column = max(1, mono.count / figureColumns)
        var spans: [Range<Int>] = []
        for r in clipped.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = spans.last, r.lowerBound - last.upperBound < 2 * column {
                spans[spans.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                spans.append(r)
            }
        }
        for (i, s) in spans.enumerated() {
            plot.markers.append(
                .init(
                    x: Double(s.lowerBound) / Double(rate), to: Double(s.upperBound) / Double(rate),
                    label: i == 0 ? "clipped ×\(clipped.count)" : nil))
        }
        if let cutEnd { plot.markers.append(.init(x: seconds, label: cutEnd)) }
        plot.description = "waveform" + (clipped.isEmpty ? "" : ", \(clipped.count) clipped runs marked")
        return plot.svg(title: title)
    }

    /// Runs of at least ``SignalDefectScan/minimumRun`` consecutive samples on a rail (|x| ≥
    /// ``SignalDefectScan/fullScale``, or on the rails ``ClipRails`` finds below full scale in a file clipped and then
    /// turned down; one sign) in any channel, as frame ranges: the rule of the audition's `clipping` defect.
    static func clippedRuns(_ buffer: AudioBuffer) -> [Range<Int>] {
        let rails = SignalDefectScan(buffer).rails
        let runs = (0..<buffer.channels).flatMap { ClippedTops.runs(Array(buffer.channel($0)), rails: rails) }
        return runs.sorted { $0.lowerBound < $1.lowerBound }
    }
}
