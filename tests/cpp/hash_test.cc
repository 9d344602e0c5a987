// Hash and checksum functions of sstfilter/hash.h against (1) every vector of the golden corpus
// section `hash` (values produced by librocksdb 7.8.3, libleveldb 1.23 and libxxhash 0.8.1) and
// (2) the upstream unit-test vectors transcribed in docs/FORMATS.md section 4.

#include "sstfilter/hash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "base/hash_internal.h"
#include "golden.h"

namespace sstfilter {
namespace {

// ---------------------------------------------------------------------------------------------
// Golden corpus

struct HashCorpus {
  std::string name;
  nlohmann::json manifest;
  std::vector<std::vector<uint8_t>> inputs;
};

// Every corpus's hash section, loaded once; a missing generated corpus throws (naming the path
// tried), which fails every golden test.
const std::vector<HashCorpus>& Corpora() {
  static const std::vector<HashCorpus> corpora = [] {
    std::vector<HashCorpus> out;
    for (const auto& [corpus, manifest] : golden::Sections("hash")) {
      HashCorpus c{corpus->name, manifest, {}};
      c.inputs = corpus->ReadKeys(c.manifest.at("inputs"));
      out.push_back(std::move(c));
    }
    return out;
  }();
  return corpora;
}

size_t g_golden_values_checked = 0;

// Prints the total after all tests, so a run shows how much of the corpora it actually compared.
class GoldenHashSummary : public ::testing::Environment {
 public:
  void TearDown() override {
    if (g_golden_values_checked == 0) return;
    std::cout << "[ golden   ] hash: " << g_golden_values_checked << " values compared ("
              << golden::CorporaSummary() << ")\n";
  }
};
[[maybe_unused]] ::testing::Environment* const kGoldenHashSummary =
    ::testing::AddGlobalTestEnvironment(new GoldenHashSummary);

// Compares fn(input, seed) with every "seed -> value" entry of `field` of every vector of every
// corpus that records `field`; fails when no corpus does, or one recorded it for fewer values
// than it has inputs. `digits` is 8 for 32-bit functions and 16 for 64-bit ones; seeds above
// `max_seed` (which a 32-bit function cannot take) fail the test rather than being truncated.
template <typename Fn>
void ExpectSeededGolden(const std::string& field, int digits, uint64_t max_seed, Fn fn) {
  size_t corpora = 0;
  for (const HashCorpus& c : Corpora()) {
    const nlohmann::json& vectors = c.manifest.at("vectors");
    if (vectors.empty() || !vectors[0].contains(field)) continue;
    ++corpora;
    size_t checked = 0;
    for (const nlohmann::json& v : vectors) {
      const size_t index = v.at("index").get<size_t>();
      const std::vector<uint8_t>& input = c.inputs.at(index);
      const nlohmann::json& by_seed = v.at(field);
      const auto check = [&](const std::string& seed_hex, const nlohmann::json& expected) {
        const uint64_t seed = seed_hex.empty() ? 0 : golden::ParseHexU64(seed_hex);
        EXPECT_LE(seed, max_seed) << c.name << " vector " << index << " " << field << " seed "
                                  << seed_hex;
        EXPECT_EQ(expected.get<std::string>(), golden::FormatHex(fn(ByteView(input), seed), digits))
            << c.name << " vector " << index << " (len " << input.size() << ") " << field
            << " seed " << seed_hex;
        ++checked;
      };
      if (by_seed.is_string()) {
        check("", by_seed);  // an unseeded function
      } else {
        for (auto it = by_seed.begin(); it != by_seed.end(); ++it) check(it.key(), it.value());
      }
    }
    g_golden_values_checked += checked;
    std::cout << "[ golden   ] " << c.name << " " << field << ": " << checked << " values over "
              << c.inputs.size() << " vectors\n";
    // Guards against a manifest that silently lost its vectors or seeds.
    EXPECT_GE(checked, c.inputs.size()) << c.name << " " << field;
  }
  EXPECT_GT(corpora, 0u) << "no corpus records " << field << ": " << golden::CorporaSummary();
}

template <typename Fn>
void ExpectUnseededGolden(const std::string& field, int digits, Fn fn) {
  ExpectSeededGolden(field, digits, 0, [&](ByteView in, uint64_t) { return fn(in); });
}

constexpr uint64_t kMax32 = 0xffffffffu;
constexpr uint64_t kMax64 = ~uint64_t{0};

TEST(HashGoldenTest, CorpusInputsMatchManifest) {
  ASSERT_FALSE(Corpora().empty()) << golden::CorporaSummary();
  for (const HashCorpus& c : Corpora()) {
    const nlohmann::json& vectors = c.manifest.at("vectors");
    EXPECT_EQ(c.manifest.at("inputs").at("count").get<size_t>(), c.inputs.size()) << c.name;
    ASSERT_EQ(vectors.size(), c.inputs.size()) << c.name;
    EXPECT_GT(c.inputs.size(), 300u) << c.name;
    for (size_t i = 0; i < vectors.size(); ++i) {
      const nlohmann::json& v = vectors[i];
      EXPECT_EQ(i, v.at("index").get<size_t>());
      EXPECT_EQ(c.inputs[i].size(), v.at("len").get<size_t>()) << c.name << " vector " << i;
      EXPECT_EQ(golden::HexEncode(c.inputs[i]), v.at("input_hex").get<std::string>())
          << c.name << " vector " << i;
    }
  }
}

TEST(HashGoldenTest, RocksDbHash64) {
  ExpectSeededGolden("rocksdb_hash64", 16, kMax64, Xxph3Hash64);
}

TEST(HashGoldenTest, RocksDbHash64Unseeded) {
  ExpectUnseededGolden("rocksdb_hash64_unseeded", 16,
                       [](ByteView in) { return Xxph3Hash64(in, 0); });
}

TEST(HashGoldenTest, RocksDbHash32) {
  ExpectSeededGolden("rocksdb_hash32", 8, kMax32, [](ByteView in, uint64_t seed) {
    return RocksDbLegacyHash32(in, static_cast<uint32_t>(seed));
  });
}

// libleveldb does not export its hash, so only the shared corpus records it; without that corpus
// the LevelDB filter cases (whose bytes depend on every hash) are its check.
TEST(HashGoldenTest, LevelDbHash32) {
  const bool recorded = std::any_of(Corpora().begin(), Corpora().end(), [](const HashCorpus& c) {
    return c.manifest.at("vectors").at(0).contains("leveldb_hash32");
  });
  if (!recorded) GTEST_SKIP() << "no corpus records leveldb_hash32";
  ExpectSeededGolden("leveldb_hash32", 8, kMax32, [](ByteView in, uint64_t seed) {
    return LevelDbHash32(in, static_cast<uint32_t>(seed));
  });
}

TEST(HashGoldenTest, Crc32c) { ExpectUnseededGolden("crc32c", 8, Crc32c); }

TEST(HashGoldenTest, Crc32cMasked) {
  ExpectUnseededGolden("crc32c_masked", 8, [](ByteView in) { return Crc32cMask(Crc32c(in)); });
}

TEST(HashGoldenTest, Xxh32) {
  ExpectSeededGolden("xxh32", 8, kMax32, [](ByteView in, uint64_t seed) {
    return Xxh32(in, static_cast<uint32_t>(seed));
  });
}

TEST(HashGoldenTest, Xxh64) { ExpectSeededGolden("xxh64", 16, kMax64, Xxh64); }

TEST(HashGoldenTest, Xxh3Hash64) { ExpectSeededGolden("xxh3_64", 16, kMax64, Xxh3Hash64); }

// ---------------------------------------------------------------------------------------------
// Upstream vectors (docs/FORMATS.md section 4)

struct Hash32Vector {
  const char* hex;
  uint32_t expected;
};

struct Hash64Vector {
  const char* hex;
  uint64_t expected;
};

// LevelDB util/hash_test.cc, HASH.SignedUnsignedIssue (4.1), with RocksDB's value alongside.
TEST(HashUpstreamTest, LevelDbSignedUnsignedIssue) {
  struct Row {
    const char* hex;
    uint32_t seed;
    uint32_t leveldb;
    uint32_t rocksdb;
  };
  const Row rows[] = {
      {"", 0xbc9f1d34, 0xbc9f1d34, 0xbc9f1d34},
      {"62", 0xbc9f1d34, 0xef1345c4, 0xef1345c4},
      {"c397", 0xbc9f1d34, 0x5b663814, 0x0f2ba540},
      {"e299a5", 0xbc9f1d34, 0x323c078f, 0x530174ee},
      {"e180b932", 0xbc9f1d34, 0xed21633a, 0xed21633a},
      {"01c0000000000000000000000000000014000000000004000000001400000018280000000000000002000000"
       "00000000",
       0x12345678, 0xf333dabb, 0xf333dabb},
  };
  for (const Row& r : rows) {
    const std::vector<uint8_t> in = golden::HexDecode(r.hex);
    EXPECT_EQ(r.leveldb, LevelDbHash32(in, r.seed)) << r.hex;
    EXPECT_EQ(r.rocksdb, RocksDbLegacyHash32(in, r.seed)) << r.hex;
  }
}

// RocksDB util/hash_test.cc, HashTest.Values (4.2): sign-extended tails, seed 0xbc9f1d34.
TEST(HashUpstreamTest, RocksDbHashValues) {
  const Hash32Vector rows[] = {
      {"", 0xbc9f1d34},
      {"08", 0x19305b64},
      {"17", 0xbcd62da6},
      {"9a", 0xbe705aed},
      {"1c", 0x9e0d7267},
      {"4d76", 0x91e7071c},
      {"52d5", 0xe5bada89},
      {"91f7", 0x01da0a98},
      {"d627", 0x6ba6c553},
      {"30460b", 0xe2fcda65},
      {"56dcd6", 0x809bdcd9},
      {"d45233", 0x66a385d5},
      {"6ab5f4", 0x932b8e46},
      {"6753811c", 0x070cdc01},
      {"69b8c088", 0xcba0e293},
      {"1e84af2d", 0xc596f0b4},
      {"46dc54be", 0x1aa9f6b3},
      {"d07a6eea56", 0xfda4f17a},
      {"8683d5a4d8", 0x8e7db68a},
      {"b746bb77ce", 0x7a1fd9df},
      {"6ca8bce599", 0x81d15084},
      {"5c5ee1a07381", 0x3dcd03b8},
      {"085d731ce52e", 0x0db53942},
      {"42fbf252b410", 0xd9e3ce8e},
      {"73e1ff569cce", 0xd0c7153d},
      {"5cbe9775549a52", 0x3095c16c},
      {"16823949882b36", 0xb6275fa2},
      {"5977f0a724f478", 0x23000a6b},
      {"d3a57c0ec00207", 0x790da4a4},
      {"311b98759622d39a", 0x1bfe114a},
      {"38d6f72820b48ae9", 0xd26bb78a},
      {"bb185df41203f799", 0x75b12d91},
      {"80d43b3bae22a278", 0xd467c3c8},
      {"1ab5d0feabc361b299", 0xa14b9e0a},
      {"8e4ac318202f06e63c", 0x5b78f6c7},
      {"b6c0dd053fc4864cef", 0x8c66e988},
      {"9a5f780daf50e11f55", 0x537e8690},
      {"226f391ff8dd4f521794", 0xcbde0511},
      {"32892a75483a4a0269dd", 0xcc5021c0},
      {"06925cf4880e7e68383e", 0x44b05989},
      {"bd2c6338bfe978b7bf15", 0xc99c8a9c},
  };
  for (const Hash32Vector& r : rows) {
    const std::vector<uint8_t> in = golden::HexDecode(r.hex);
    EXPECT_EQ(r.expected, RocksDbLegacyHash32(in, kBloomHashSeed)) << r.hex;
    // The two projects agree unless a trailing (len mod 4) byte is >= 0x80.
    bool high_tail = false;
    for (size_t i = in.size() - in.size() % 4; i < in.size(); ++i) high_tail |= in[i] >= 0x80;
    if (!high_tail) {
      EXPECT_EQ(r.expected, LevelDbHash32(in, kBloomHashSeed)) << r.hex;
    }
  }
}

// docs/FORMATS.md 4.8, Hash32 tails (seed 0xbc9f1d34).
TEST(HashUpstreamTest, Hash32Tails) {
  struct Row {
    const char* hex;
    uint32_t leveldb;
    uint32_t rocksdb;
  };
  const Row rows[] = {
      {"68656c6c6f", 0xf795964e, 0xf795964e}, {"776f726c64", 0x42c4e8fc, 0x42c4e8fc},
      {"80", 0x365ee853, 0x91b755f4},         {"ff", 0xc20e0a90, 0x1d66774f},
      {"8081", 0x37e7bae1, 0xebad273d},       {"616263e9", 0x18c89253, 0x18c89253},
      {"6b6579ff", 0xd1cf1e96, 0xd1cf1e96},
  };
  for (const Row& r : rows) {
    const std::vector<uint8_t> in = golden::HexDecode(r.hex);
    EXPECT_EQ(r.leveldb, LevelDbHash32(in, kBloomHashSeed)) << r.hex;
    EXPECT_EQ(r.rocksdb, RocksDbLegacyHash32(in, kBloomHashSeed)) << r.hex;
  }
  // Hash(empty, seed) == seed: no byte is mixed and n * M is 0.
  EXPECT_EQ(0x12345678u, LevelDbHash32({}, 0x12345678));
  EXPECT_EQ(0x12345678u, RocksDbLegacyHash32({}, 0x12345678));
}

// RocksDB util/hash_test.cc, HashTest.Hash64SmallValueSchema (4.2), seed 0.
TEST(HashUpstreamTest, RocksDbHash64SmallValueSchema) {
  const Hash64Vector rows[] = {
      {"", 0x5342c3010fe1dd04ull},
      {"08", 0x08183d89d2d31fb8ull},
      {"17", 0xe07b19004559c97full},
      {"9a", 0xe286ea6763a18b7full},
      {"1c", 0xb825f8d8ee030227ull},
      {"4d76", 0x5f31fddd12c1abc3ull},
      {"52d5", 0x4445f89fa698859full},
      {"91f7", 0xc50e800cc9d2570full},
      {"d627", 0xaa9867c5e87d9a53ull},
      {"30460b", 0x9e45a19348d7e099ull},
      {"56dcd6", 0xac2517ff43ebc80dull},
      {"d45233", 0xdc0407ec02329452ull},
      {"6ab5f4", 0xea0725adde303756ull},
      {"6753811c", 0x7d0c4d555f46ec92ull},
      {"69b8c088", 0x5bc1c421db31dba7ull},
      {"1e84af2d", 0xd4346f64595cd985ull},
      {"46dc54be", 0x62077f5fde2228d7ull},
      {"d07a6eea56", 0x58991eb726e6628bull},
      {"8683d5a4d8", 0xea2deffe4061fa3bull},
      {"b746bb77ce", 0xe948b15edcc23b66ull},
      {"6ca8bce599", 0x11557a3378c2e99cull},
      {"5c5ee1a07381", 0xf0e482a1d17583c2ull},
      {"085d731ce52e", 0x3acf251d8765e132ull},
      {"42fbf252b410", 0x3cb2611368796d03ull},
      {"73e1ff569cce", 0xa6b6aec379512ebdull},
      {"5cbe9775549a52", 0x4f552ad56feeb75aull},
      {"16823949882b36", 0xd88e6e8ccad1b495ull},
      {"5977f0a724f478", 0x775e10b036e6dd5cull},
      {"d3a57c0ec00207", 0x703ea14c2dec9b6eull},
      {"311b98759622d39a", 0x889e0848d25ccd0cull},
      {"38d6f72820b48ae9", 0x9848f850cb6c60c7ull},
      {"bb185df41203f799", 0x8a956c881998dc33ull},
      {"80d43b3bae22a278", 0x17ffb80c532ecdfaull},
      {"1ab5d0feabc361b299", 0xb7ed8c7d456369e9ull},
      {"8e4ac318202f06e63c", 0x6bd028e0f5d473fcull},
      {"b6c0dd053fc4864cef", 0x002c31851e7590b4ull},
      {"9a5f780daf50e11f55", 0x9675f286bb883db2ull},
      {"226f391ff8dd4f521794", 0xb2cce0b5047d0d80ull},
      {"32892a75483a4a0269dd", 0xb026407d876348ccull},
      {"06925cf4880e7e68383e", 0x5ac640056283a3ecull},
      {"bd2c6338bfe978b7bf15", 0x926f9187ca03c6a4ull},
  };
  for (const Hash64Vector& r : rows) {
    EXPECT_EQ(r.expected, Xxph3Hash64(golden::HexDecode(r.hex), 0)) << r.hex;
  }
}

// RocksDB util/hash_test.cc, HashTest.Hash64LargeValueSchema (4.2): one character per prefix
// length 0..429 of a repeated unit, covering every XXPH3 length class including > 240 bytes.
TEST(HashUpstreamTest, RocksDbHash64LargeValueSchema) {
  constexpr std::string_view kAlphabet =
      "abcdefghijklmnopqrstuvwxyz123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  constexpr size_t kLength = 430;
  struct Row {
    const char* unit;
    const char* descriptor;
  };
  const Row rows[] = {
      {"foo",
       "cRhyWsY67B6klRA1udmOuiYuX7IthyGBKqbeosz2hzVglWCmQx8nEdnpkvPfYX56Up2OWOTV"
       "lTzfAoYwvtqKzjD8E9xttR2unelbXbIV67NUe6bOO23BxaSFRcA3njGu5cUWfgwOqNoTsszp"
       "uPvKRP6qaUR5VdoBkJUCFIefd7edlNK5mv6JYWaGdwxehg65hTkTmjZoPKxTZo4PLyzbL9U4"
       "xt12ITSfeP2MfBHuLI2z2pDlBb44UQKVMx27LEoAHsdLp3WfWfgH3sdRBRCHm33UxCM4QmE2"
       "xJ7gqSvNwTeH7v9GlC8zWbGroyD3UVNeShMLx29O7tH1biemLULwAHyIw8zdtLMDpEJ8m2ic"
       "l6Lb4fDuuFNAs1GCVUthjK8CV8SWI8Rsz5THSwn5CGhpqUwSZcFknjwWIl5rNCvDxXJqYr"},
      {"Rocks",
       "c1EeRkrzgOYWLA8PuhJrwTePJewoB44WdXYDfhbk3ZxTqqg25WlPExDl7IKIQLJvnA6gJxxn"
       "9TCSLkFGfJeXehaSS1GBqWSzfhEH4VXiXIUCuxJXxtKXcSC6FrNIQGTZbYDiUOLD6Y5inzrF"
       "9etwQhXUBanw55xAUdNMFQAm2GjJ6UDWp2mISLiMMkLjANWMKLaZMqaFLX37qB4MRO1ooVRv"
       "zSvaNRSCLxlggQCasQq8icWjzf3HjBlZtU6pd4rkaUxSzHqmo9oM5MghbU5Rtxg8wEfO7lVN"
       "5wdMONYecslQTwjZUpO1K3LDf3K3XK6sUXM6ShQQ3RHmMn2acB4YtTZ3QQcHYJSOHn2DuWpa"
       "Q8RqzX5lab92YmOLaCdOHq1BPsM7SIBzMdLgePNsJ1vvMALxAaoDUHPxoFLO2wx18IXnyX"},
      {"RocksDB",
       "c1EeRkukbkb28wLTahwD2sfUhZzaBEnF8SVrxnPVB6A7b8CaAl3UKsDZISF92GSq2wDCukOq"
       "Jgrsp7A3KZhDiLW8dFXp8UPqPxMCRlMdZeVeJ2dJxrmA6cyt99zkQFj7ELbut6jAeVqARFnw"
       "fnWVXOsaLrq7bDCbMcns2DKvTaaqTCLMYxI7nhtLpFN1jR755FRQFcOzrrDbh7QhypjdvlYw"
       "cdAMSZgp9JMHxbM23wPSuH6BOFgxejz35PScZfhDPvTOxIy1jc3MZsWrMC3P324zNolO7JdW"
       "CX2I5UDKjjaEJfxbgVgJIXxtQGlmj2xkO5sPpjULQV4X2HlY7FQleJ4QRaJIB4buhCA4vUTF"
       "eMFlxCIYUpTCsal2qsmnGOWa8WCcefrohMjDj1fjzSvSaQwlpyR1GZHF2uPOoQagiCpHpm"},
  };
  for (const Row& r : rows) {
    std::string input;
    while (input.size() < kLength) input += r.unit;
    std::string descriptor;
    for (size_t len = 0; len < kLength; ++len) {
      descriptor += kAlphabet[Xxph3Hash64(BytesOf(input).first(len), 0) % kAlphabet.size()];
    }
    EXPECT_EQ(r.descriptor, descriptor) << "unit " << r.unit;
  }
}

// docs/FORMATS.md 4.8: short strings under all four 32/64-bit xxHash-family functions, seed 0.
TEST(HashUpstreamTest, SupplementaryStrings) {
  struct Row {
    const char* text;
    uint64_t xxph3;
    uint64_t xxh3;
    uint32_t xxh32;
    uint64_t xxh64;
  };
  const Row rows[] = {
      {"", 0x5342c3010fe1dd04ull, 0x2d06800538d394c2ull, 0x02cc5d05, 0xef46db3751d8e999ull},
      {"a", 0x88d868bf607681c7ull, 0xe6c632b61e964e1full, 0x550d7456, 0xd24ec4f1a98c6e5bull},
      {"abc", 0xd39eeb71bb5342e8ull, 0x78af5f94892f3950ull, 0x32d153ff, 0x44bc2cf5ad770999ull},
      {"hello", 0xa0bbc238c97657b5ull, 0x9555e8555c62dcfdull, 0xfb0077f9, 0x26c7827d889f6da3ull},
      {"hello world", 0xe5f7b82156a07a14ull, 0xd447b1ea40e6988bull, 0xcebb6622,
       0x45ab6734b21e6968ull},
      {"0123456789abcdef", 0x402c83c1955d056dull, 0x64439946d8fa212dull, 0xc2c45b69,
       0x5c5b90c34e376d0bull},
      {"0123456789abcdefg", 0x1de5bab5896cd852ull, 0xd2e63ed5466f5c32ull, 0xcc79b217,
       0x8036ee70cd0a1505ull},
      {"world", 0x53ddd4026a11bd6cull, 0, 0, 0},
      {"user00000000", 0x837a2035fda7c73bull, 0, 0, 0},
  };
  for (const Row& r : rows) {
    const ByteView in = BytesOf(r.text);
    EXPECT_EQ(r.xxph3, Xxph3Hash64(in, 0)) << '"' << r.text << '"';
    if (r.xxh3 == 0) continue;  // Rows only known for Hash64.
    EXPECT_EQ(r.xxh3, Xxh3Hash64(in, 0)) << '"' << r.text << '"';
    EXPECT_EQ(r.xxh32, Xxh32(in, 0)) << '"' << r.text << '"';
    EXPECT_EQ(r.xxh64, Xxh64(in, 0)) << '"' << r.text << '"';
  }
}

// docs/FORMATS.md 4.8: the pattern P[i] = u8(7i + 3) at every XXPH3/XXH3 length-class boundary.
TEST(HashUpstreamTest, SupplementaryPattern) {
  struct Row {
    size_t n;
    uint64_t xxph3_seed0;
    uint64_t xxph3_seed1;
    uint64_t xxh3;
  };
  const Row rows[] = {
      {8, 0xbcb56b6f8d4b12daull, 0x31a753a2d3edb41cull, 0x60539db630471163ull},
      {16, 0x81720cc0702edd73ull, 0x3f9f76d2815b39b7ull, 0xb8c859b0f030b585ull},
      {17, 0x0b515520f462e96full, 0xed519d6134181c5bull, 0x714a04408e79b80full},
      {32, 0x48f0396187b56dd5ull, 0x7854b7668092b6a6ull, 0x19ff4ee1d6ba1a55ull},
      {33, 0xd020587a3c72b988ull, 0x1bb67126a4ed4496ull, 0x3e44983ad21679c8ull},
      {64, 0xc71b2c5a712e7f61ull, 0x514a56004ab65c5cull, 0x287eb1fa9e4be2c1ull},
      {65, 0xd40143de1beadd46ull, 0xa828aab8103e789cull, 0x829218de4d798646ull},
      {96, 0x0d71e54f419745c3ull, 0xd9fb4f576a017e98ull, 0xf084e7cfbc624743ull},
      {97, 0x19e9c1871ecd39dcull, 0xeb606cfdd6427dc5ull, 0x1daa83271a8e7b7cull},
      {128, 0x8ea76d838ce7563full, 0x04c77419bc99603aull, 0x67425a03650261bfull},
      {129, 0x3992d120c8c4677aull, 0xced1101a619c2f9cull, 0xc664bf3311c6abc4ull},
      {200, 0x4ddc3e63692b0196ull, 0xcb4e1b0fbcf37a0aull, 0x746cd0025327bf5bull},
      {240, 0xdf41bc5fea3a61e8ull, 0xd5053cb22783fd68ull, 0x64556dc6b462a6cfull},
      {241, 0x91d10f0682af4ac3ull, 0x8951190f7c34faa3ull, 0x8beadd3a8874fe17ull},
      {256, 0x4d37daabdb543458ull, 0x7ee648f2acc22290ull, 0x3c38817f6d79c0daull},
      {512, 0xf3bb51479ec530a2ull, 0xadafedf5d557b5c7ull, 0xf58202b8d9019d1dull},
      {1024, 0x7d54b94e043675baull, 0xc26f4303c70458ceull, 0x9b81661c641c72b1ull},
      {1025, 0x90acdaaaaca675b0ull, 0x8065e12fc524768bull, 0x806c2072ed713576ull},
      {2048, 0xe4223e0c6dc3503cull, 0x1ae022dd1f7ca35aull, 0xabe604813ba62ed1ull},
  };
  std::vector<uint8_t> pattern(2048);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(7 * i + 3);
  for (const Row& r : rows) {
    const ByteView in = ByteView(pattern).first(r.n);
    EXPECT_EQ(r.xxph3_seed0, Xxph3Hash64(in, 0)) << "n=" << r.n;
    EXPECT_EQ(r.xxph3_seed1, Xxph3Hash64(in, 1)) << "n=" << r.n;
    EXPECT_EQ(r.xxh3, Xxh3Hash64(in, 0)) << "n=" << r.n;
  }
  // RocksDB's own empty-input rule mixes the seed in (the 0.7.2 preview returned 0).
  EXPECT_EQ(0x1611b1c4579e31daull, Xxph3Hash64({}, 1));
  EXPECT_EQ(0xc4cfa19d7d057dccull, Xxph3Hash64({}, 0x123456789ull));
}

// docs/FORMATS.md 4.8 and the golden README: block trailer checksums of the contents "hello"
// followed by the compression type byte (kXXH3 hashes the contents alone, then mixes the type).
TEST(HashUpstreamTest, BlockTrailerChecksums) {
  struct Row {
    uint8_t type;
    uint32_t crc32c_masked;
    uint32_t xxhash;
    uint32_t xxhash64;
    uint32_t xxh3;
  };
  const Row rows[] = {
      {0x00, 0x838fa897, 0x76c3f8e8, 0x2fec4e26, 0x5c62dcfd},
      {0x01, 0x898e4440, 0xa1fdd613, 0x6d66dbe3, 0x37f25f24},
  };
  const std::string contents = "hello";
  for (const Row& r : rows) {
    const std::string with_type = contents + static_cast<char>(r.type);
    EXPECT_EQ(r.crc32c_masked, Crc32cMask(Crc32c(BytesOf(with_type))));
    EXPECT_EQ(r.xxhash, Xxh32(BytesOf(with_type), 0));
    EXPECT_EQ(r.xxhash64, static_cast<uint32_t>(Xxh64(BytesOf(with_type), 0)));
    EXPECT_EQ(r.xxh3,
              static_cast<uint32_t>(Xxh3Hash64(BytesOf(contents), 0)) ^ (r.type * 0x6b9083d9u));
  }
}

// ---------------------------------------------------------------------------------------------
// 64x64->128 multiply

// Shift-and-add reference: slow but obviously right, and available on every platform.
hash_internal::Product128 ReferenceMultiply(uint64_t a, uint64_t b) {
  uint64_t lo = 0;
  uint64_t hi = 0;
  for (int bit = 0; bit < 64; ++bit) {
    if (((b >> bit) & 1) == 0) continue;
    const uint64_t add_lo = bit == 0 ? a : a << bit;
    const uint64_t add_hi = bit == 0 ? 0 : a >> (64 - bit);
    lo += add_lo;
    hi += add_hi + (lo < add_lo ? 1 : 0);
  }
  return {lo, hi};
}

// RocksDB util/math_test.cc, MathTest.Math128 (4.2).
TEST(HashMath128Test, UpstreamVector) {
  const hash_internal::Product128 p =
      hash_internal::Multiply64to128(0x1111111111111111ull, 0x2222222222222222ull);
  EXPECT_EQ(2295594818061633090ull, p.lo);
  EXPECT_EQ(163971058432973792ull, p.hi);
  const hash_internal::Product128 q =
      hash_internal::Multiply64to128Portable(0x1111111111111111ull, 0x2222222222222222ull);
  EXPECT_EQ(p.lo, q.lo);
  EXPECT_EQ(p.hi, q.hi);
}

TEST(HashMath128Test, PortableMatchesNative) {
  std::mt19937_64 rng(0x5eed128);
  std::vector<uint64_t> operands = {
      0,     1,         2,          0xffffffffull,        1ull << 32, (1ull << 32) + 1,
      ~0ull, ~0ull - 1, 1ull << 63, 0x8000000080000000ull};
  for (int i = 0; i < 2000; ++i) operands.push_back(rng());
  // Narrow operands exercise the partial products with empty halves.
  for (int i = 0; i < 200; ++i) operands.push_back(rng() >> (rng() % 64));
  size_t pairs = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    for (size_t j = i; j < operands.size(); j += 7) {
      const uint64_t a = operands[i];
      const uint64_t b = operands[j];
      const hash_internal::Product128 portable = hash_internal::Multiply64to128Portable(a, b);
      const hash_internal::Product128 reference = ReferenceMultiply(a, b);
      ASSERT_EQ(reference.lo, portable.lo) << std::hex << a << " * " << b;
      ASSERT_EQ(reference.hi, portable.hi) << std::hex << a << " * " << b;
#ifdef __SIZEOF_INT128__
      __extension__ typedef unsigned __int128 Uint128;
      const Uint128 native = static_cast<Uint128>(a) * b;
      ASSERT_EQ(static_cast<uint64_t>(native), portable.lo) << std::hex << a << " * " << b;
      ASSERT_EQ(static_cast<uint64_t>(native >> 64), portable.hi) << std::hex << a << " * " << b;
#endif
      const hash_internal::Product128 used = hash_internal::Multiply64to128(a, b);
      ASSERT_EQ(portable.lo, used.lo);
      ASSERT_EQ(portable.hi, used.hi);
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 100000u);
}

// ---------------------------------------------------------------------------------------------
// CRC32C

// Bit-at-a-time CRC-32C, independent of the table-driven implementation.
uint32_t ReferenceCrc32c(ByteView data) {
  uint32_t crc = 0xffffffffu;
  for (const uint8_t b : data) {
    crc ^= b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
  }
  return ~crc;
}

// util/crc32c_test.cc of both projects (4.3) and the standard check value.
TEST(Crc32cTest, UpstreamValues) {
  std::vector<uint8_t> buf(32, 0x00);
  EXPECT_EQ(0x8a9136aau, Crc32c(buf));
  buf.assign(32, 0xff);
  EXPECT_EQ(0x62a8ab43u, Crc32c(buf));
  for (size_t i = 0; i < 32; ++i) buf[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(0x46dd794eu, Crc32c(buf));
  for (size_t i = 0; i < 32; ++i) buf[i] = static_cast<uint8_t>(31 - i);
  EXPECT_EQ(0x113fdb5cu, Crc32c(buf));
  const std::vector<uint8_t> iscsi = golden::HexDecode(
      "01c0000000000000000000000000000014000000000004000000001400000018280000000000000002000000"
      "00000000");
  ASSERT_EQ(48u, iscsi.size());
  EXPECT_EQ(0xd9963a56u, Crc32c(iscsi));
  EXPECT_EQ(0xe3069283u, Crc32c(BytesOf("123456789")));
  EXPECT_EQ(0xc78ab0e5u, Crc32cMask(Crc32c(BytesOf("123456789"))));
  EXPECT_EQ(0u, Crc32c({}));
}

TEST(Crc32cTest, ExtendConcatenates) {
  EXPECT_EQ(Crc32c(BytesOf("hello world")),
            Crc32cExtend(Crc32c(BytesOf("hello ")), BytesOf("world")));
  std::mt19937_64 rng(0xc5c32c);
  std::vector<uint8_t> data(1000);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  const ByteView all(data);
  const uint32_t whole = Crc32c(all);
  EXPECT_EQ(ReferenceCrc32c(all), whole);
  // Every split point, so both halves start at every alignment and length mod 8.
  for (size_t split = 0; split <= data.size(); ++split) {
    EXPECT_EQ(whole, Crc32cExtend(Crc32c(all.first(split)), all.subspan(split)))
        << "split " << split;
  }
  for (size_t start = 0; start < 16; ++start) {
    for (size_t len = 0; len < 80; ++len) {
      const ByteView part = all.subspan(start, len);
      EXPECT_EQ(ReferenceCrc32c(part), Crc32c(part)) << "start " << start << " len " << len;
    }
  }
}

// Lengths around and across the three-lane rounds (384 bytes each), at several alignments.
TEST(Crc32cTest, LaneRoundsEqualTheBitwiseReference) {
  std::mt19937_64 rng(0x3a7e5);
  std::vector<uint8_t> data(1300);
  for (uint8_t& b : data) b = static_cast<uint8_t>(rng());
  const ByteView all(data);
  for (size_t start : {0u, 1u, 5u}) {
    for (size_t len = 0; len + start <= data.size(); ++len) {
      const ByteView part = all.subspan(start, len);
      ASSERT_EQ(ReferenceCrc32c(part), Crc32c(part)) << "start " << start << " len " << len;
    }
  }
}

TEST(Crc32cTest, MaskRoundTrip) {
  std::mt19937 rng(0x3a5c);
  std::vector<uint32_t> values = {0u, 1u, 0xffffffffu, 0x80000000u, 0xa282ead8u, 0xe3069283u};
  for (int i = 0; i < 10000; ++i) values.push_back(static_cast<uint32_t>(rng()));
  for (const uint32_t c : values) {
    EXPECT_EQ(c, Crc32cUnmask(Crc32cMask(c))) << std::hex << c;
    EXPECT_NE(c, Crc32cMask(c)) << std::hex << c;
    EXPECT_NE(c, Crc32cMask(Crc32cMask(c))) << std::hex << c;
  }
}

}  // namespace
}  // namespace sstfilter
