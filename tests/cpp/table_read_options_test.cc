// TableReader::MayContain under a database's table options (TableReadOptions, docs/FORMATS.md
// 6.6.1), on the tables of the db_table_options section (Bloom, whole-key filtering and
// rocksdb.FixedPrefix.4 as written). Whether the answers match RocksDB's Get per probe is checked
// through db.explain in tests/ts/db-table-options.test.ts; here, what each option does to a table.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "golden.h"
#include "sstfilter/table.h"

namespace sstfilter {
namespace {

struct Lookup {
  bool may_match = true;
  LookupTrace trace;
};

Lookup Probe(const TableReader& reader, const std::vector<uint8_t>& key,
             const TableReadOptions& read) {
  Lookup out;
  const Status s = reader.MayContain(key, &out.may_match, &out.trace, read);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(TableReadOptions, EachOptionChangesWhatTheFilterIsAsked) {
  const auto sections = golden::Sections("db_table_options");
  ASSERT_FALSE(sections.empty()) << "no db_table_options section in " << golden::CorporaSummary();
  int tables = 0;
  for (const auto& [corpus, manifest] : sections) {
    for (const auto& c : manifest["cases"]) {
      if (c["id"] != "as_written") continue;
      const auto probes = corpus->ReadKeys(c["probes"]);
      for (const auto& name : c["files"]) {
        const std::string file = name.get<std::string>();
        if (!file.ends_with(".sst")) continue;
        const auto bytes =
            golden::ReadFileBytes(corpus->Path(c["dir"].get<std::string>() + "/" + file));
        std::unique_ptr<TableReader> reader;
        ASSERT_TRUE(OpenTableFromMemory(bytes, TableOptions(), &reader).ok()) << file;
        ++tables;
        TableReadOptions other_prefix;
        other_prefix.prefix_extractor = "rocksdb.FixedPrefix.3";
        TableReadOptions no_filter;
        no_filter.use_filter = false;
        TableReadOptions prefixes;  // the table's own extractor, whole keys not probed
        prefixes.whole_key_filtering = false;
        prefixes.prefix_extractor = "rocksdb.FixedPrefix.4";
        TableReadOptions changed = prefixes;
        changed.prefix_extractor = "rocksdb.FixedPrefix.3";
        TableReadOptions none = prefixes;
        none.prefix_extractor = "";
        int whole_no = 0, prefix_no = 0;
        for (size_t i = 0; i < probes.size(); ++i) {
          const std::string what =
              file + " probe #" + std::to_string(i) + " " + golden::HexEncode(probes[i]);
          const Lookup own = Probe(*reader, probes[i], {});
          EXPECT_EQ(own.trace.route, LookupRoute::kFullFilter) << what;
          EXPECT_TRUE(own.trace.filter_in_use) << what;
          whole_no += !own.may_match;
          // With whole-key filtering the database's extractor does not matter.
          const Lookup other = Probe(*reader, probes[i], other_prefix);
          EXPECT_EQ(other.may_match, own.may_match) << what;
          EXPECT_EQ(other.trace.route, LookupRoute::kFullFilter) << what;

          const Lookup off = Probe(*reader, probes[i], no_filter);
          EXPECT_TRUE(off.may_match) << what;
          EXPECT_EQ(off.trace.route, LookupRoute::kNoFilter) << what;
          EXPECT_FALSE(off.trace.filter_in_use) << what;

          const Lookup prefix = Probe(*reader, probes[i], prefixes);
          EXPECT_TRUE(prefix.trace.filter_in_use) << what;
          if (probes[i].size() >= 4) {
            EXPECT_EQ(prefix.trace.route, LookupRoute::kFullFilter) << what;
            EXPECT_EQ(prefix.trace.probed_size, 4u) << what;
            prefix_no += !prefix.may_match;
          } else {
            EXPECT_EQ(prefix.trace.route, LookupRoute::kOutsidePrefixDomain) << what;
            EXPECT_TRUE(prefix.may_match) << what;
          }
          for (const TableReadOptions& read : {changed, none}) {
            const Lookup skipped = Probe(*reader, probes[i], read);
            EXPECT_TRUE(skipped.may_match) << what;
            EXPECT_TRUE(skipped.trace.filter_in_use) << what;
            EXPECT_EQ(skipped.trace.route, LookupRoute::kPrefixExtractorChanged) << what;
          }
        }
        EXPECT_GT(whole_no, 0) << file;
        EXPECT_GT(prefix_no, 0) << file;
        EXPECT_GE(whole_no, prefix_no) << file;
      }
    }
  }
  EXPECT_GE(tables, 3);
}

}  // namespace
}  // namespace sstfilter
