import CKissFFT
import Glibc

// All calls into KissFFT go through this file: one thin function per C function.

typealias KissRealConfig = kiss_fftr_cfg

@inline(__always)
func system_kiss_fftr_alloc(_ n: Int32, inverse: Bool) -> KissRealConfig? {
    kiss_fftr_alloc(n, inverse ? 1 : 0, nil, nil)
}

@inline(__always)
func system_kiss_fftr(_ cfg: KissRealConfig, _ time: UnsafePointer<Float>, _ freq: UnsafeMutablePointer<kiss_fft_cpx>) {
    TransformCount.current?.add()
    kiss_fftr(cfg, time, freq)
}

@inline(__always)
func system_kiss_fftri(_ cfg: KissRealConfig, _ freq: UnsafePointer<kiss_fft_cpx>, _ time: UnsafeMutablePointer<Float>)
{
    kiss_fftri(cfg, freq, time)
}

/// `kiss_fftr_free` is a macro for `free` (KISS_FFT_FREE), which does not import; call `free` directly.
@inline(__always)
func system_kiss_fftr_free(_ cfg: KissRealConfig) {
    free(UnsafeMutableRawPointer(cfg))
}
