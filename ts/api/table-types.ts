// The public types of tables (Table, AsyncTable in table.ts): how one is opened, what it says about
// itself, and what its probes and walks give.
import type { LibraryFormat } from "../core/library-format.js";
import type { ComparatorOption } from "./comparators.js";
import type { Entry } from "./entries.js";
import type { FilterKind } from "./filters.js";
import type { KeyBatch } from "../core/keys.js";

/** How a table is opened: its key shape and its comparator. */
export interface OpenTableOptions {
  /**
   * true (default): keys carry the 8-byte internal-key tag, as in every file a database or an
   * SstFileWriter writes; false for tables written with a bare TableBuilder.
   */
  internalKeys?: boolean;
  /**
   * The order of the table's keys, as the database that wrote it was opened with (see
   * {@link ComparatorOption}). Without it a RocksDB table is read in the order its
   * `rocksdb.comparator` names when that is built in, and a LevelDB table (which records no
   * comparator) as bytewise when its index separators ascend bytewise; otherwise the order is
   * unknown (`t.order.known` false) and probes are conservative. A RocksDB table that names another
   * comparator, or an index out of this order, is BAD_OPTIONS.
   */
  comparator?: ComparatorOption;
  /**
   * @internal The comparator a database's MANIFEST names for the table: a LevelDB table (which
   * records none) is read as if it named it, never assumed bytewise.
   */
  manifestComparator?: string;
}

/**
 * How a table's keys are ordered, and how the reader knows (`t.order`):
 * - "recorded": RocksDB, the built-in comparator `rocksdb.comparator` names;
 * - "supplied": the `comparator` option;
 * - "separators": LevelDB, none supplied; the index separators ascend bytewise (and are not all
 *   Chrome IndexedDB keys), so the table is read as bytewise (a LevelDB table does not record its
 *   comparator: supply it to be sure);
 * - "unknown": neither. A key is then ruled out only when every filter that could hold it says no
 *   (route "any-filter"), get() reads every block, and walks by key range are UNSUPPORTED.
 */
export interface TableKeyOrder {
  /** The comparator's name; for "unknown" the recorded one (RocksDB), "" for LevelDB. */
  comparator: string;
  source: "recorded" | "supplied" | "separators" | "unknown";
  known: boolean;
  /** LevelDB, "unknown": the first index entry (from 0) that sorts bytewise before the one before it. */
  firstUnorderedSeparator: number | null;
  /**
   * LevelDB, "unknown": the built-in comparator whose key format every index separator has
   * ("idb_cmp1": Chrome IndexedDB's keys), where they all do; supplying it makes answers exact.
   */
  keysLookLike: string | null;
}

/** Which library's table a file is. */
export type TableFormat = LibraryFormat;

/** What `t.filter` reports about a table's filter. */
export interface TableFilterInfo {
  /** RocksDB: the `rocksdb.filter.policy` property (e.g. "bloomfilter"); LevelDB: the policy name. */
  policy: string;
  /**
   * The kind of the filter (of every partition): "mixed" when partitions differ (Ribbon policies
   * fall back to Bloom for small partitions), "custom" for a policy that is not built in.
   */
  kind: FilterKind | "mixed" | "custom";
  partitioned: boolean;
  /** Number of partitions (0 unless partitioned). */
  partitions: number;
  /** Whole keys were added (RocksDB property; always true for LevelDB). */
  wholeKeyFiltering: boolean;
  /** The table's prefix extractor as its properties name it, e.g. "rocksdb.FixedPrefix.3". */
  prefixExtractor: string | null;
  /** false for custom extractors, whose prefixes cannot be reproduced (prefix probes then throw). */
  prefixExtractorSupported: boolean;
  /** Bytes of filter as stored, without block trailers (partitions plus their index). */
  sizeBytes: number;
  /** The metaindex entry the filter was read from, e.g. "fullfilter.rocksdb.BuiltinBloomFilter". */
  metaBlock: string;
}

/** The footer and index as the table locates them. Handles are [offset, size without trailer]. */
export interface TableFooter {
  /** 0 for LevelDB tables and RocksDB format_version 0. */
  formatVersion: number;
  checksum: "none" | "crc32c" | "xxhash" | "xxhash64" | "xxh3";
  metaindexHandle: [number, number];
  indexHandle: [number, number];
}

/**
 * How a point lookup's answer came about (`t.explainMayContain(key)`):
 * - "full-filter" / "partition" / "block-filter": that filter answered (a RocksDB full filter, a
 *   RocksDB filter partition, the LevelDB filter of one data block);
 * - "no-filter": the table has no filter, or none that can check this key (may match);
 * - "outside-prefix-domain": whole-key filtering is off and the key has no prefix (may match);
 * - "after-last-key": LevelDB, the key sorts after the file's last key (definitely not);
 * - "prefix-extractor-changed": whole-key filtering is off and the reading database's prefix
 *   extractor (TableReadOptions.prefixExtractor) is not the table's: its prefixes are not probed
 *   (may match).
 * - "any-filter": the key order is unknown (`t.order`): every filter that could hold the key was
 *   probed (each of LevelDB's data-block filters, each partition), and the key is ruled out only
 *   when all of them said no.
 */
export type LookupRoute =
  | "any-filter"
  | "full-filter"
  | "partition"
  | "block-filter"
  | "no-filter"
  | "outside-prefix-domain"
  | "after-last-key"
  | "prefix-extractor-changed";

/**
 * How the database reading a RocksDB table is configured, where that decides what a point lookup
 * gets from the filter: RocksDB reads every table with the options it is opened with (its newest
 * OPTIONS file), not those the table was written with (docs/FORMATS.md 6.6.1). Leave a field out
 * to read the table as it describes itself. LevelDB tables ignore these.
 */
export interface TableReadOptions {
  /** false: the database has no filter policy (filter_policy=nullptr): the filter is not read. */
  useFilter?: boolean;
  /** false: no whole-key probe, as with whole_key_filtering=false (true keeps the table's own). */
  wholeKeyFiltering?: boolean;
  /**
   * The database's prefix extractor as OPTIONS names it ("rocksdb.FixedPrefix.3"), null for none.
   * Without whole-key filtering the table's prefixes are probed only under an extractor of the
   * same name.
   */
  prefixExtractor?: string | null;
}

/** What `t.explainMayContain(key)` reports: mayContain's answer and which filter gave it. */
export interface LookupExplanation {
  mayContain: boolean;
  route: LookupRoute;
  /**
   * A filter is in use for the lookup: RocksDB counts it in its filter statistics
   * (BLOOM_FILTER_USEFUL when it said no, else BLOOM_FILTER_FULL_POSITIVE), even where no key or
   * prefix was probed. LevelDB: a data block's filter answered.
   */
  filterInUse: boolean;
  /** The filter partition consulted ("partition" route), else null. */
  partition: number | null;
  /**
   * [offset, size] of a data block: LevelDB, the block whose filter answered; RocksDB with a
   * single-level index, the block the lookup reads when the filter says "may match". Else null.
   */
  dataBlock: [number, number] | null;
  /** The bytes the filter was probed with: the key, or its prefix; empty when none was probed. */
  probed: Uint8Array;
}

/** The user keys of one data block, as `t.dataBlocks()` walks them. */
export interface DataBlockKeys {
  offset: number;
  /** Size without the 5-byte block trailer. */
  size: number;
  keys: Uint8Array[];
}

/** The user keys of consecutive data blocks, packed, as `t.keyBatches()` walks them. */
export interface TableKeyBatch extends KeyBatch {
  /**
   * [offset, size, keysEnd] per data block, in file order: block i holds keys [keysEnd of block
   * i - 1 (0 for the first), keysEnd). Blocks without entries are listed too.
   */
  blocks: Float64Array;
}

/** What `verifyTable` gets from the table per batch of data blocks (`t.verifyBatches`). */
export interface FilterCheckBatch {
  /** [offset, size, keysEnd] per data block, as in TableKeyBatch. */
  blocks: Float64Array;
  /** Keys in the batch. */
  keys: number;
  /** The keys the table's filter rules out although they are in it, with their index in the batch. */
  ruledOut: { index: number; key: Uint8Array }[];
  /** Why this batch's keys (and all later ones) were not probed, or null. */
  unprobed: string | null;
}

/** Which data blocks a walk covers: those whose offset lies in [from, to) (default: all). */
export interface BlockRange {
  from?: number;
  to?: number;
}

/** Property values: varint numbers as numbers (bigint above 2^53), text as strings, else hex. */
export type TablePropertyValue = number | bigint | string | { hex: string };

/** How t.scanText() prints: as `sst_dump --command=scan` with these flags. */
export interface ScanTextOptions {
  /** --output_hex: keys and values in upper-case hex. */
  hex?: boolean;
  /**
   * sstfilter's own, for terminals (default false: sst_dump's bytes, as they are, a key or value
   * ending at its first NUL as printf's %s ends there): keys, timestamps and values escaped, so
   * that each entry is one line that shows all its bytes. Printable ASCII and well-formed UTF-8 of
   * printable characters stay as they are, `\` becomes `\\`, and every other byte `\xNN` (two
   * lower-case hex digits): control bytes (NUL, newline, tab, DEL...), C1 controls (U+0080 to
   * U+009F), bytes not in well-formed UTF-8, and the bidirectional embeddings, overrides and
   * isolates (U+202A to U+202E, U+2066 to U+2069), which could reorder what a terminal shows.
   * No effect with `hex`, whose digits need no escaping.
   */
  escape?: boolean;
  /** --decode_blob_index: blob indexes decoded, as BlobIndex::DebugString shows them. */
  decodeBlobIndex?: boolean;
  /**
   * Receives the lines sst_dump prints on standard error instead (with decodeBlobIndex: entries
   * whose blob index does not decode), a batch at a time; without it they are dropped.
   */
  onErrorText?: (text: Uint8Array) => void;
}

/** @internal What a table's point lookup found and read (AsyncTable.pointLookup). */
export interface TableLookup {
  /** get()'s answer. */
  entries: Entry[];
  /**
   * The data blocks read, in order; the key's entries (not its range deletions) before entriesEnd
   * came from this block and the ones before it.
   */
  blocksRead: { offset: number; size: number; entriesEnd: number }[];
  /**
   * How the filter (or a LevelDB table's index) answered, as explainMayContain(key) does: where
   * mayContain is false no data block was read.
   */
  filter: LookupExplanation;
}
