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
        return (measures, LikenessSignature.texture(view, spectra: texture!))
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
        return texture(view, spectra: spectra)
    }

    /// The signature of `view` (the whole file) from `spectra`, reading its frames first when no metric has.
    static func texture(_ view: LoopView, spectra: TextureSpectra) -> LikenessSignature? {
        var spectra = spectra
        guard spectra.audible, spectra.frameLimit > 0 else { return nil }
        if !spectra.isComplete { view.mono.withUnsafeBufferPointer { spectra.measure($0) } }
        return texture(spectra, duration: view.buffer.duration)
    }
}
