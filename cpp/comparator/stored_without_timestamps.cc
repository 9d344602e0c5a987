#include "comparator/stored_without_timestamps.h"

#include <memory>
#include <utility>

namespace sstfilter {
namespace {

class StoredWithoutTimestamps final : public Comparator {
 public:
  explicit StoredWithoutTimestamps(ComparatorRef order) : order_(std::move(order)) {}

  std::string_view Name() const override { return order_->Name(); }
  int Compare(ByteView a, ByteView b) const override { return order_->Compare(a, b); }
  bool is_bytewise() const override { return order_->is_bytewise(); }

 private:
  ComparatorRef order_;
};

}  // namespace

ComparatorRef OrderOfKeysStoredWithoutTimestamps(ComparatorRef order) {
  return std::make_shared<const StoredWithoutTimestamps>(std::move(order));
}

}  // namespace sstfilter
