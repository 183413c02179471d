import Foundation

/// The plain C peers: libsndfile and libsamplerate called directly, compiled by the harness at run
/// time (`cc -O2 -shared`) and loaded into the measuring process, so both sides run in-process.
enum CPeer {
    static let source = """
        #include <sndfile.h>
        #include <samplerate.h>
        #include <stdlib.h>

        /* Decode a whole file into one interleaved buffer, 16384 frames per sf_readf_float call. */
        long long enso_peer_decode(const char *path) {
            SF_INFO info = {0};
            SNDFILE *f = sf_open(path, SFM_READ, &info);
            if (!f) return -1;
            float *out = malloc(sizeof(float) * (size_t)info.frames * (size_t)info.channels);
            sf_count_t total = 0, n;
            while (total < info.frames) {
                sf_count_t want = info.frames - total < 16384 ? info.frames - total : 16384;
                n = sf_readf_float(f, out + total * info.channels, want);
                if (n <= 0) break;
                total += n;
            }
            sf_close(f);
            volatile float sink = total > 0 ? out[0] : 0.0f;
            (void)sink;
            free(out);
            return total;
        }

        /* Convert interleaved input, 4096 input frames per src_process call (libsamplerate is faster on
           short calls than on one call over everything), then drain with end_of_input, into a new buffer. */
        long enso_peer_resample(const float *in, long frames, int channels, double ratio, int converter) {
            long cap = (long)(frames * ratio) + 256;
            float *out = malloc(sizeof(float) * (size_t)cap * (size_t)channels);
            int err = 0;
            SRC_STATE *s = src_new(converter, channels, &err);
            if (!s) { free(out); return -1; }
            SRC_DATA d = {0};
            d.src_ratio = ratio;
            long used = 0, total = 0;
            for (;;) {
                long n = frames - used < 4096 ? frames - used : 4096;
                d.data_in = in + used * channels; d.input_frames = n;
                d.data_out = out + total * channels; d.output_frames = cap - total;
                d.end_of_input = n == 0;
                if (src_process(s, &d) != 0) { total = -1; break; }
                used += d.input_frames_used;
                total += d.output_frames_gen;
                if (n == 0 && d.output_frames_gen == 0) break;
                if (total >= cap) break;
            }
            src_delete(s);
            volatile float sink = out[0];
            (void)sink;
            free(out);
            return total;
        }
        """

    static let library = CompiledPeer(name: "enso-bench-peer", source: source, libraries: ["sndfile", "samplerate"])

    /// Writes the C source and compiles it, unless the same source was compiled before.
    static func build() throws { try library.build() }

    typealias DecodeFunction = @convention(c) (UnsafePointer<CChar>) -> Int64
    typealias ResampleFunction = @convention(c) (UnsafePointer<Float>, Int, Int32, Double, Int32) -> Int

    /// The compiled functions, loaded into this process.
    static func load() throws -> (decode: DecodeFunction, resample: ResampleFunction) {
        (
            try library.function("enso_peer_decode", as: DecodeFunction.self),
            try library.function("enso_peer_resample", as: ResampleFunction.self)
        )
    }
}
