// sstfilter_example_db_get: one key's value in a RocksDB or LevelDB database folder, read as
// DB::Get reads it, with the public C++ API only (cpp/include/sstfilter). The library does no I/O:
// this program reads CURRENT, the MANIFEST it names, the write-ahead logs (replayed into the
// memtable, sstfilter/wal_recovery.h) and the table files the lookup asks for (sstfilter/
// db_get.h), and prints the value, "not found", or a merge chain's operands (no merge operator
// runs).
//
//   sstfilter_example_db_get <folder> <key> [--column-family NAME] [--leveldb | --rocksdb] [--hex]
//
// A key starting with 0x is hex; values print as text where every byte is printable, else (and
// with --hex) as 0x and hex. The format is RocksDB when the folder has an OPTIONS file, else
// LevelDB, unless a flag says.
#include <sstfilter/db.h>
#include <sstfilter/db_get.h>
#include <sstfilter/wal_recovery.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using sstfilter::Bytes;
using sstfilter::ByteView;
using sstfilter::Status;

bool ReadWhole(const fs::path& path, Bytes* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

int Fail(const std::string& what) {
  std::fprintf(stderr, "db_get: %s\n", what.c_str());
  return 1;
}

bool always_hex = false;

std::string Show(ByteView bytes) {
  const bool printable = !always_hex && std::all_of(bytes.begin(), bytes.end(), [](uint8_t c) {
    return c >= 0x20 && c < 0x7f;
  });
  if (printable) return std::string(bytes.begin(), bytes.end());
  std::string hex = "0x";
  for (uint8_t c : bytes) {
    static const char kDigits[] = "0123456789abcdef";
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

// "" (not consulted, not read) as "-".
const char* OrDash(const char* name) { return *name == '\0' ? "-" : name; }

bool ParseKey(const std::string& text, Bytes* key) {
  if (text.rfind("0x", 0) != 0) {
    key->assign(text.begin(), text.end());
    return true;
  }
  if (text.size() % 2 != 0) return false;
  for (size_t i = 2; i < text.size(); i += 2) {
    const std::string pair = text.substr(i, 2);
    if (pair.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
    key->push_back(static_cast<uint8_t>(std::stoi(pair, nullptr, 16)));
  }
  return true;
}

// The file numbers of the folder's files ending in `suffix`, ascending, with their names.
std::map<uint64_t, std::string> Numbered(const fs::path& dir, const std::string& suffix) {
  std::map<uint64_t, std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const size_t dot = name.find('.');
    if (dot == 0 || dot == std::string::npos || name.substr(dot) != suffix) continue;
    if (name.find_first_not_of("0123456789") != dot) continue;
    out.emplace(std::stoull(name.substr(0, dot)), name);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string family_name = "default";
  std::optional<sstfilter::DbFormat> forced;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--column-family" && i + 1 < args.size()) {
      family_name = args[++i];
    } else if (args[i] == "--leveldb") {
      forced = sstfilter::DbFormat::kLevelDb;
    } else if (args[i] == "--hex") {
      always_hex = true;
    } else if (args[i] == "--rocksdb") {
      forced = sstfilter::DbFormat::kRocksDb;
    } else {
      positional.push_back(args[i]);
    }
  }
  Bytes key;
  if (positional.size() != 2 || !ParseKey(positional[1], &key)) {
    return Fail(
        "usage: sstfilter_example_db_get <folder> <key> [--column-family NAME] "
        "[--leveldb | --rocksdb] [--hex]");
  }
  const fs::path dir = positional[0];

  bool has_options = false;
  for (const auto& entry : fs::directory_iterator(dir)) {
    has_options |= entry.path().filename().string().rfind("OPTIONS-", 0) == 0;
  }
  const sstfilter::DbFormat format =
      forced.value_or(has_options ? sstfilter::DbFormat::kRocksDb : sstfilter::DbFormat::kLevelDb);

  // CURRENT names the MANIFEST, which lists the live tables per level and column family.
  Bytes current;
  Bytes manifest_bytes;
  std::string manifest_name;
  if (!ReadWhole(dir / "CURRENT", &current))
    return Fail("cannot read " + (dir / "CURRENT").string());
  if (Status s = sstfilter::ParseCurrentFile(current, &manifest_name); !s.ok()) {
    return Fail("CURRENT: " + s.message());
  }
  if (!ReadWhole(dir / manifest_name, &manifest_bytes)) return Fail("cannot read " + manifest_name);
  sstfilter::ManifestState manifest;
  if (Status s = sstfilter::ReadManifest(manifest_bytes, format, &manifest); !s.ok()) {
    return Fail(manifest_name + " at " + std::to_string(s.offset()) + ": " + s.message());
  }
  const sstfilter::ColumnFamilyState* family = nullptr;
  for (const auto& cf : manifest.column_families) {
    if (cf.name == family_name) family = &cf;
  }
  if (family == nullptr) return Fail("no column family named " + family_name);
  const sstfilter::ComparatorRef comparator = sstfilter::BuiltinComparator(family->comparator);
  if (!comparator) return Fail("the comparator " + family->comparator + " is not built in");

  // The memtable: the logs replayed in ascending order, as DB::Open recovers them.
  sstfilter::WalReplayOptions replay_options;
  replay_options.format = format;
  replay_options.column_families.push_back({family->id, family->log_number, comparator});
  replay_options.only_key = key;
  replay_options.only_column_family = family->id;
  sstfilter::WalReplay replay(std::move(replay_options));
  std::vector<uint64_t> log_numbers;
  for (const auto& [number, name] : Numbered(dir, ".log")) {
    Bytes log;
    if (!ReadWhole(dir / name, &log)) return Fail("cannot read " + name);
    if (Status s = replay.ReplayLog(name, number, log); !s.ok()) {
      return Fail(name + " at " + std::to_string(s.offset()) + ": " + s.message());
    }
    log_numbers.push_back(number);
  }
  if (Status s = replay.Finish(); !s.ok()) return Fail("recovery: " + s.message());

  sstfilter::DbGetOptions options;
  options.format = format;
  options.family = family;
  options.comparator = comparator;
  options.memtable = &replay.memtable();
  options.log_numbers = log_numbers;
  sstfilter::DbGet get(std::move(options), key);
  sstfilter::TableOptions table_options;
  table_options.comparator = comparator;
  table_options.manifest_comparator = family->comparator;
  Bytes table;
  const Status s = sstfilter::DbGetFromMemory(
      get,
      [&](const sstfilter::TableFileMeta& meta, ByteView* bytes) {
        // LevelDB 1.23 writes .ldb, older LevelDB and RocksDB .sst.
        for (const char* suffix : {".ldb", ".sst"}) {
          const auto files = Numbered(dir, suffix);
          const auto it = files.find(meta.number);
          if (it != files.end() && ReadWhole(dir / it->second, &table)) {
            *bytes = table;
            return Status::Ok();
          }
        }
        return Status::Error(sstfilter::ErrorCode::kTruncated,
                             "table " + std::to_string(meta.number) + " is missing");
      },
      table_options);
  if (!s.ok()) return Fail(s.message());

  const sstfilter::DbGetResult& result = get.result();
  using Outcome = sstfilter::DbGetResult::Outcome;
  switch (result.outcome) {
    case Outcome::kFound:
      if (result.value_is_blob_index) {
        std::printf("(a blob index: the value is in a blob file)\n");
      } else {
        std::printf("%s\n", Show(result.value).c_str());
      }
      break;
    case Outcome::kMergeOperands:
      std::printf("merge operands, newest first (no merge operator runs here):\n");
      for (const Bytes& operand : result.operands) std::printf("  %s\n", Show(operand).c_str());
      std::printf(result.has_value ? "  on the value %s\n" : "  on no value%s\n",
                  result.has_value ? Show(result.value).c_str() : "");
      break;
    case Outcome::kDeleted:
    case Outcome::kNotFound:
      std::printf("not found\n");
      break;
  }
  // The route, on stderr: one line per memtable log or table consulted.
  for (const sstfilter::DbGetStep& step : get.steps()) {
    std::fprintf(stderr, "  %s %llu%s: filter %s, entry %s, %llu block(s)\n",
                 step.where == sstfilter::DbGetStep::Where::kMemTable
                     ? "log"
                     : ("L" + std::to_string(step.level) + " table").c_str(),
                 static_cast<unsigned long long>(step.file_number),
                 step.in_range ? "" : " (out of range)",
                 OrDash(sstfilter::DbGetFilterName(step.filter)),
                 OrDash(sstfilter::DbGetEntryName(step.entry)),
                 static_cast<unsigned long long>(step.blocks_read));
  }
  return 0;
}
