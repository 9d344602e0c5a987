// What RocksDB's own WriteBatch::Iterate reads from a write batch, as JSON the corpus records:
// the ground truth for the WAL decoder (sections db_wal and db_twopc).
#pragma once

#include <rocksdb/slice.h>
#include <rocksdb/write_batch.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "corpus_io.h"

namespace corpus {

inline std::string HexOf(const rocksdb::Slice& s) {
  return Hex(std::string_view(s.data(), s.size()));
}

// A write batch as WriteBatch::Iterate walks it: its records (kind, column family, key, value)
// and markers (kind, data, how many records precede it).
class BatchRecorder : public rocksdb::WriteBatch::Handler {
 public:
  nlohmann::json records = nlohmann::json::array();
  nlohmann::json markers = nlohmann::json::array();

  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& k, const rocksdb::Slice& v) override {
    return Add("put", cf, k, v);
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& k) override {
    return Add("delete", cf, k, rocksdb::Slice());
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& k) override {
    return Add("single-delete", cf, k, rocksdb::Slice());
  }
  rocksdb::Status DeleteRangeCF(uint32_t cf, const rocksdb::Slice& begin,
                                const rocksdb::Slice& end) override {
    return Add("range-delete", cf, begin, end);
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice& k, const rocksdb::Slice& v) override {
    return Add("merge", cf, k, v);
  }
  rocksdb::Status PutBlobIndexCF(uint32_t cf, const rocksdb::Slice& k,
                                 const rocksdb::Slice& v) override {
    return Add("blob-index", cf, k, v);
  }
  rocksdb::Status PutEntityCF(uint32_t cf, const rocksdb::Slice& k,
                              const rocksdb::Slice& entity) override {
    return Add("wide-columns", cf, k, entity);
  }
  void LogData(const rocksdb::Slice& blob) override { Mark("log-data", blob); }
  rocksdb::Status MarkBeginPrepare(bool unprepare) override {
    return Mark(unprepare ? "begin-unprepare" : "begin-prepare", rocksdb::Slice());
  }
  rocksdb::Status MarkEndPrepare(const rocksdb::Slice& xid) override {
    return Mark("end-prepare", xid);
  }
  rocksdb::Status MarkNoop(bool) override { return Mark("noop", rocksdb::Slice()); }
  rocksdb::Status MarkRollback(const rocksdb::Slice& xid) override { return Mark("rollback", xid); }
  rocksdb::Status MarkCommit(const rocksdb::Slice& xid) override { return Mark("commit", xid); }
  rocksdb::Status MarkCommitWithTimestamp(const rocksdb::Slice& xid,
                                          const rocksdb::Slice&) override {
    return Mark("commit-with-timestamp", xid);
  }

 private:
  rocksdb::Status Add(const char* kind, uint32_t cf, const rocksdb::Slice& k,
                      const rocksdb::Slice& v) {
    records.push_back({{"kind", kind}, {"cf", cf}, {"key", HexOf(k)}, {"value", HexOf(v)}});
    return rocksdb::Status::OK();
  }
  rocksdb::Status Mark(const char* kind, const rocksdb::Slice& data) {
    markers.push_back({{"kind", kind}, {"data", HexOf(data)}, {"position", records.size()}});
    return rocksdb::Status::OK();
  }
};

}  // namespace corpus
