// The package's own include path and defines, instead of kissfft-float.pc's Cflags: SwiftPM refuses `-D` flags from
// pkg-config and warned on every build. Float scalars and the shared library's symbols, as the .pc sets them.
#define kiss_fft_scalar float
#define KISS_FFT_SHARED
#include <kissfft/kiss_fft.h>
#include <kissfft/kiss_fftr.h>
