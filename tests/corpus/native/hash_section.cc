// Section "hash": RocksDB's 64- and 32-bit hashes, CRC-32C and xxHash, computed by RocksDB 7.8.3
// itself. These functions are not in its public headers but librocksdb exports them, so they are
// declared here with the signatures of RocksDB util/hash.h, util/crc32c.h and util/xxhash.h
// (bundled with the XXH_NAMESPACE prefix ROCKSDB_). LevelDB's 32-bit hash is not exported by
// libleveldb; the LevelDB filter cases check it through the filters it shapes.
#include <cstddef>
#include <cstdint>

#include "sections.h"

namespace rocksdb {
uint64_t Hash64(const char* data, size_t n, uint64_t seed);
uint64_t Hash64(const char* data, size_t n);
uint32_t Hash(const char* data, size_t n, uint32_t seed);
namespace crc32c {
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
}  // namespace crc32c
}  // namespace rocksdb

extern "C" {
uint32_t ROCKSDB_XXH32(const void* input, size_t length, uint32_t seed);
uint64_t ROCKSDB_XXH64(const void* input, size_t length, uint64_t seed);
uint64_t ROCKSDB_XXH3_64bits(const void* input, size_t length);
}

namespace corpus {
namespace {

std::string HexWord(uint64_t v, int digits) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(digits, '0');
  for (int i = digits - 1; i >= 0; --i, v >>= 4) out[i] = kDigits[v & 15];
  return out;
}

// A seed as the manifests key it: "0x" and lowercase hex without leading zeros.
std::string SeedKey(uint64_t seed) {
  std::string digits = HexWord(seed, 16);
  const size_t first = digits.find_first_not_of('0');
  return "0x" + (first == std::string::npos ? "0" : digits.substr(first));
}

KeyList HashInputs() {
  Random rng(0x6a617368);
  KeyList inputs;
  auto random_bytes = [&](size_t n) {
    Key k(n, '\0');
    for (auto& c : k) c = char(rng.Next() >> 56);
    return k;
  };
  // Every length to 300 covers each tail length of every hash's 4-, 8-, 16- and 32-byte loops.
  for (size_t n = 0; n <= 300; ++n) inputs.push_back(random_bytes(n));
  for (size_t n : {384, 512, 768, 1000, 1024, 1500, 2048, 3000, 4096}) {
    inputs.push_back(random_bytes(n));
  }
  for (char byte : {'\0', '\x7f', '\x80', '\xff'}) inputs.push_back(Key(33, byte));
  inputs.push_back(Key(240, '\xff'));
  inputs.push_back(Key(241, '\x80'));
  return inputs;
}

}  // namespace

nlohmann::json HashSection(const CorpusRoot& root) {
  const KeyList inputs = HashInputs();
  const std::string inputs_path = root.WriteKeys("hash/inputs.keys", inputs);
  const uint64_t seeds64[] = {0, 1, 0xbc9f1d34, 0x0123456789abcdefULL, ~uint64_t{0}};
  const uint32_t seeds32[] = {0, 1, 0xbc9f1d34, 0xffffffffu};
  nlohmann::json vectors = nlohmann::json::array();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Key& in = inputs[i];
    nlohmann::json v = {{"index", i}, {"len", in.size()}, {"input_hex", Hex(in)}};
    for (uint64_t seed : seeds64) {
      v["rocksdb_hash64"][SeedKey(seed)] = HexWord(rocksdb::Hash64(in.data(), in.size(), seed), 16);
    }
    v["rocksdb_hash64_unseeded"] = HexWord(rocksdb::Hash64(in.data(), in.size()), 16);
    for (uint32_t seed : seeds32) {
      v["rocksdb_hash32"][SeedKey(seed)] = HexWord(rocksdb::Hash(in.data(), in.size(), seed), 8);
    }
    const uint32_t crc = rocksdb::crc32c::Extend(0, in.data(), in.size());
    v["crc32c"] = HexWord(crc, 8);
    // The mask of RocksDB util/crc32c.h (and LevelDB's), applied to stored block checksums.
    v["crc32c_masked"] = HexWord(uint32_t(((crc >> 15) | (crc << 17)) + 0xa282ead8u), 8);
    v["xxh32"]["0x0"] = HexWord(ROCKSDB_XXH32(in.data(), in.size(), 0), 8);
    v["xxh64"]["0x0"] = HexWord(ROCKSDB_XXH64(in.data(), in.size(), 0), 16);
    v["xxh3_64"]["0x0"] = HexWord(ROCKSDB_XXH3_64bits(in.data(), in.size()), 16);
    vectors.push_back(std::move(v));
  }
  nlohmann::json manifest = {
      {"format", "sstfilter-corpus/1"},
      {"section", "hash"},
      {"inputs", {{"path", inputs_path}, {"count", inputs.size()}}},
      {"vectors", std::move(vectors)},
  };
  root.WriteJson("hash/manifest.json", manifest);
  return {{"path", "hash/manifest.json"}, {"cases", inputs.size()}};
}

}  // namespace corpus
