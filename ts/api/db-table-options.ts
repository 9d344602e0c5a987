// The table options a database reads its tables with (docs/FORMATS.md 6.6.1). RocksDB opens every
// table with the options the database is opened with, which its newest OPTIONS file records per
// column family, not with those the table was written with: filter_policy=nullptr reads no filter
// block (rocksdb 7.8.3 table/block_based/block_based_table_reader.cc
// PrefetchIndexAndFilterBlocks); every built-in policy reads every built-in filter, the kind being
// in the filter's own bytes (filter_policy.cc, BuiltinFilterPolicy::GetBuiltinFilterBitsReader);
// whole keys are probed only where the options and the table both filter whole keys (Rep's
// whole_key_filtering, and-ed with the table property), prefixes only under an extractor of the
// table's name (FullFilterKeyMayMatch, PrefixExtractorChanged).
import type { DatabaseOptions } from "./options-file.js";
import type { TableReadOptions } from "./table-types.js";

/** The table options the newest OPTIONS file sets for a column family, as the database reads its tables. */
export interface DatabaseTableOptions {
  /**
   * "options-file": from the newest OPTIONS file's sections of the column family; "tables": each
   * table read as it describes itself (LevelDB, no OPTIONS file, or none of its values understood).
   */
  source: "options-file" | "tables";
  /** The OPTIONS file read, e.g. "OPTIONS-000012"; null for "tables" without one. */
  file: string | null;
  /** What get and explainGet pass to each table (table.explainMayContain / table.get). */
  read: TableReadOptions;
  /** Values that were not understood, each of which leaves the tables' own view in place. */
  notes: string[];
}

// The policies FilterPolicy::CreateFromString builds in 7.8.3 and main, as OPTIONS files write
// them ("bloomfilter:10:false", "ribbonfilter:10:-1") or by id.
const BUILTIN_FILTER_POLICY =
  /^(bloomfilter|ribbonfilter):|^rocksdb\.(BloomFilter|RibbonFilter|BuiltinBloomFilter)(:|$)|^rocksdb\.internal\.(LegacyBloomFilter|FastLocalBloomFilter|Standard128RibbonFilter)(:|$)/;

/** The extractor's name as table properties record it: "fixed:3" and "rocksdb.FixedPrefix.3" alike. */
function prefixExtractorName(value: string): string | null | undefined {
  if (value === "nullptr" || value === "") return null;
  const short = /^(fixed|capped):(\d+)$/.exec(value);
  if (short !== null) return `rocksdb.${short[1] === "fixed" ? "Fixed" : "Capped"}Prefix.${short[2]}`;
  // A nested configuration ("{id=...;...}", "id=...") names its extractor in a way not followed here.
  if (/[{}=;]/.test(value)) return undefined;
  return value;
}

/** The table read options of `columnFamily` from `options` (the newest OPTIONS file, or null). */
export function tableOptionsOf(options: DatabaseOptions | null, columnFamily: string): DatabaseTableOptions {
  const tables = (notes: string[]): DatabaseTableOptions => ({
    source: "tables",
    file: options?.file ?? null,
    read: {},
    notes,
  });
  if (options === null) return tables([]);
  const section = options.columnFamilies.find((cf) => cf.name === columnFamily);
  if (section === undefined)
    return tables([`${options.file} has no options for column family ${columnFamily}`]);
  if (section.tableFactory !== "BlockBasedTable") {
    return tables([`the table factory is ${section.tableFactory ?? "not named"}, not BlockBasedTable`]);
  }
  const read: TableReadOptions = {};
  const notes: string[] = [];
  // Absent values are the defaults: no filter policy, whole-key filtering, no prefix extractor.
  const filterPolicy = section.tableOptions["filter_policy"] ?? "nullptr";
  if (filterPolicy === "nullptr" || filterPolicy === "") read.useFilter = false;
  else if (BUILTIN_FILTER_POLICY.test(filterPolicy)) read.useFilter = true;
  else
    notes.push(
      `filter_policy=${filterPolicy} is not a built-in policy: each table's filter is read as it describes itself`,
    );
  const wholeKey = section.tableOptions["whole_key_filtering"] ?? "true";
  if (wholeKey === "true" || wholeKey === "false") read.wholeKeyFiltering = wholeKey === "true";
  else notes.push(`whole_key_filtering=${wholeKey} is not true or false: each table's own setting stands`);
  const extractorValue = section.options["prefix_extractor"] ?? "nullptr";
  const extractor = prefixExtractorName(extractorValue);
  if (extractor !== undefined) read.prefixExtractor = extractor;
  else notes.push(`prefix_extractor=${extractorValue} is not understood: each table's own extractor stands`);
  return { source: "options-file", file: options.file, read, notes };
}
