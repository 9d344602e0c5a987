import { readFileSync } from "node:fs";

import { SstFilterError, type KeyBatch, type SstFilter, type Table } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { blockEntries, FIXTURES, GENERATED, fixtureKeys } from "./golden";

// Corruption sweep (issue 8) over a representative subset of the golden tables, through the public
// API on both wasm modules: each file truncated, and each bit flipped, at every offset the reader
// looks at when opening (footer, metaindex, properties, index, filter and its partitions) and at
// sampled offsets elsewhere. Every outcome is an SstFilterError with a code and an offset in the file,
// or a table whose answers are conservative: every key stored in the file may be contained, and
// walking the keys gives them all or an error. The checksums make part of this exact: a flip inside
// a block read at open is a CHECKSUM_MISMATCH naming that block (every subset file has a checksum;
// CRC32C catches every single-bit error, the xxHash family does here), except in the 8 bytes of an
// ingested file's global seqno, which RocksDB rewrites in place without updating the checksum
// (meta_blocks.cc) and so cannot check; fv >= 6 footers carry a checksum of their own. The rest of
// a fv < 6 or LevelDB footer (checksum type, handles, padding, version) is unchecked: a flip there
// may open a table (e.g. with checksum type "none"), which must then still answer conservatively.
// Damage to its padding or to the global seqno changes nothing the reader relies on: the table
// must open.

interface Case {
  id: string;
  path: string; // absolute
  internalKeys: boolean;
  keys: Uint8Array[];
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const FIXTURE_FOLDERS = { head: "head", v11_kv: "v11-kv", v11_meta: "v11-meta" } as const;

function goldenCase(
  section: "rocksdb_sst" | "leveldb_table" | keyof typeof FIXTURE_FOLDERS,
  id: string,
): Case {
  if (section === "head" || section === "v11_kv" || section === "v11_meta") {
    const folder = FIXTURE_FOLDERS[section];
    const c = FIXTURES.find<any>(section, id);
    return {
      id: `${folder}/${id}`,
      path: FIXTURES.path(`${folder}/${c.file}`),
      internalKeys: true,
      keys: fixtureKeys({ ...c, corpus: FIXTURES }, folder),
    };
  }
  const c = GENERATED.find<any>(section, id);
  return {
    id: `${section}/${id}`,
    path: GENERATED.path(c.file.path),
    internalKeys: c.internal_keys !== false,
    keys: GENERATED.readKeys(c.keys.path),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

// format_versions 2-7; checksums CRC32C, xxHash, xxHash64, XXH3; legacy Bloom, FastLocalBloom,
// Ribbon; full, partitioned (mixed kinds) and LevelDB filter blocks; prefix filters; snappy, lz4
// and zlib blocks; RocksDB 11 data blocks with values apart, a user-defined (trie) index, a custom
// codec's blocks (UNSUPPORTED, never a misread); user-key and internal-key LevelDB tables.
const CASES: Case[] = [
  goldenCase("rocksdb_sst", "fv2_bloom10_crc32c"),
  goldenCase("rocksdb_sst", "fv3_bloom10_xxhash64_snappy"),
  goldenCase("rocksdb_sst", "fv4_legacy1_n300"),
  goldenCase("rocksdb_sst", "fv5_bloom10_xxh3"),
  goldenCase("rocksdb_sst", "fv5_ribbon9p9_n10"),
  goldenCase("rocksdb_sst", "part_ribbon10_mbs256_mixed_impls"),
  goldenCase("rocksdb_sst", "prefix_capped4_wkf0"),
  goldenCase("head", "fv6-bloom8-fixed5-whole-lz4"),
  goldenCase("head", "fv7-bloom12-capped5-nowhole-zlib"),
  goldenCase("v11_kv", "kv-bloom-part-snappy"),
  goldenCase("v11_kv", "kv-ribbon-fixed4-nowhole-zlib"),
  goldenCase("v11_meta", "trie-index-zstd-uniform"),
  goldenCase("v11_meta", "custom-codec-0x81"),
  goldenCase("leveldb_table", "tb_b10_tiny_with_empty"),
  goldenCase("leveldb_table", "db_b10_bs1024"),
  goldenCase("leveldb_table", "tb_b10_bs1024_snappy"),
];

// Offsets outside what opening reads, per file.
const SAMPLES = 64;
// A single outcome taking longer than this is a hang.
const MAX_OUTCOME_MS = 2000;
const CODES = new Set(["TRUNCATED", "CORRUPT", "CHECKSUM_MISMATCH", "UNSUPPORTED", "RESOURCE_LIMIT"]);

type Range = [start: number, end: number];

/** What opening reads, recorded through a ByteSource: the footer read, then each block. */
async function openTimeReads(sf: SstFilter, c: Case, bytes: Uint8Array): Promise<Range[]> {
  const reads: Range[] = [];
  const source = {
    size: bytes.length,
    read: async (offset: number, length: number) => {
      reads.push([offset, offset + length]);
      return bytes.subarray(offset, offset + length);
    },
  };
  (await sf.openTableFrom(source, { internalKeys: c.internalKeys })).dispose();
  return reads;
}

/** Where the global seqno's value lies in the properties block (read with its trailer). */
function seqnoRange(bytes: Uint8Array, block: Range | undefined): Range | null {
  if (block === undefined) return null;
  const contents = bytes.subarray(block[0], block[1] - 5);
  const name = Buffer.from("rocksdb.external_sst_file.global_seqno");
  const entry = blockEntries(contents).find((e) => Buffer.compare(e.key, name) === 0);
  if (entry === undefined) return null;
  const at = block[0] + entry.value.byteOffset - contents.byteOffset;
  return [at, at + entry.value.length];
}

/** `error` must be an SstFilterError with a table-reading code and an offset within the file. */
function typedError(error: unknown, what: string, size: number): SstFilterError {
  if (!(error instanceof SstFilterError)) throw new Error(`${what}: threw ${String(error)}`);
  const { offset } = error;
  if (!CODES.has(error.code) || !Number.isSafeInteger(offset) || offset! < 0 || offset! > size) {
    throw new Error(`${what}: ${error.code} at ${String(error.offset)}: ${error.message}`);
  }
  return error;
}

class Sweep {
  readonly outcomes = new Map<string, number>();
  private slowest = 0;

  constructor(
    private readonly sf: SstFilter,
    private readonly c: Case,
    private readonly stored: KeyBatch,
    private readonly size: number,
  ) {}

  count(outcome: string): void {
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
  }

  get slowestMs(): number {
    return this.slowest;
  }

  /** Opens `bytes`; returns the table, or the typed error it failed with. */
  open(bytes: Uint8Array, what: string): Table | SstFilterError {
    const started = performance.now();
    try {
      return this.sf.openTable(bytes, { internalKeys: this.c.internalKeys });
    } catch (error) {
      return typedError(error, what, bytes.length);
    } finally {
      this.slowest = Math.max(this.slowest, performance.now() - started);
    }
  }

  /** An open table must answer conservatively for every stored key; `walk` also reads its keys. */
  checkAnswers(t: Table, what: string, walk: boolean): void {
    const started = performance.now();
    try {
      const answers = t.mayContainMany(this.stored);
      const missed = answers.indexOf(0);
      if (missed >= 0) throw new Error(`${what}: stored key ${missed} reported absent`);
      this.checkLayout(t, what);
      if (walk) this.walk(t, what);
    } catch (error) {
      if (!(error instanceof SstFilterError)) throw error;
      this.count(`probe ${typedError(error, what, this.size).code}`);
    } finally {
      t.dispose();
      this.slowest = Math.max(this.slowest, performance.now() - started);
    }
  }

  /** The layout of what opened: a typed error, or regions in file order up to the file's end. */
  private checkLayout(t: Table, what: string): void {
    try {
      const regions = t.layout();
      regions.forEach((r, i) => {
        if (i > 0 && r.offset < regions[i - 1]!.offset)
          throw new Error(`${what}: layout out of order at ${i}`);
      });
      const last = regions.at(-1)!;
      if (last.kind !== "footer" || last.offset + last.size !== this.size) {
        throw new Error(`${what}: the layout ends with ${last.kind} at ${last.offset + last.size}`);
      }
    } catch (error) {
      if (!(error instanceof SstFilterError)) throw error;
      this.count(`layout ${typedError(error, what, this.size).code}`);
    }
  }

  private walk(t: Table, what: string): void {
    let i = 0;
    for (const key of t.keys()) {
      const expected = this.c.keys[i++];
      if (expected === undefined || Buffer.compare(key, expected) !== 0) {
        throw new Error(`${what}: key ${i - 1} differs`);
      }
    }
    if (i !== this.c.keys.length) throw new Error(`${what}: ${i} keys of ${this.c.keys.length}`);
  }
}

function varintSize(value: number): number {
  let n = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) n++;
  return n;
}

function inRange(offset: number, r: Range | null | undefined): boolean {
  return r != null && offset >= r[0] && offset < r[1];
}

/** Dense offsets (every byte of `ranges`) and `SAMPLES` evenly spread ones elsewhere. */
function sweepOffsets(size: number, ranges: Range[]): { dense: number[]; sampled: number[] } {
  const dense = new Set<number>();
  for (const [start, end] of ranges) for (let o = start; o < end; o++) dense.add(o);
  const sampled: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const o = Math.floor(((i + 0.5) * size) / SAMPLES);
    if (!dense.has(o)) sampled.push(o);
  }
  return { dense: [...dense].sort((a, b) => a - b), sampled };
}

describe.each(BACKENDS)("corruption sweep on $name", ({ simd }) => {
  let sf: SstFilter;
  const totals = { flips: 0, truncations: 0, opened: 0 };
  const outcomes: string[] = [];

  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  afterAll(() => {
    console.log(
      `corruption sweep: ${totals.flips} bit flips, ${totals.truncations} truncations, ` +
        `${totals.opened} opened despite the damage\n${outcomes.join("\n")}`,
    );
  });

  test.each(CASES.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    const bytes = new Uint8Array(readFileSync(c.path));
    const reads = await openTimeReads(sf, c, bytes);
    const [footerRead, ...blocks] = reads;
    expect(footerRead![1]).toBe(bytes.length);
    const reference = sf.openTable(bytes, { internalKeys: c.internalKeys });
    const { formatVersion, metaindexHandle, indexHandle } = reference.footer;
    const legacyFooter = reference.format === "leveldb" || formatVersion === 0;
    const propertiesHandle = reference.metaindex["rocksdb.properties"];
    reference.dispose();
    const footer: Range = [bytes.length - (legacyFooter ? 48 : 53), bytes.length];
    // fv < 6 footers: the handles, then padding nothing reads, up to the version / magic number.
    const handlesEnd =
      footer[0] +
      (legacyFooter ? 0 : 1) +
      [...metaindexHandle, ...indexHandle].reduce((n, v) => n + varintSize(v), 0);
    const padding: Range | null =
      formatVersion < 6 ? [handlesEnd, bytes.length - (legacyFooter ? 8 : 12)] : null;
    const properties = blocks.find((b) => b[0] === propertiesHandle?.[0]);
    const seqno = seqnoRange(bytes, properties);
    const sweep = new Sweep(sf, c, sf.packKeys(c.keys), bytes.length);
    const { dense, sampled } = sweepOffsets(bytes.length, [footer, ...blocks]);

    for (const offset of [...dense, ...sampled]) {
      const block = blocks.find((b) => inRange(offset, b));
      const exact = block !== undefined && !inRange(offset, seqno);
      // Bytes no checksum covers and nothing relies on: damage there must not matter.
      const ignored = inRange(offset, seqno) || inRange(offset, padding);
      for (let bit = 0; bit < 8; bit++) {
        const what = `${c.id}: bit ${bit} of byte ${offset}`;
        const damaged = bytes.slice();
        damaged[offset]! ^= 1 << bit;
        const outcome = sweep.open(damaged, what);
        totals.flips++;
        if (outcome instanceof SstFilterError) {
          if (exact && (outcome.code !== "CHECKSUM_MISMATCH" || outcome.offset !== block![0])) {
            throw new Error(
              `${what}: ${outcome.code} at ${outcome.offset}, expected the checksum of ${block![0]}`,
            );
          }
          if (ignored) throw new Error(`${what}: ${outcome.code}, but nothing relies on these bytes`);
          sweep.count(outcome.code);
          continue;
        }
        if (exact) throw new Error(`${what}: opened although the block's checksum covers it`);
        if (inRange(offset, footer) && formatVersion >= 6)
          throw new Error(`${what}: opened; the footer has a checksum`);
        totals.opened++;
        sweep.count("opened");
        // Walking reads every data block: for the sampled offsets only (mostly in data blocks).
        sweep.checkAnswers(outcome, what, !inRange(offset, footer) && block === undefined);
      }
    }

    for (const length of [...dense, ...sampled]) {
      const what = `${c.id}: truncated to ${length} bytes`;
      const outcome = sweep.open(bytes.subarray(0, length), what);
      totals.truncations++;
      if (!(outcome instanceof SstFilterError)) throw new Error(`${what}: opened`);
      sweep.count(`truncated: ${outcome.code}`);
    }
    // The lazy path: a source that claims the whole size but ends early.
    for (const length of sampled) {
      const source = {
        size: bytes.length,
        read: async (offset: number, n: number) =>
          bytes.subarray(Math.min(offset, length), Math.min(offset + n, length)),
      };
      await expect(sf.openTableFrom(source, { internalKeys: c.internalKeys })).rejects.toMatchObject({
        code: "TRUNCATED",
        offset: expect.any(Number),
      });
    }

    expect(sweep.slowestMs).toBeLessThan(MAX_OUTCOME_MS);
    outcomes.push(`${c.id}: ${JSON.stringify(Object.fromEntries(sweep.outcomes))}`);
  });
});
