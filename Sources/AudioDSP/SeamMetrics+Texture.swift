import AudioCore

extension SeamMetrics {
    /// ``measure(_:loop:goOn:)`` (every metric) and the file's texture signature (``LikenessSignature/texture(_:)``) from one set of
    /// short-time spectra where they are the same frames: when the loop is the whole file, each frame the spectral
    /// metric transforms is also summed into the signature's bands (``TextureSpectra``), so the signature costs no
    /// transform of its own (issue #42 §1). A loop inside the file (a sustain loop, a designer's loop points) is
    /// measured as ever, and the signature read from the whole file's own frames. The measures are the ones
    /// ``measure(_:loop:goOn:)`` gives and the signature the one ``LikenessSignature/texture(_:)`` gives, bit for bit.
    ///
    /// - Returns: the measures, and the signature (nil for a file silent under −60 dBFS or shorter than one frame).
    public static func measureWithTexture(
        _ buffer: AudioBuffer, loop: Range<Int>
    ) -> (measures: Measures, texture: LikenessSignature?) {
        let view = LoopView(checking: buffer, loop: loop)
        guard loop == 0..<buffer.frameCount else {
            var none: TextureSpectra?
            return (measure(view, goOn: { _ in true }, texture: &none), LikenessSignature.texture(buffer))
        }
        var texture: TextureSpectra? = view.mono.withUnsafeBufferPointer {
            TextureSpectra(mono: $0, sampleRate: view.sampleRate)
        }
        let measures = measure(view, goOn: { _ in true }, texture: &texture)
        // The whole file is the loop: its rhythm metric read the pulse whose beat the signature holds.
        let pulse = measures.pulseOfEvents ? measures.pulsePeriod.map { beatSeconds(view, period: $0) } : nil
        return (measures, LikenessSignature.texture(view, spectra: texture!, pulse: pulse))
    }

    /// The beat (seconds) of a pulse that events keep in `view` (the rhythm metric's), or nil.
    static func eventPulseSeconds(_ view: LoopView) -> Double? {
        let r = rhythm(view)
        return r.events ? r.period.map { beatSeconds(view, period: $0) } : nil
    }

    /// The beat (seconds) the events of `view` keep within its pulse `period` (``beatPeriod(_:period:sampleRate:)``).
    static func beatSeconds(_ view: LoopView, period: Int) -> Double {
        beatPeriod(view.mono, period: period, sampleRate: view.sampleRate) / Double(view.sampleRate)
    }
}

extension LikenessSignature {
    /// The texture signature of `buffer` (a near-duplicate is the same sound, wherever its loop points lie), read
    /// from its mono mix without its DC (``TextureSpectra``).
    ///
    /// - Returns: nil for a file silent under −60 dBFS (``OnsetAnalysis/silenceThreshold``) or shorter than one
    ///   spectral frame (about 21 ms: no band level to compare, and an empty signature would be near every sound).
    public static func texture(_ buffer: AudioBuffer) -> LikenessSignature? {
        guard buffer.frameCount >= 2 else { return nil }
        let view = LoopView(buffer: buffer, loop: 0..<buffer.frameCount)
        let spectra = view.mono.withUnsafeBufferPointer { TextureSpectra(mono: $0, sampleRate: view.sampleRate) }
        guard spectra.audible, spectra.frameLimit > 0 else { return nil }
        return texture(view, spectra: spectra, pulse: SeamMetrics.eventPulseSeconds(view))
    }

    /// The signature of `view` (the whole file) from `spectra`, reading its frames first when no metric has, with
    /// the `pulse` its events keep.
    static func texture(_ view: LoopView, spectra: TextureSpectra, pulse: Double?) -> LikenessSignature? {
        var spectra = spectra
        guard spectra.audible, spectra.frameLimit > 0 else { return nil }
        // The metrics read the frames within the loop (all of them, or none when they were skipped); the ones across
        // its end are read here.
        view.mono.withUnsafeBufferPointer { mono in
            if spectra.framesRead < spectra.frameLimit { spectra.measure(mono) } else { spectra.readRest(mono) }
        }
        var s = texture(spectra, duration: view.buffer.duration)
        s.pulse = pulse
        return s
    }
}
