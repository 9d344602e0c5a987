// Access to the shared golden corpus (/work/shared/golden, described by its README.md) for the
// GoogleTest suites. Every function throws std::runtime_error naming the path it tried when the
// corpus or a file is missing or malformed, so a test using it fails loudly instead of skipping.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sstfilter/bytes.h"

namespace sstfilter::golden {

// The corpus root (the folder holding the top-level manifest.json): $SSTFILTER_GOLDEN_DIR if set,
// else the SSTFILTER_DEFAULT_GOLDEN_DIR compile definition. Throws if manifest.json is not there.
std::string GoldenDir();

// GoldenDir() + "/" + relative; manifests give every path relative to the corpus root.
std::string GoldenPath(std::string_view relative);

std::vector<uint8_t> ReadFileBytes(const std::filesystem::path& path);

// A .keys file: records of a u32 little-endian length followed by that many bytes.
std::vector<std::vector<uint8_t>> ReadKeysFile(const std::filesystem::path& path);

nlohmann::json ReadJson(const std::filesystem::path& path);

// Lowercase or uppercase hex digits, two per byte; throws on odd length or a non-hex character.
std::vector<uint8_t> HexDecode(std::string_view hex);
// Lowercase, two digits per byte (the corpus convention).
std::string HexEncode(ByteView bytes);

// A hex integer with an optional "0x" prefix, e.g. a seed key ("0xbc9f1d34") or a 64-bit value
// ("5342c3010fe1dd04"); throws if it is empty, not hex, or wider than 64 bits.
uint64_t ParseHexU64(std::string_view hex);
// Lowercase, zero-padded to `digits` digits (8 for 32-bit values, 16 for 64-bit ones).
std::string FormatHex(uint64_t value, int digits);

}  // namespace sstfilter::golden
