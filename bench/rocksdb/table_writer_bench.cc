// Writing a table (issue 16's speed target): RocksDB 7.8.3's SstFileWriter (Debian's librocksdb)
// against sstfilter's native TableWriter, on the same entries and options: 10^6 entries (16-byte
// keys, 100-byte values that Snappy halves, as db_bench's), Snappy, FastLocalBloom at 10 bits per
// key (format_version 5), XXH3 block checksums (7.8.3's default), each writer's file written to
// /dev/shm and synced (SstFileWriter::Finish syncs). Before timing, sstfilter writes with the
// identity RocksDB's file records (session id, host, times) and both files must be equal byte for
// byte; a difference stops the program. Clock: this process's CPU time, as the other native
// benchmarks report it; best of the rounds, the two writers' rounds interleaved.
//   sstfilter_rocksdb_table_writer_bench [--entries=N] [--rounds=R] [--dir=DIR]
// prints one JSON object: the figures, and the path of RocksDB's file (bench/writer-bench.mjs
// writes the same entries from wasm and compares with it).
#include <fcntl.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "sstfilter/table.h"
#include "sstfilter/table_writer.h"

namespace sstfilter::bench {
namespace {

constexpr size_t kKeyBytes = 16;
constexpr size_t kValueBytes = 100;

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "table_writer_bench: %s\n", message.c_str());
  std::exit(1);
}

double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Entry i: key 7 * i in 16 decimal digits (ascending), value 50 printable bytes of a generator
// seeded by i, twice over (Snappy halves it). bench/writer-bench.mjs builds the same bytes.
struct Entries {
  std::vector<uint8_t> keys, values;
  explicit Entries(size_t n) : keys(kKeyBytes * n), values(kValueBytes * n) {
    for (size_t i = 0; i < n; ++i) {
      // 7 * i in 16 decimal digits (n < 10^15 / 7).
      uint64_t number = 7 * uint64_t{i};
      for (size_t d = kKeyBytes; d-- > 0; number /= 10) {
        keys[kKeyBytes * i + d] = static_cast<uint8_t>('0' + number % 10);
      }
      uint32_t x = static_cast<uint32_t>(i);
      uint8_t* value = &values[kValueBytes * i];
      for (size_t j = 0; j < kValueBytes / 2; ++j) {
        x = x * 1664525u + 1013904223u;
        value[j] = value[j + kValueBytes / 2] = static_cast<uint8_t>(32 + (x >> 24) % 95);
      }
    }
  }
  size_t size() const { return keys.size() / kKeyBytes; }
  ByteView key(size_t i) const { return ByteView(&keys[kKeyBytes * i], kKeyBytes); }
  ByteView value(size_t i) const { return ByteView(&values[kValueBytes * i], kValueBytes); }
};

rocksdb::Slice SliceOf(ByteView bytes) {
  return rocksdb::Slice(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

void WriteRocksDb(const Entries& entries, const std::string& path) {
  rocksdb::Options options;
  options.compression = rocksdb::kSnappyCompression;
  rocksdb::BlockBasedTableOptions table_options;
  table_options.format_version = 5;
  table_options.checksum = rocksdb::kXXH3;  // 7.8.3's default, spelled out
  table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options));
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status s = writer.Open(path);
  for (size_t i = 0; s.ok() && i < entries.size(); ++i) {
    s = writer.Put(SliceOf(entries.key(i)), SliceOf(entries.value(i)));
  }
  if (s.ok()) s = writer.Finish();
  if (!s.ok()) Fail("SstFileWriter: " + s.ToString());
}

// Streams the table to `path` a MiB at a time, then syncs it, as SstFileWriter does.
void WriteSstFilter(const Entries& entries, const TableIdentity& identity,
                    const std::string& path) {
  TableWriteOptions options;
  options.format_version = 5;
  options.filter = FilterFormat::kRocksDbFastLocalBloom;
  options.bits_per_key = 10;
  options.compression = "snappy";
  options.checksum = "xxh3";
  options.identity = identity;
  std::unique_ptr<TableWriter> writer;
  Status s = TableWriter::Create(options, &writer);
  if (!s.ok()) Fail("TableWriter::Create: " + s.message());
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) Fail("cannot create " + path);
  const auto drain = [&] {
    const Bytes chunk = writer->TakeOutput();
    if (write(fd, chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size())) {
      Fail("cannot write " + path);
    }
  };
  for (size_t i = 0; i < entries.size(); ++i) {
    s = writer->Put(entries.key(i), entries.value(i));
    if (!s.ok()) Fail("TableWriter::Put: " + s.message());
    if (writer->pending_output_bytes() >= (size_t{1} << 20)) drain();
  }
  s = writer->Finish();
  if (!s.ok()) Fail("TableWriter::Finish: " + s.message());
  drain();
  if (fsync(fd) != 0 || close(fd) != 0) Fail("cannot sync " + path);
}

Bytes ReadFile(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) Fail("cannot open " + path);
  Bytes out;
  uint8_t buffer[1 << 16];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) {
    out.insert(out.end(), buffer, buffer + n);
  }
  std::fclose(f);
  return out;
}

// The properties of RocksDB's file that carry its identity and clock, for sstfilter to record too.
TableIdentity IdentityOf(const Bytes& file) {
  std::unique_ptr<TableReader> reader;
  if (!OpenTableFromMemory(file, TableOptions{}, &reader).ok()) Fail("cannot read RocksDB's file");
  TableIdentity identity;
  for (const TableProperty& p : reader->properties()) {
    const std::string text(p.bytes.begin(), p.bytes.end());
    if (p.name == "rocksdb.creating.db.identity") identity.db_id = text;
    if (p.name == "rocksdb.creating.session.identity") identity.db_session_id = text;
    if (p.name == "rocksdb.creating.host.identity") identity.db_host_id = text;
    if (p.name == "rocksdb.creation.time") identity.creation_time = p.number;
    if (p.name == "rocksdb.file.creation.time") identity.file_creation_time = p.number;
    if (p.name == "rocksdb.oldest.key.time") identity.oldest_key_time = p.number;
    if (p.name == "rocksdb.original.file.number") identity.orig_file_number = p.number;
  }
  return identity;
}

std::string Flag(int argc, char** argv, const std::string& name, const std::string& fallback) {
  const std::string prefix = "--" + name + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return argv[i] + prefix.size();
  }
  return fallback;
}

}  // namespace
}  // namespace sstfilter::bench

int main(int argc, char** argv) {
  using namespace sstfilter::bench;
  const size_t n = std::stoull(Flag(argc, argv, "entries", "1000000"));
  const int rounds = std::stoi(Flag(argc, argv, "rounds", "3"));
  const std::string dir = Flag(argc, argv, "dir", "/dev/shm");
  const std::string rocksdb_path = dir + "/sstfilter-bench-rocksdb.sst";
  const std::string sstfilter_path = dir + "/sstfilter-bench-sstfilter.sst";
  const Entries entries(n);

  WriteRocksDb(entries, rocksdb_path);
  const sstfilter::Bytes expected = ReadFile(rocksdb_path);
  const sstfilter::TableIdentity identity = IdentityOf(expected);
  WriteSstFilter(entries, identity, sstfilter_path);
  if (ReadFile(sstfilter_path) != expected) Fail("sstfilter's file differs from SstFileWriter's");

  double rocksdb_best = 1e300, sstfilter_best = 1e300;
  for (int round = 0; round < rounds; ++round) {
    double start = CpuSeconds();
    WriteRocksDb(entries, rocksdb_path);
    rocksdb_best = std::min(rocksdb_best, CpuSeconds() - start);
    start = CpuSeconds();
    WriteSstFilter(entries, identity, sstfilter_path);
    sstfilter_best = std::min(sstfilter_best, CpuSeconds() - start);
  }
  std::remove(sstfilter_path.c_str());
  std::printf(
      "{\"entries\": %zu, \"fileBytes\": %zu, \"rocksdbFile\": \"%s\", "
      "\"rocksdbSstFileWriterSeconds\": %.6f, \"nativeSeconds\": %.6f}\n",
      n, expected.size(), rocksdb_path.c_str(), rocksdb_best, sstfilter_best);
  return 0;
}
