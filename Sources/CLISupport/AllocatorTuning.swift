/// Process-wide allocator settings for batch analysis.
///
/// Decoding and measuring a file allocates and frees buffers of several megabytes. glibc serves blocks above its
/// mmap threshold (128 KiB, rising only as such blocks are freed) with fresh `mmap`s and returns freed heap tops
/// to the kernel, so every file faults its pages in again (about 10 % of `enso loops verify`'s time went to page
/// faults). Raising the mmap threshold to 32 MiB (glibc's ceiling) and the trim threshold to 256 MiB keeps freed
/// buffers in the process for the next file: the batch commands (`bells audition`, `loops verify|find`,
/// `assets check`) hold a file's worth of buffers more (peak RSS of 200 loop verifications 114 → 123 MiB).
/// Long-running commands (`play`, `serve`) keep glibc's defaults.
public enum AllocatorTuning {
    /// Applies the settings (process-wide; glibc takes its own lock, so any thread may call it).
    public static func forBatchWork() {
        _ = glibc_mallopt(mmapThreshold, 32 << 20)
        _ = glibc_mallopt(trimThreshold, 256 << 20)
    }

    /// `M_MMAP_THRESHOLD` and `M_TRIM_THRESHOLD` from glibc's `<malloc.h>` (not exported by the Glibc module).
    static let mmapThreshold: Int32 = -3
    static let trimThreshold: Int32 = -1
}

/// glibc's `int mallopt(int param, int value)`; `<malloc.h>` is not part of the Glibc module, so it is bound by name.
@_silgen_name("mallopt")
private func glibc_mallopt(_ param: Int32, _ value: Int32) -> Int32
