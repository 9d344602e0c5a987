// Embind surface for writing tables (sstfilter/table_writer.h): ts/api/table-writer.ts checks the
// option types, then hands the options over as a plain object; finished bytes leave as Uint8Array
// copies. Entries, once per entry, go through plain wasm exports (as fast_paths.cc's probes: an
// Embind call costs more than adding an entry) on the address writerAddress() gives: key and value
// (or start and end) in linear memory. Conventions in binding_support.h.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>

#include "binding_support.h"
#include "comparator_bindings.h"
#include "sstfilter/table_writer.h"

namespace sstfilter::wasm {
namespace {

using emscripten::val;

// The properties that carry identities and clocks, by their block names: `properties` sets them.
Status SetIdentityProperty(const std::string& name, const std::string& value, TableIdentity* id) {
  if (name == "rocksdb.creating.db.identity") {
    id->db_id = value;
    return Status::Ok();
  }
  if (name == "rocksdb.creating.session.identity") {
    id->db_session_id = value;
    return Status::Ok();
  }
  if (name == "rocksdb.creating.host.identity") {
    id->db_host_id = value;
    return Status::Ok();
  }
  uint64_t* number = name == "rocksdb.creation.time"          ? &id->creation_time
                     : name == "rocksdb.file.creation.time"   ? &id->file_creation_time
                     : name == "rocksdb.oldest.key.time"      ? &id->oldest_key_time
                     : name == "rocksdb.newest.key.time"      ? &id->newest_key_time
                     : name == "rocksdb.original.file.number" ? &id->orig_file_number
                                                              : nullptr;
  if (number == nullptr) {
    return Status::Error(ErrorCode::kBadOptions,
                         "property \"" + name + "\" is RocksDB's own: the writer sets it");
  }
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), *number);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
    return Status::Error(ErrorCode::kBadOptions,
                         "property \"" + name + "\" takes a decimal number, got \"" + value + "\"");
  }
  return Status::Ok();
}

// `o` holds every WriteOptions field with its type checked (ts/api/table-writer.ts).
Status ParseOptions(const val& o, TableWriteOptions* out) {
  out->format =
      o["format"].as<std::string>() == "leveldb" ? TableFamily::kLevelDb : TableFamily::kRocksDb;
  out->format_version = o["formatVersion"].as<uint32_t>();
  const std::string filter = o["filter"].as<std::string>();
  out->filter.reset();
  for (int f = 0; f <= static_cast<int>(FilterFormat::kRocksDbRibbon); ++f) {
    if (filter == FilterFormatName(static_cast<FilterFormat>(f))) {
      out->filter = static_cast<FilterFormat>(f);
    }
  }
  if (!out->filter && filter != "none") {
    return Status::Error(ErrorCode::kBadOptions, "unknown filter \"" + filter + "\"");
  }
  out->bits_per_key = o["bitsPerKey"].as<double>();
  out->prefix_extractor = o["prefixExtractor"].as<std::string>();
  out->whole_key_filtering = o["wholeKeyFiltering"].as<bool>();
  out->compression = o["compression"].as<std::string>();
  out->checksum = o["checksum"].as<std::string>();
  out->block_size = static_cast<uint64_t>(o["blockSize"].as<double>());
  out->restart_interval = o["restartInterval"].as<uint32_t>();
  const std::string index = o["indexType"].as<std::string>();
  if (index != "binary-search" && index != "two-level") {
    return Status::Error(
        ErrorCode::kBadOptions,
        "indexType must be \"binary-search\" or \"two-level\", got \"" + index + "\"");
  }
  out->index_type =
      index == "two-level" ? TableIndexType::kTwoLevel : TableIndexType::kBinarySearch;
  out->partition_filters = o["partitionFilters"].as<bool>();
  out->metadata_block_size = static_cast<uint64_t>(o["metadataBlockSize"].as<double>());
  out->decouple_partitioned_filters = o["decouplePartitionedFilters"].as<bool>();
  out->separate_key_value_in_data_block = o["separateKeyValueInDataBlock"].as<bool>();
  out->identity.base_context_checksum = o["baseContextChecksum"].as<uint32_t>();
  // "" and null: bytewise; a built-in name; or a name with a guarded function.
  const std::string comparator = o["comparator"].as<std::string>();
  if (!comparator.empty()) {
    if (!ComparatorFrom(comparator, o["compare"], &out->comparator)) {
      return Status::Error(ErrorCode::kBadOptions,
                           "\"" + comparator + "\" is not a built-in comparator");
    }
  }
  // [name, value] pairs of strings.
  const val properties = o["properties"];
  const size_t n = properties["length"].as<size_t>();
  for (size_t i = 0; i < n; ++i) {
    const std::string name = properties[i][0].as<std::string>();
    const std::string value = properties[i][1].as<std::string>();
    if (name.rfind("rocksdb.", 0) == 0) {
      if (Status s = SetIdentityProperty(name, value, &out->identity); !s.ok()) return s;
    } else {
      out->user_properties.emplace_back(name, Bytes(value.begin(), value.end()));
    }
  }
  return Status::Ok();
}

class TableWriterHandle {
 public:
  explicit TableWriterHandle(std::unique_ptr<TableWriter> writer) : writer_(std::move(writer)) {}

  // For sstfilter_table_writer_add and _pending; valid while the handle lives.
  uintptr_t WriterAddress() const { return reinterpret_cast<uintptr_t>(writer_.get()); }
  bool Finish() {
    Status s = writer_->Finish();
    return s.ok() || Fail(std::move(s));
  }
  val TakeOutput() { return ToUint8Array(writer_->TakeOutput()); }
  double FileSize() const { return static_cast<double>(writer_->file_size()); }
  double Entries() const { return static_cast<double>(writer_->entries()); }

 private:
  std::unique_ptr<TableWriter> writer_;
  LiveHandleCount live_;
};

TableWriterHandle* CreateTableWriter(val options) {
  TableWriteOptions parsed;
  std::unique_ptr<TableWriter> writer;
  Status s = ParseOptions(options, &parsed);
  if (s.ok()) s = TableWriter::Create(parsed, &writer);
  if (!s.ok()) {
    Fail(std::move(s));
    return nullptr;
  }
  return new TableWriterHandle(std::move(writer));
}

}  // namespace
}  // namespace sstfilter::wasm

extern "C" {

// op 0 put, 1 delete, 2 merge, 3 deleteRange (key = start, value = end). Returns 0 after storing
// the error.
EMSCRIPTEN_KEEPALIVE int sstfilter_table_writer_add(sstfilter::TableWriter* writer, int op,
                                                    const uint8_t* key, size_t key_size,
                                                    const uint8_t* value, size_t value_size) {
  const sstfilter::ByteView k(key, key_size);
  const sstfilter::ByteView v(value, value_size);
  sstfilter::Status s = op == 0   ? writer->Put(k, v)
                        : op == 1 ? writer->Delete(k)
                        : op == 2 ? writer->Merge(k, v)
                                  : writer->DeleteRange(k, v);
  return s.ok() || sstfilter::wasm::Fail(std::move(s)) ? 1 : 0;
}

// Finished bytes not taken yet.
EMSCRIPTEN_KEEPALIVE size_t sstfilter_table_writer_pending(const sstfilter::TableWriter* writer) {
  return writer->pending_output_bytes();
}

}  // extern "C"

EMSCRIPTEN_BINDINGS(sstfilter_table_writer) {
  using namespace emscripten;
  using namespace sstfilter::wasm;

  class_<TableWriterHandle>("TableWriterHandle")
      .function("writerAddress", &TableWriterHandle::WriterAddress)
      .function("finish", &TableWriterHandle::Finish)
      .function("takeOutput", &TableWriterHandle::TakeOutput)
      .function("fileSize", &TableWriterHandle::FileSize)
      .function("entries", &TableWriterHandle::Entries);
  function("createTableWriter", &CreateTableWriter, allow_raw_pointers());
}
