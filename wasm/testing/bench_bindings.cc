// What bench/wasm-bench.mjs measures inside wasm rather than through the API: the random-read
// floor, the cost of independent random 64-byte reads over a large buffer, against which a
// memory-resident probe is judged. Plain exports (see fast_paths.cc for why not Embind); a few
// hundred bytes in each module.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(SSTFILTER_HAVE_SIMD128)
#include <wasm_simd128.h>
#endif

extern "C" {

// Reads the 64-byte lines base + 64 * lines[i], i < n, each in the given shape, and returns a
// checksum of what it read (so the loads stay). Shapes: 0 one 8-byte load per line (the cheapest
// way to bring a line in), 1 eight 8-byte loads, 2 four 16-byte SIMD128 loads (the SIMD128
// module only; the scalar one answers shape 2 as shape 1). The addresses depend on nothing
// loaded, so the engine may overlap as many misses as the CPU tracks.
EMSCRIPTEN_KEEPALIVE uint32_t sstfilter_bench_random_reads(const uint8_t* base,
                                                           const uint32_t* lines, size_t n,
                                                           int shape) {
  uint64_t acc = 0;
  if (shape == 0) {
    for (size_t i = 0; i < n; ++i) {
      uint64_t word;
      std::memcpy(&word, base + size_t{lines[i]} * 64, 8);
      acc ^= word;
    }
    return static_cast<uint32_t>(acc ^ (acc >> 32));
  }
#if defined(SSTFILTER_HAVE_SIMD128)
  if (shape == 2) {
    v128_t vacc = wasm_i64x2_const_splat(0);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* line = base + size_t{lines[i]} * 64;
      vacc = wasm_v128_xor(
          vacc, wasm_v128_and(wasm_v128_and(wasm_v128_load(line), wasm_v128_load(line + 16)),
                              wasm_v128_and(wasm_v128_load(line + 32), wasm_v128_load(line + 48))));
    }
    return static_cast<uint32_t>(wasm_i32x4_extract_lane(vacc, 0));
  }
#endif
  for (size_t i = 0; i < n; ++i) {
    uint64_t words[8];
    std::memcpy(words, base + size_t{lines[i]} * 64, 64);
    acc ^= words[0] ^ words[1] ^ words[2] ^ words[3] ^ words[4] ^ words[5] ^ words[6] ^ words[7];
  }
  return static_cast<uint32_t>(acc ^ (acc >> 32));
}

}  // extern "C"
