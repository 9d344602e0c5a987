// Where each block of a table lies (`t.layout()`), as Pebble's `sstable layout` lists them: the core
// (cpp/table/table_layout.cc) takes the data blocks' handles from the index without reading them
// (only a partitioned index's partitions are read) and hands the listing over packed.
import type { LayoutRaw, ModuleConstants } from "../core/core-module.js";

/**
 * What a region of a table file holds:
 * - "data": a data block;
 * - "index": the index block, or a partition of a partitioned index; "top-index": the top level
 *   of a partitioned index;
 * - "filter": a full filter or LevelDB's filter block; "filter-partition" / "filter-top-index":
 *   a partitioned filter's partitions and the index over them;
 * - "properties", "metaindex", "range-del" (range deletions), "compression-dict", "meta" (any
 *   other block the metaindex names), "footer";
 * - "embedded-blobs": in an embedded blob table (RocksDB 11.6+ SstFileWriter::OpenWithEmbeddedBlobs),
 *   the blob records before a data block, one region per run of them;
 * - "gap": bytes no handle names (block_align padding, or blocks only a newer writer knows).
 */
export type TableRegionKind =
  | "data"
  | "index"
  | "top-index"
  | "filter"
  | "filter-partition"
  | "filter-top-index"
  | "properties"
  | "metaindex"
  | "range-del"
  | "compression-dict"
  | "meta"
  | "footer"
  | "embedded-blobs"
  | "gap";

/** One region of `t.layout()`: regions come in file order and tile the file. */
export interface TableRegion {
  kind: TableRegionKind;
  offset: number;
  /** Blocks: size without their trailer (as handles give it); footer and gaps: all their bytes. */
  size: number;
  /** 5 for blocks (compression type and checksum follow the block), 0 for the footer and gaps. */
  trailerSize: number;
  /** The metaindex entry that names the block, e.g. "rocksdb.properties". */
  name?: string;
  /**
   * Data blocks, index partitions and filter partitions: the user key of the index entry that
   * points here, which sorts at or after every key in the block and before those of the next.
   */
  separator?: Uint8Array;
}

const kindsByModule = new WeakMap<ModuleConstants, TableRegionKind[]>();

/** The regions the core listed. */
export function regionsOf(raw: LayoutRaw, constants: ModuleConstants): TableRegion[] {
  let kinds = kindsByModule.get(constants);
  if (kinds === undefined) {
    kinds = [];
    for (const [name, code] of Object.entries(constants.regionKinds)) kinds[code] = name as TableRegionKind;
    kindsByModule.set(constants, kinds);
  }
  const { handles, separators, hasSeparator } = raw;
  const regions = new Array<TableRegion>(raw.kinds.length);
  for (let i = 0; i < regions.length; i++) {
    const region: TableRegion = {
      kind: kinds[raw.kinds[i]!]!,
      offset: handles[3 * i]!,
      size: handles[3 * i + 1]!,
      trailerSize: handles[3 * i + 2]!,
    };
    if (hasSeparator[i]) {
      region.separator = separators.data.subarray(separators.offsets[i], separators.offsets[i + 1]);
    }
    regions[i] = region;
  }
  for (const [i, name] of raw.names) regions[i]!.name = name;
  return regions;
}
