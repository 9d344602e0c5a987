// The AVX2 FastLocalBloom kernel (fast_local_bloom_avx2.h holds its probe). Compiled with -mavx2
// and used only after the registry (bloom_kernels.cc) saw the CPU support AVX2.
#include "filter/kernels/fast_local_bloom_avx2.h"

#if defined(SSTFILTER_HAVE_AVX2)

namespace sstfilter::simd {
namespace {

bool ProbeBlock(uint32_t h2, int num_probes, const uint8_t* block) {
  return FastLocalBloomAvx2ProbeBlock(h2, num_probes, block);
}

}  // namespace

// Single keys and batches as BlockProbeKernel drives them, each key answered by ProbeBlock above.
const FastLocalBloomKernel kFastLocalBloomAvx2 = {"avx2", BlockProbeKernel<ProbeBlock>::MayMatch,
                                                  BlockProbeKernel<ProbeBlock>::MayMatchBatch};

}  // namespace sstfilter::simd

#endif  // SSTFILTER_HAVE_AVX2
