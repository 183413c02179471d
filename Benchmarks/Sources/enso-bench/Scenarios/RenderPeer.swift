import Foundation

/// The plain C session mixer the render scenarios compare against: an ambient loop with linear fades,
/// bells added at their strike frames, gains, a hard clip, interleaved 1024-frame blocks, and optionally
/// `sf_writef_short` to a 16-bit WAV. Compiled by the harness (`cc -O2 -shared`) and loaded in-process.
enum RenderPeer {
    static let source = """
        #include <sndfile.h>
        #include <stdlib.h>
        #include <string.h>

        /* amb, bell: planar stereo. Returns a checksum (>= 0) or -1. */
        double enso_render_mix(const float *amb, long long ambFrames, const float *bell, long long bellFrames,
                               const long long *strikes, int nStrikes, long long total, long long fadeIn,
                               long long fadeOutStart, long long fadeOut, float ambGain, float bellGain,
                               int block, const char *wavPath) {
            float *l = malloc(sizeof(float) * block), *r = malloc(sizeof(float) * block);
            float *out = malloc(sizeof(float) * 2 * block);
            short *pcm = malloc(sizeof(short) * 2 * block);
            SNDFILE *f = NULL;
            if (wavPath) {
                SF_INFO info = {0};
                info.samplerate = 48000; info.channels = 2; info.format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
                f = sf_open(wavPath, SFM_WRITE, &info);
                if (!f) return -1;
            }
            double check = 0;
            long long pos = 0;
            for (long long start = 0; start < total; start += block) {
                int n = total - start < block ? (int)(total - start) : block;
                /* Ambient: copy runs up to the loop end, then wrap. */
                for (int i = 0; i < n;) {
                    int run = ambFrames - pos < n - i ? (int)(ambFrames - pos) : n - i;
                    for (int k = 0; k < run; k++) { l[i + k] = amb[pos + k] * ambGain; r[i + k] = amb[ambFrames + pos + k] * ambGain; }
                    i += run; pos += run;
                    if (pos == ambFrames) pos = 0;
                }
                /* Fades only where they apply. */
                if (start < fadeIn || start + n > fadeOutStart) {
                    for (int i = 0; i < n; i++) {
                        long long fr = start + i;
                        float g = 1;
                        if (fr < fadeIn) g = (float)fr / (float)fadeIn;
                        if (fr >= fadeOutStart) {
                            long long d = fr - fadeOutStart;
                            g *= d >= fadeOut ? 0.0f : 1.0f - (float)d / (float)fadeOut;
                        }
                        l[i] *= g; r[i] *= g;
                    }
                }
                for (int s = 0; s < nStrikes; s++) {
                    long long off = strikes[s];
                    if (off >= start + n || off + bellFrames <= start) continue;
                    int i0 = off > start ? (int)(off - start) : 0;
                    int i1 = off + bellFrames < start + n ? (int)(off + bellFrames - start) : n;
                    const float *bl = bell + (start - off), *br = bell + bellFrames + (start - off);
                    for (int i = i0; i < i1; i++) { l[i] += bl[i] * bellGain; r[i] += br[i] * bellGain; }
                }
                for (int i = 0; i < n; i++) {
                    float a = l[i] > 1 ? 1 : l[i] < -1 ? -1 : l[i];
                    float b = r[i] > 1 ? 1 : r[i] < -1 ? -1 : r[i];
                    out[2 * i] = a; out[2 * i + 1] = b;
                }
                if (f) {
                    for (int i = 0; i < 2 * n; i++) pcm[i] = (short)(out[i] * 32767.0f);
                    if (sf_writef_short(f, pcm, n) != n) { sf_close(f); return -1; }
                } else {
                    check += out[0];
                }
            }
            if (f) sf_close(f);
            free(l); free(r); free(out); free(pcm);
            return check < 0 ? -check : check;
        }
        """

    static let library = CompiledPeer(name: "enso-bench-render-peer", source: source, libraries: ["sndfile"])

    /// Writes and compiles the C source unless the same source was compiled before.
    static func build() throws { try library.build() }

    typealias MixFunction =
        @convention(c) (
            UnsafePointer<Float>, Int64, UnsafePointer<Float>, Int64, UnsafePointer<Int64>, Int32, Int64, Int64, Int64,
            Int64, Float, Float, Int32, UnsafePointer<CChar>?
        ) -> Double

    static func load() throws -> MixFunction { try library.function("enso_render_mix", as: MixFunction.self) }
}
