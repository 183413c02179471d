#include <kiss_fft.h>
#include <kiss_fftr.h>
