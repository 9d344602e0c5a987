// What the table bindings (wasm/table_bindings.cc) share with the database Get's
// (wasm/db_get_bindings.cc), which drives the tables a TableHandle opened (by its readerAddress())
// with the same read options: the I/O half of every resumable operation the bindings hand to
// TypeScript (sstfilter/table.h ResumableRead). TypeScript calls advance(), reads the file range it
// reports straight into the buffer supplyBuffer() points at, announces it with supplied(), and
// calls advance() again (ts/core/io-driver.ts pump, runAsync).
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "binding_support.h"
#include "sstfilter/table.h"

namespace sstfilter::wasm {

// advance() returns the IoNeed (numbered for TypeScript by constants.cc), or -1 on error
// (last-error slot).
class IoHandle {
 public:
  explicit IoHandle(ResumableRead* op) : op_(op) {}
  virtual ~IoHandle() = default;

  int Advance() {
    if (Status s = op_->Advance(); !s.ok()) {
      Fail(std::move(s));
      return -1;
    }
    return static_cast<int>(op_->need());
  }
  double NeedOffset() const { return static_cast<double>(op_->need_offset()); }
  double NeedLength() const { return static_cast<double>(op_->need_length()); }
  double NeedAheadLength() const { return static_cast<double>(op_->need_ahead_length()); }
  // Where the needLength() bytes go: an address in the module's memory.
  uintptr_t SupplyBuffer() { return reinterpret_cast<uintptr_t>(op_->SupplyBuffer()); }
  bool Supplied(size_t size) {
    Status s = op_->Supplied(size);
    return s.ok() || Fail(std::move(s));
  }

 private:
  ResumableRead* op_;
};

// TableReadOptions from { useFilter, wholeKeyFiltering, prefixExtractor? } (a missing
// prefixExtractor is the table's own, "" none; validated by ts/api/table.ts).
TableReadOptions ReadOptionsOf(emscripten::val read);

}  // namespace sstfilter::wasm
