// Emscripten 3.1.6's memcpy (system/lib/libc/emscripten_memcpy.c) copies one byte at a time when
// the two addresses differ in alignment mod 4, as a literal's source and target in a Snappy block
// or a key's bytes in a block seldom share it. WebAssembly loads and stores take any address, so
// this one copies 16 bytes (SIMD128) or 8 bytes at a time whatever the alignment. Linked as an
// object into each module, it takes the place of the C library's.
#include <cstddef>
#include <cstdint>
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace {
struct __attribute__((packed, may_alias)) Unaligned64 {
  uint64_t value;
};
struct __attribute__((packed, may_alias)) Unaligned32 {
  uint32_t value;
};
inline void Copy8(unsigned char* d, const unsigned char* s) {
  reinterpret_cast<Unaligned64*>(d)->value = reinterpret_cast<const Unaligned64*>(s)->value;
}
inline void Copy4(unsigned char* d, const unsigned char* s) {
  reinterpret_cast<Unaligned32*>(d)->value = reinterpret_cast<const Unaligned32*>(s)->value;
}
}  // namespace

extern "C" __attribute__((no_builtin("memcpy"))) void* memcpy(void* __restrict dest,
                                                              const void* __restrict src,
                                                              size_t n) {
  auto* d = static_cast<unsigned char*>(dest);
  const auto* s = static_cast<const unsigned char*>(src);
#ifdef __wasm_simd128__
  for (; n >= 16; n -= 16, d += 16, s += 16) wasm_v128_store(d, wasm_v128_load(s));
#else
  for (; n >= 16; n -= 16, d += 16, s += 16) {
    Copy8(d, s);
    Copy8(d + 8, s + 8);
  }
#endif
  // Fewer than 16 left: two copies that may overlap each other cover the rest.
  if (n >= 8) {
    Copy8(d, s);
    Copy8(d + n - 8, s + n - 8);
  } else if (n >= 4) {
    Copy4(d, s);
    Copy4(d + n - 4, s + n - 4);
  } else {
    for (; n > 0; --n) *d++ = *s++;
  }
  return dest;
}
