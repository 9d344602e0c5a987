import { readFileSync } from "node:fs";
import * as path from "node:path";

import {
  compareBytes,
  SstFilterError,
  type AsyncTable,
  type Entry,
  type NodeSstFilter,
  type Table,
  type TableRegion,
} from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { loadTestingBackend } from "./testing-backend";
import { blockEntries, blockHandle, bytesEqual, fixtureKeys, hexToBytes, sectionCases } from "./golden";

// Every table of every corpus (rocksdb-sst, leveldb-table, head, v11-kv, v11-meta, v11-blob),
// opened from bytes and from the file: what it says about itself, its raw filters, every recorded
// answer, its keys (and its values, where the corpus records them).
// Result codes everywhere: 0 = the filter said no, 1 = maybe, 2 = not consulted by the database.

type PropertyValue = number | bigint | string | { hex: string };

interface GoldenTable {
  id: string; // "<corpus>:<section folder>/<case id>"
  file: string; // absolute path
  internalKeys: boolean;
  keys: Uint8Array[];
  values: Uint8Array[] | null; // the value of each key, when the corpus records them
  probes: Uint8Array[];
  get: Uint8Array;
  seek: Uint8Array | null;
  filters: Uint8Array[] | null; // expected filterBytes()
  kind: string | null; // expected t.filter.kind
  properties: Record<string, PropertyValue> | null;
  propertiesPartial: boolean; // the corpus records only some of the table's properties
  sstDump: string | null;
  footer: {
    format_version: number;
    checksum_type: string;
    metaindex_handle: number[];
    index_handle: number[];
  } | null;
  metaindex: Record<string, number[]> | null;
}

const KIND: Record<string, string> = {
  fastlocalbloom: "rocksdb-bloom",
  legacybloom: "rocksdb-legacy-bloom",
  ribbon: "rocksdb-ribbon",
};
const CHECKSUM: Record<string, string> = {
  kCRC32c: "crc32c",
  kxxHash: "xxhash",
  kxxHash64: "xxhash64",
  kXXH3: "xxh3",
};

const readFile = (file: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(file));

/* eslint-disable @typescript-eslint/no-explicit-any */
function rocksdbSst(): GoldenTable[] {
  return sectionCases<Record<string, any>>("rocksdb_sst").map((c) => {
    const f = c.filter;
    const partitioned = f.kind === "partitioned";
    const impls: string[] = partitioned ? f.partition_impls : [f.built_impl];
    return {
      id: `${c.corpus.name}:rocksdb-sst/${c.id}`,
      file: c.corpus.path(c.file.path),
      internalKeys: true,
      keys: c.corpus.readKeys(c.keys.path),
      values: null,
      probes: c.corpus.readKeys(c.probes.path),
      get: c.corpus.readBytes(c.get_results),
      seek: c.seek_prefix_results === null ? null : c.corpus.readBytes(c.seek_prefix_results),
      filters: partitioned
        ? f.partitions.map((p: any) => c.corpus.readBytes(p.path))
        : [c.corpus.readBytes(f.path)],
      kind: impls.length === 1 ? KIND[impls[0]!]! : "mixed",
      properties: c.properties,
      propertiesPartial: c.properties_partial === true,
      sstDump: readFileSync(c.corpus.path(c.sst_dump), "utf8"),
      footer: c.footer,
      metaindex: c.metaindex,
    };
  });
}

function leveldbTables(): GoldenTable[] {
  return sectionCases<Record<string, any>>("leveldb_table").map((c) => ({
    id: `${c.corpus.name}:leveldb-table/${c.id}`,
    file: c.corpus.path(c.file.path),
    internalKeys: c.internal_keys,
    keys: c.corpus.readKeys(c.keys.path),
    values: null,
    probes: c.corpus.readKeys(c.probes.path),
    get: c.corpus.readBytes(c.get_results),
    seek: null,
    filters: [c.corpus.readBytes(c.filter_block.path)],
    kind: "leveldb-bloom",
    properties: {},
    propertiesPartial: false,
    sstDump: null,
    footer: null,
    metaindex: { [c.filter_block.metaindex_name]: c.filter_block.handle },
  }));
}

/** The committed RocksDB 11 fixtures of `section`, in `folder` (tests/corpus/fixtures/README.md). */
function fixtureTables(section: string, folder: string): GoldenTable[] {
  const code = (answer: string | null): number => (answer === "no" ? 0 : answer === "maybe" ? 1 : 2);
  return sectionCases<Record<string, any>>(section).map((c) => ({
    id: `${c.corpus.name}:${folder}/${c.id}`,
    file: c.corpus.path(`${folder}/${c.file}`),
    internalKeys: true,
    keys: fixtureKeys(c, folder),
    values: c.values === undefined ? null : c.corpus.readKeys(`${folder}/${c.values.path}`),
    probes: c.probes.map((p: any) => hexToBytes(p.key)),
    get: Uint8Array.from(c.probes.map((p: any) => code(p.answer))),
    seek: c.prefix === null ? null : Uint8Array.from(c.probes.map((p: any) => code(p.seekAnswer))),
    filters: null,
    kind: null,
    properties: null,
    propertiesPartial: false,
    sstDump: null,
    footer: {
      format_version: c.formatVersion,
      checksum_type: c.checksum,
      metaindex_handle: [],
      index_handle: [],
    },
    metaindex: null,
  }));
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const TABLES = [
  ...rocksdbSst(),
  ...leveldbTables(),
  ...fixtureTables("head", "head"),
  ...fixtureTables("v11_kv", "v11-kv"),
  // The custom codec's table cannot be read: compression-manager.test.ts checks it says so.
  ...fixtureTables("v11_meta", "v11-meta").filter((t) => !t.id.endsWith("/custom-codec-0x81")),
  // Embedded blob records: entries() gives the values written (v11-blob.test.ts checks the rest).
  ...fixtureTables("v11_blob", "v11-blob"),
];

// sst_dump --show_properties labels -> property names (tools/sst_dump_tool.cc, TableProperties::ToString).
const SST_DUMP_LABELS: Record<string, string> = {
  "# data blocks": "rocksdb.num.data.blocks",
  "# entries": "rocksdb.num.entries",
  "# deletions": "rocksdb.deleted.keys",
  "# merge operands": "rocksdb.merge.operands",
  "# range deletions": "rocksdb.num.range-deletions",
  "raw key size": "rocksdb.raw.key.size",
  "raw value size": "rocksdb.raw.value.size",
  "data block size": "rocksdb.data.size",
  "# index partitions": "rocksdb.index.partitions",
  "top-level index size": "rocksdb.top-level.index.size",
  "filter block size": "rocksdb.filter.size",
  "# entries for filter": "rocksdb.num.filter_entries",
  "filter policy name": "rocksdb.filter.policy",
  "prefix extractor name": "rocksdb.prefix.extractor.name",
  "comparator name": "rocksdb.comparator",
  "merge operator name": "rocksdb.merge.operator",
  "property collectors names": "rocksdb.property.collectors",
  "SST file compression algo": "rocksdb.compression",
  "SST file compression options": "rocksdb.compression_options",
  "creation time": "rocksdb.creation.time",
  "time stamp of earliest key": "rocksdb.oldest.key.time",
  "file creation time": "rocksdb.file.creation.time",
  "slow compression estimated data size": "rocksdb.slow.compression.estimated.data.size",
  "fast compression estimated data size": "rocksdb.fast.compression.estimated.data.size",
  "DB identity": "rocksdb.creating.db.identity",
  "DB session identity": "rocksdb.creating.session.identity",
  "DB host id": "rocksdb.creating.host.identity",
  "original file number": "rocksdb.original.file.number",
};

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

function rawPropertyHex(value: PropertyValue): string {
  if (typeof value === "object") return value.hex;
  if (typeof value === "string") return hexOf(Buffer.from(value, "latin1"));
  // Varint numbers: sst_dump shows their raw bytes; the only ones listed there are small.
  return hexOf(Uint8Array.of(Number(value)));
}

/** Every sst_dump line this corpus shows, checked against t.properties; returns how many. */
function checkSstDump(id: string, text: string, props: Record<string, PropertyValue>): number {
  let checked = 0;
  for (const line of text.split("\n")) {
    const m = /^ {2}(.+?): (.*)$/.exec(line);
    if (m === null) continue;
    const [, label, shown] = m as unknown as [string, string, string];
    const raw = /^# (rocksdb\..+)$/.exec(label);
    let expected: string;
    let actual: string;
    if (raw !== null) {
      expected = shown.toLowerCase();
      actual = `0x${rawPropertyHex(props[raw[1]!]!)}`;
    } else if (label.startsWith("index block size")) {
      const userKey = props["rocksdb.index.key.is.user.key"];
      const delta = props["rocksdb.index.value.is.delta.encoded"];
      expected = `${label}: ${shown}`;
      actual = `index block size (user-key? ${userKey}, delta-value? ${delta}): ${props["rocksdb.index.size"]}`;
    } else if (SST_DUMP_LABELS[label] !== undefined) {
      expected = shown;
      // sst_dump prints TableProperties fields, which are 0 when the block lacks the property.
      actual = String(props[SST_DUMP_LABELS[label]!] ?? 0);
    } else {
      continue;
    }
    if (expected.trimEnd() !== actual.trimEnd()) {
      throw new Error(`${id}: sst_dump shows "${label}: ${shown}", properties give ${actual}`);
    }
    checked++;
  }
  return checked;
}

function withoutCreationTimes(props: Record<string, PropertyValue>): Record<string, PropertyValue> {
  const out = { ...props };
  for (const name of ["rocksdb.creation.time", "rocksdb.oldest.key.time", "rocksdb.file.creation.time"]) {
    delete out[name];
  }
  return out;
}

function errorOf(fn: () => unknown): SstFilterError | string {
  try {
    fn();
  } catch (error) {
    return error instanceof SstFilterError ? error : String(error);
  }
  return "no error";
}

/** A probe the database did not consult must at least not be a key of the file. */
function notConsultedIsAbsent(c: GoldenTable, keySet: Set<string>, i: number): void {
  if (keySet.has(hexOf(c.probes[i]!)))
    throw new Error(`${c.id} probe ${i}: not consulted, yet a key of the file`);
}

/** Checks every recorded answer, single and batched, and that every key may match. */
function checkAnswers(c: GoldenTable, t: Table): void {
  const batched = t.mayContainMany(c.probes);
  const keySet = new Set(c.keys.map(hexOf));
  const filter = t.filter;
  const extractor = filter?.prefixExtractor ?? null;
  for (let i = 0; i < c.probes.length; i++) {
    const probe = c.probes[i]!;
    const single = t.mayContain(probe) ? 1 : 0;
    if (single !== batched[i]) throw new Error(`${c.id} probe ${i}: single ${single}, batch ${batched[i]}`);
    // Not consulted (2): the database skipped the file (the key is outside its range), or the
    // key is outside the prefix extractor's domain, where the table itself answers "may match".
    const fixed = /^rocksdb\.FixedPrefix\.(\d+)$/.exec(extractor ?? "");
    const outOfDomain = fixed !== null && probe.length < Number(fixed[1]);
    const checkNotConsulted = (what: string, answer: number, domainMatters: boolean): void => {
      if (domainMatters && outOfDomain) {
        if (answer !== 1)
          throw new Error(`${c.id} ${what} probe ${i}: outside the prefix domain, yet ${answer}`);
      } else {
        notConsultedIsAbsent(c, keySet, i);
      }
    };
    const expected = c.get[i]!;
    if (expected === 2) checkNotConsulted("get", single, filter !== null && !filter.wholeKeyFiltering);
    else if (single !== expected) {
      throw new Error(`${c.id} get probe ${i}: the database says ${expected}, sstfilter ${single}`);
    }
    if (c.seek !== null) {
      const seek = t.prefixMayMatch(probe) ? 1 : 0;
      if (c.seek[i] === 2) checkNotConsulted("seek", seek, true);
      else if (seek !== c.seek[i]) {
        throw new Error(`${c.id} seek probe ${i}: the database says ${c.seek[i]}, sstfilter ${seek}`);
      }
    }
  }
  const keys = t.mayContainMany(c.keys);
  const missed = keys.indexOf(0);
  if (missed >= 0) throw new Error(`${c.id}: key ${missed} of the file does not may-match`);
}

function checkSelfDescription(c: GoldenTable, t: Table): number {
  let sstDumpLines = 0;
  if (c.properties !== null) {
    const actual = withoutCreationTimes(t.properties);
    const recorded = c.propertiesPartial
      ? Object.fromEntries(Object.keys(c.properties).map((name) => [name, actual[name]]))
      : actual;
    expect({ id: c.id, props: recorded }).toEqual({ id: c.id, props: c.properties });
  }
  if (c.sstDump !== null) sstDumpLines = checkSstDump(c.id, c.sstDump, t.properties);
  if (c.footer !== null) {
    expect([c.id, t.footer.formatVersion, t.footer.checksum]).toEqual([
      c.id,
      c.footer.format_version,
      CHECKSUM[c.footer.checksum_type],
    ]);
    if (c.footer.metaindex_handle.length > 0) {
      expect([c.id, t.footer.metaindexHandle, t.footer.indexHandle]).toEqual([
        c.id,
        c.footer.metaindex_handle,
        c.footer.index_handle,
      ]);
    }
  }
  if (c.metaindex !== null) {
    for (const [name, handle] of Object.entries(c.metaindex))
      expect([c.id, name, t.metaindex[name]]).toEqual([c.id, name, handle]);
  }
  if (c.filters !== null) {
    const raw = t.filterBytes();
    expect([c.id, raw.length]).toEqual([c.id, c.filters.length]);
    raw.forEach((bytes, i) => {
      if (!bytesEqual(bytes, c.filters![i]!))
        throw new Error(`${c.id}: filter ${i} differs from the stored one`);
    });
    expect([c.id, t.filter!.kind, t.filter!.partitions]).toEqual([
      c.id,
      c.kind,
      raw.length > 1 || t.filter!.partitioned ? raw.length : 0,
    ]);
  }
  if (t.format === "rocksdb")
    expect([c.id, t.filter!.sizeBytes]).toEqual([c.id, t.properties["rocksdb.filter.size"]]);
  return sstDumpLines;
}

function sameKeys(c: GoldenTable, keys: Uint8Array[]): void {
  expect([c.id, keys.length]).toEqual([c.id, c.keys.length]);
  keys.forEach((key, i) => {
    if (!bytesEqual(key, c.keys[i]!)) throw new Error(`${c.id}: keys()[${i}] differs`);
  });
}

/** entries() gives each key with the value written for it, in order (tables that record values). */
function sameEntries(c: GoldenTable, entries: Entry[]): void {
  expect([c.id, entries.length]).toEqual([c.id, c.keys.length]);
  entries.forEach((e, i) => {
    if (!bytesEqual(e.key, c.keys[i]!)) throw new Error(`${c.id}: entries()[${i}] key differs`);
    if (!bytesEqual(e.value, c.values![i]!)) throw new Error(`${c.id}: entries()[${i}] value differs`);
  });
}

/**
 * keyBatches() gives keys() in batches, and dataBlocks() the same blocks with the same keys;
 * mayContainMany (the batch kernels) answers as mayContain key by key.
 */
function checkBatchPaths(c: GoldenTable, t: Table): void {
  const fromBatches: Uint8Array[] = [];
  const blocks: [number, number, number][] = [];
  for (const batch of t.keyBatches()) {
    const count = batch.offsets.length - 1;
    for (let i = 0; i < count; i++)
      fromBatches.push(batch.data.subarray(batch.offsets[i], batch.offsets[i + 1]));
    expect([c.id, batch.blocks[batch.blocks.length - 1]]).toEqual([c.id, count]);
    let first = 0;
    for (let b = 0; b < batch.blocks.length; b += 3) {
      blocks.push([batch.blocks[b]!, batch.blocks[b + 1]!, batch.blocks[b + 2]! - first]);
      first = batch.blocks[b + 2]!;
    }
  }
  sameKeys(c, fromBatches);
  expect([c.id, [...t.dataBlocks()].map((b) => [b.offset, b.size, b.keys.length])]).toEqual([c.id, blocks]);
  const sample = c.probes.slice(0, 2000);
  const many = t.mayContainMany(sample);
  sample.forEach((probe, i) => {
    if (many[i] !== (t.mayContain(probe) ? 1 : 0)) throw new Error(`${c.id}: mayContainMany differs at ${i}`);
  });
}

/**
 * t.layout() tiles the file from 0 to its end without gaps or overlaps, ends with the footer, and
 * lists the data blocks a walk reads (as many as the properties count), each with a separator that
 * sorts at or after its last key and before the next block's first.
 */
function checkLayout(c: GoldenTable, t: Table, layout: TableRegion[]): void {
  const size = readFileSync(c.file).length;
  let at = 0;
  for (const r of layout) {
    if (r.offset !== at || r.kind === "gap")
      throw new Error(`${c.id}: ${r.kind} at ${r.offset}, expected ${at}`);
    at = r.offset + r.size + r.trailerSize;
  }
  expect([c.id, at, layout.at(-1)!.kind]).toEqual([c.id, size, "footer"]);
  const data = layout.filter((r) => r.kind === "data");
  const blocks = [...t.dataBlocks()];
  expect([c.id, data.map((r) => [r.offset, r.size])]).toEqual([c.id, blocks.map((b) => [b.offset, b.size])]);
  if (t.format === "rocksdb") {
    expect([c.id, data.length]).toEqual([c.id, t.properties["rocksdb.num.data.blocks"]]);
    const properties = layout.filter((r) => r.kind === "properties");
    expect([c.id, properties.map((r) => [r.offset, r.size])]).toEqual([
      c.id,
      [t.metaindex["rocksdb.properties"]],
    ]);
  }
  const metaindex = layout.filter((r) => r.kind === "metaindex").map((r) => [r.offset, r.size]);
  expect([c.id, metaindex]).toEqual([c.id, [t.footer.metaindexHandle]]);
  const partitions = layout.filter((r) => r.kind === "filter-partition").length;
  expect([c.id, partitions]).toEqual([c.id, t.filter?.partitions ?? 0]);
  if (t.properties["rocksdb.comparator"] === "rocksdb.ReverseBytewiseComparator") return;
  blocks.forEach((block, i) => {
    const separator = data[i]!.separator!;
    const last = block.keys.at(-1);
    const next = blocks[i + 1]?.keys[0];
    if ((last && compareBytes(last, separator) > 0) || (next && compareBytes(separator, next) > 0)) {
      throw new Error(`${c.id}: data block ${i}: separator out of place`);
    }
  });
}

describe.each(BACKENDS)("table files on $name", ({ name, simd }) => {
  let sf: NodeSstFilter;
  beforeAll(async () => {
    sf = (await loadBackend(simd)) as NodeSstFilter;
  });

  test("every golden table: properties, sst_dump, footer, raw filters, every answer, keys", () => {
    let probes = 0;
    let sstDumpLines = 0;
    for (const c of TABLES) {
      using t = sf.openTable(readFile(c.file), { internalKeys: c.internalKeys });
      sstDumpLines += checkSelfDescription(c, t);
      checkAnswers(c, t);
      probes += c.probes.length;
      sameKeys(c, [...t.keys()]);
      if (c.values) sameEntries(c, [...t.entries()]);
      checkBatchPaths(c, t);
    }
    console.log(
      `[golden] ${name}: ${TABLES.length} tables, ${probes} probes identical, ${sstDumpLines} sst_dump lines`,
    );
    expect(TABLES.length).toBeGreaterThan(0);
  });

  test("every golden table's layout: blocks tile the file, data blocks as the index names them", async () => {
    let regions = 0;
    for (const c of TABLES) {
      using t = sf.openTable(readFile(c.file), { internalKeys: c.internalKeys });
      const layout = t.layout();
      checkLayout(c, t, layout);
      using f = await sf.openTableFile(c.file, { internalKeys: c.internalKeys });
      expect([c.id, await f.layout()]).toEqual([c.id, layout]);
      regions += layout.length;
    }
    console.log(`[layout] ${name}: ${TABLES.length} tables, ${regions} regions`);
    expect(TABLES.length).toBeGreaterThan(0);
  });

  test("openTableFile and openTableFrom(Blob) read the same tables lazily", async () => {
    for (const c of TABLES) {
      const t = sf.openTable(readFile(c.file), { internalKeys: c.internalKeys });
      const f: AsyncTable = await sf.openTableFile(c.file, { internalKeys: c.internalKeys });
      expect([c.id, f.format, f.footer, f.properties, f.filter]).toEqual([
        c.id,
        t.format,
        t.footer,
        t.properties,
        t.filter,
      ]);
      const raw = await f.filterBytes();
      expect(raw.every((b, i) => bytesEqual(b, t.filterBytes()[i]!))).toBe(true);
      const sample = c.probes.slice(0, 300);
      expect([c.id, await f.mayContainMany(sample)]).toEqual([c.id, t.mayContainMany(sample)]);
      expect([c.id, await f.mayContain(sample[0]!), await f.prefixMayMatch(sample[0]!)]).toEqual([
        c.id,
        t.mayContain(sample[0]!),
        t.prefixMayMatch(sample[0]!),
      ]);
      const keys: Uint8Array[] = [];
      for await (const key of f.keys()) keys.push(key);
      sameKeys(c, keys);
      t.dispose();
      f.dispose();
    }
    const c = TABLES.find((x) => x.id === "fixtures:head/fv7-bloom10-part-decoupled-snappy")!;
    using b = await sf.openTableFrom(new Blob([readFile(c.file)]));
    let n = 0;
    for await (const key of b.keys()) if (bytesEqual(key, c.keys[n]!)) n++;
    expect(n).toBe(c.keys.length);
  });

  test("a Blob is read in 4 MiB pieces by walks, and only the bytes a lookup needs", async () => {
    // About 14 MB: 100k entries of 16-byte keys and 120-byte values, uncompressed.
    const w = sf.createTableWriter({ format: "rocksdb", compression: "none", filter: "rocksdb-bloom" });
    const value = new Uint8Array(120).fill(0x61);
    const key = (i: number): string => `key${String(i).padStart(13, "0")}`;
    for (let i = 0; i < 100_000; i++) w.put(key(i), value);
    const bytes = w.finish();
    w.dispose();
    const slices: number[] = [];
    class CountingBlob extends Blob {
      override slice(start?: number, end?: number): Blob {
        slices.push((end ?? this.size) - (start ?? 0));
        return super.slice(start, end);
      }
    }
    const PIECE = 4 << 20;
    expect(bytes.length).toBeGreaterThan(3 * PIECE);
    using t = await sf.openTableFrom(new CountingBlob([Buffer.from(bytes)]), { internalKeys: true });
    slices.length = 0;
    expect((await t.get(key(77_777))).map((e) => e.type)).toEqual(["put"]);
    expect(slices.length).toBeGreaterThan(0);
    expect(Math.max(...slices)).toBeLessThan(256 << 10);
    slices.length = 0;
    let n = 0;
    for await (const k of t.keys()) if (Buffer.from(k).toString() === key(n)) n++;
    expect(n).toBe(100_000);
    expect(slices.filter((size) => size === PIECE).length).toBeGreaterThanOrEqual(
      Math.floor(bytes.length / PIECE) - 1,
    );
    expect(slices.length).toBeLessThanOrEqual(Math.ceil(bytes.length / PIECE) + 8);
  });

  test("sources with readInto are read into one reused buffer; a bad count is BAD_OPTIONS", async () => {
    const c = TABLES.find((x) => x.id === "generated:rocksdb-sst/big_dec_n200000_ribbon_part_zstd")!;
    const bytes = readFile(c.file);
    const targets = new Set<ArrayBufferLike>();
    let reads = 0;
    const source = {
      size: bytes.length,
      read: async (): Promise<Uint8Array> => {
        throw new Error("read() is not used when readInto() is there");
      },
      readInto: async (target: Uint8Array, offset: number) => {
        reads++;
        targets.add(target.buffer);
        target.set(bytes.subarray(offset, offset + target.length));
        return Math.min(target.length, bytes.length - offset);
      },
    };
    using t = await sf.openTableFrom(source);
    const keys: Uint8Array[] = [];
    for await (const key of t.keys()) keys.push(key);
    sameKeys(c, keys);
    expect(targets.size).toBeLessThan(reads); // buffers are reused across reads
    const lying = { ...source, readInto: async () => -1 };
    await expect(sf.openTableFrom(lying)).rejects.toMatchObject({ code: "BAD_OPTIONS" });
  });

  test("walks read each data byte once, the next window ahead; a failed read ahead counts only if needed", async () => {
    const c = TABLES.find((x) => x.id === "generated:rocksdb-sst/big_dec_n200000_snappy")!;
    const bytes = readFile(c.file);
    const reads: [number, number][] = [];
    let unreadableFrom = Infinity;
    const source = {
      size: bytes.length,
      read: async (offset: number, length: number) => {
        reads.push([offset, length]);
        if (offset >= unreadableFrom) throw new Error(`unreadable at ${offset}`);
        return bytes.slice(offset, offset + length);
      },
    };
    using t = await sf.openTableFrom(source);
    const opened = reads.length;
    const keys: Uint8Array[] = [];
    for await (const key of t.keys()) keys.push(key);
    sameKeys(c, keys);
    const walk = reads.slice(opened);
    expect(walk.length).toBeGreaterThan(3);
    walk.forEach(([offset], i) => {
      const expected = i === 0 ? 0 : walk[i - 1]![0] + walk[i - 1]![1];
      expect([c.id, i, offset]).toEqual([c.id, i, expected]);
    });
    // The window after the first is read ahead and fails: a walk of the first blocks never needs it.
    const firstWindowEnd = walk[0]![1];
    unreadableFrom = firstWindowEnd;
    let fewKeys = 0;
    for await (const batch of t.keyBatches({ to: firstWindowEnd / 2 })) fewKeys += batch.offsets.length - 1;
    expect(fewKeys).toBeGreaterThan(0);
    expect(reads.some(([offset]) => offset === firstWindowEnd)).toBe(true); // it was read ahead
    await expect(
      (async () => {
        for await (const key of t.keys()) void key;
      })(),
    ).rejects.toThrow(`unreadable at ${firstWindowEnd}`);
  });

  test("opening reads footer, metaindex, properties, index and filter only", async () => {
    for (const id of [
      "generated:rocksdb-sst/big_dec_n200000_snappy",
      "generated:rocksdb-sst/big_dec_n200000_ribbon_part_zstd",
    ]) {
      const c = TABLES.find((x) => x.id === id)!;
      const bytes = readFile(c.file);
      const reads: [number, number][] = [];
      const source = {
        size: bytes.length,
        read: async (offset: number, length: number) => {
          reads.push([offset, length]);
          return bytes.slice(offset, offset + length);
        },
      };
      const started = performance.now();
      const t = await sf.openTableFrom(source);
      const elapsed = performance.now() - started;
      const dataSize = t.properties["rocksdb.data.size"] as number;
      // Data blocks come first in a RocksDB table. Opening reads the file's last 512 KiB at once,
      // as RocksDB's tail prefetch does, and then only the blocks of the tail it still needs: no
      // other read touches a data block, and nothing is read twice.
      const TAIL = 512 << 10;
      expect(reads[0]).toEqual([Math.max(0, bytes.length - TAIL), Math.min(bytes.length, TAIL)]);
      expect([id, reads.slice(1).filter(([offset]) => offset < dataSize)]).toEqual([id, []]);
      const readBytesTotal = reads.reduce((sum, [, length]) => sum + length, 0);
      expect(readBytesTotal).toBeLessThanOrEqual(Math.max(bytes.length - dataSize, TAIL));
      console.log(
        `[lazy] ${id}: opened ${bytes.length} bytes reading ${readBytesTotal} in ${elapsed.toFixed(1)} ms`,
      );
      // The layout reads index partitions, never a data block.
      const opened = reads.length;
      const layout = await t.layout();
      expect([id, reads.slice(opened).filter(([offset]) => offset < dataSize)]).toEqual([id, []]);
      expect(layout.filter((r) => r.kind === "data").length).toBe(t.properties["rocksdb.num.data.blocks"]);
      const before = reads.length;
      const it = t.keys();
      await it.next();
      expect(reads.length).toBeGreaterThan(before); // the first data block (index partition)
      await it.return?.(undefined);
      t.dispose();
    }
  });

  test("corruption and hostile input give typed errors with offsets", () => {
    const c = TABLES.find((x) => x.id === "generated:rocksdb-sst/fv5_bloom10_crc32c")!;
    const bytes = readFile(c.file);
    const t = sf.openTable(bytes);
    const [filterOffset] = t.metaindex["fullfilter.rocksdb.BuiltinBloomFilter"]!;
    t.dispose();

    const flipped = bytes.slice();
    flipped[filterOffset! + 10]! ^= 1;
    expect(errorOf(() => sf.openTable(flipped))).toMatchObject({
      code: "CHECKSUM_MISMATCH",
      offset: filterOffset,
    });

    const dataFlipped = bytes.slice();
    dataFlipped[20]! ^= 1; // inside the first data block, read only by keys()
    using lazy = sf.openTable(dataFlipped);
    expect(errorOf(() => [...lazy.keys()])).toMatchObject({ code: "CHECKSUM_MISMATCH", offset: 0 });

    const head = TABLES.find((x) => x.id === "fixtures:head/fv6-ribbon7-long")!;
    const fv6 = readFile(head.file).slice();
    fv6[fv6.length - 30]! ^= 1; // a reserved footer byte that the footer checksum covers
    expect(errorOf(() => sf.openTable(fv6))).toMatchObject({
      code: "CHECKSUM_MISMATCH",
      offset: fv6.length - 53,
    });

    // The first data block relabelled (with a valid checksum) as snappy, then as bzip2, then as
    // XPRESS (which no portable decoder reads): opening is lazy; keys() reaches the block and
    // names it.
    const fv2 = readFile(TABLES.find((x) => x.id === "generated:rocksdb-sst/fv2_bloom10_crc32c")!.file);
    using plain = sf.openTable(fv2);
    const [indexOffset, indexSize] = plain.footer.indexHandle;
    const first = blockHandle(blockEntries(fv2.subarray(indexOffset, indexOffset + indexSize))[0]!.value);
    for (const [type, code] of [
      [1, "CORRUPT"],
      [3, "CORRUPT"],
      [6, "UNSUPPORTED"],
    ] as const) {
      const relabelled = fv2.slice();
      const trailer = first.offset + first.size;
      relabelled[trailer] = type;
      const crc = sf.hash.crc32cMask(sf.hash.crc32c(relabelled.subarray(first.offset, trailer + 1)));
      new DataView(relabelled.buffer).setUint32(trailer + 1, crc, true);
      using t2 = sf.openTable(relabelled);
      expect(errorOf(() => [...t2.keys()])).toMatchObject({ code, offset: first.offset });
    }

    expect(errorOf(() => sf.openTable(bytes.subarray(0, 40)))).toMatchObject({ code: "TRUNCATED" });
    expect(errorOf(() => sf.openTable(new Uint8Array(4096)))).toMatchObject({
      code: "CORRUPT",
      offset: 4088,
    });
    expect(errorOf(() => sf.openTable(bytes.subarray(100)))).toMatchObject({ code: "TRUNCATED" });
    expect(errorOf(() => sf.openTable("x" as unknown as Uint8Array))).toMatchObject({ code: "BAD_OPTIONS" });
  });

  test("tables and key walks free their wasm memory", async () => {
    const { sf, hooks: core } = await loadTestingBackend(simd);
    const before = core.liveHandles();
    const c = TABLES.find((x) => x.id === "generated:rocksdb-sst/bs256")!;
    const t = sf.openTable(readFile(c.file));
    for (const key of t.keys()) if (key.length > 0) break; // return() frees the walk
    expect(core.liveHandles()).toBe(before + 1);
    t.dispose();
    expect(core.liveHandles()).toBe(before);
    expect(errorOf(() => t.mayContain("a"))).toMatchObject({ code: "DISPOSED" });
    await expect(sf.openTableFrom({ size: 10, read: async () => new Uint8Array(10) })).rejects.toMatchObject({
      code: "TRUNCATED",
    });
    expect(core.liveHandles()).toBe(before);
  });

  test("async key walks: overlapping next() calls answer in order, return() waits for a read, errors free the walk", async () => {
    const { sf, hooks: core } = await loadTestingBackend(simd);
    const c = TABLES.find((x) => x.id === "generated:rocksdb-sst/big_dec_n200000_snappy")!;
    const bytes = readFile(c.file);
    let unreadableFrom = Infinity;
    const source = {
      size: bytes.length,
      read: async (offset: number, length: number) => {
        if (offset >= unreadableFrom) throw new Error(`unreadable at ${offset}`);
        return bytes.slice(offset, offset + length);
      },
    };
    const before = core.liveHandles();
    const t = await sf.openTableFrom(source);
    const batches: number[] = [];
    for await (const batch of t.keyBatches()) batches.push(batch.offsets.length - 1);
    expect([c.id, batches.length > 1]).toEqual([c.id, true]); // the walks below cross a batch

    // Every next() asked at once, before the first batch is read: each key once, in order, then
    // the end; the keys of the first batch are still whole after the last batch was read.
    const all = t.keys();
    const answers = await Promise.all(Array.from({ length: c.keys.length + 2 }, () => all.next()));
    sameKeys(
      c,
      answers.slice(0, -2).map((r) => r.value as Uint8Array),
    );
    expect(answers.slice(-2)).toEqual([
      { done: true, value: undefined },
      { done: true, value: undefined },
    ]);
    expect(core.liveHandles()).toBe(before + 1); // the finished walk freed its cursor

    // return() while the first batch is being read: that next() still answers the first key.
    const early = t.keys();
    const first = early.next();
    const returned = early.return!(undefined);
    expect(bytesEqual((await first).value as Uint8Array, c.keys[0]!)).toBe(true);
    expect(await returned).toEqual({ done: true, value: undefined });
    expect(await early.next()).toEqual({ done: true, value: undefined });
    expect(core.liveHandles()).toBe(before + 1);

    // A read failing past the first batch: the keys before it, then the error, then the end.
    unreadableFrom = Math.floor(bytes.length / 2);
    const failing = t.keys();
    let walked = 0;
    await expect(
      (async () => {
        for (let r = await failing.next(); r.done !== true; r = await failing.next()) walked++;
      })(),
    ).rejects.toThrow("unreadable at");
    expect(walked).toBeGreaterThan(0);
    expect(await failing.next()).toEqual({ done: true, value: undefined });
    expect(core.liveHandles()).toBe(before + 1);
    t.dispose();
    expect(core.liveHandles()).toBe(before);
  });
});

test("openTableFile exists only in the Node entries; the browser build imports no node: module", async () => {
  const { SstFilter, NodeSstFilter } = await import("sstfilter");
  expect("openTableFile" in SstFilter.prototype).toBe(false);
  expect("openTableFile" in NodeSstFilter.prototype).toBe(true);
  const dist = path.join(__dirname, "..", "..", "dist", "esm");
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      expect([file, spec]).not.toEqual([file, expect.stringMatching(/^node:/)]);
      if (spec!.startsWith(".")) visit(path.join(path.dirname(file), spec!));
    }
  };
  visit(path.join(dist, "platform", "browser.js"));
  expect(seen.size).toBeGreaterThan(5);
});
