// The corpora the TypeScript tests check sstfilter against (layout: tests/corpus/README.md): the
// corpus generated from RocksDB and LevelDB into build/corpus/native (required), the fixtures
// committed under tests/corpus/fixtures, the stores of a Chromium profile (build/corpus/chromium)
// and the shared golden corpus when they are present ($SSTFILTER_GOLDEN_DIR, else ../shared/golden
// beside the repository).
import { readFileSync, existsSync } from "node:fs";
import * as path from "node:path";

const REPO = path.resolve(__dirname, "..", "..");

/** One corpus root: a folder whose manifest.json names its sections; paths are relative to it. */
export class Corpus {
  constructor(
    readonly name: string,
    readonly dir: string,
  ) {}

  static load(name: string, dir: string): Corpus | undefined {
    return existsSync(path.join(dir, "manifest.json")) ? new Corpus(name, path.resolve(dir)) : undefined;
  }

  path(relative: string): string {
    return path.join(this.dir, relative);
  }

  readBytes(relative: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(readFileSync(this.path(relative)));
  }

  readJson<T>(relative: string): T {
    return JSON.parse(readFileSync(this.path(relative), "utf8")) as T;
  }

  readKeys(relative: string): Uint8Array[] {
    return parseKeys(this.readBytes(relative));
  }

  readU32s(relative: string): Uint32Array {
    const data = this.readBytes(relative);
    const out = new Uint32Array(data.length / 4);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < out.length; i++) out[i] = view.getUint32(4 * i, true);
    return out;
  }

  /** The manifest of `section`, or undefined when this corpus has no such section. */
  section<T>(section: string): T | undefined {
    const sections = this.readJson<{ sections: Record<string, { path: string }> }>("manifest.json").sections;
    const entry = sections[section];
    return entry ? this.readJson<T>(entry.path) : undefined;
  }

  /** The case of `section` with this id; throws if there is none. */
  find<T extends { id: string }>(section: string, id: string): T {
    const found = this.section<{ cases: T[] }>(section)?.cases.find((c) => c.id === id);
    if (!found)
      throw new Error(`no case ${id} in section ${section} of the ${this.name} corpus (${this.dir})`);
    return found;
  }
}

function required(name: string, dir: string, hint: string): Corpus {
  const corpus = Corpus.load(name, dir);
  if (!corpus) throw new Error(`the ${name} corpus is missing: no manifest.json in ${dir} (${hint})`);
  return corpus;
}

export const GENERATED = required(
  "generated",
  process.env.SSTFILTER_CORPUS_DIR ?? path.join(REPO, "build", "corpus", "native"),
  "run `bash scripts/corpus.sh`, or set SSTFILTER_CORPUS_DIR",
);
export const FIXTURES = required(
  "fixtures",
  path.join(REPO, "tests", "corpus", "fixtures"),
  "part of the repository",
);
/** The optional extra corpus. */
export const EXTRA = Corpus.load(
  "shared",
  process.env.SSTFILTER_GOLDEN_DIR ?? path.join(REPO, "..", "shared", "golden"),
);
/**
 * The stores of a Chromium profile (section chromium_stores, tests/corpus/node/chromium.mjs), when
 * scripts/corpus.sh generated them ($SSTFILTER_CHROMIUM_CORPUS_DIR, else build/corpus/chromium).
 */
export const CHROMIUM = Corpus.load(
  "chromium",
  process.env.SSTFILTER_CHROMIUM_CORPUS_DIR ?? path.join(REPO, "build", "corpus", "chromium"),
);
/** The part of the corpus npm's database packages write (tests/corpus/node; scripts/corpus.sh). */
export const NODE_CORPUS = required(
  "node",
  process.env.SSTFILTER_NODE_CORPUS_DIR ?? path.join(REPO, "build", "corpus", "node"),
  "run `bash scripts/corpus.sh`, or set SSTFILTER_NODE_CORPUS_DIR",
);

/** A database rocksdb-native (RocksDB 10.x) or classic-level wrote, and its get for each probe. */
export interface LibraryGetCase {
  id: string;
  format: "rocksdb" | "leveldb";
  dir: string;
  probes: string[];
  answers: (string | null)[];
}

/** The node corpus's node_db_get cases with their folders; throws when there are none. */
export function libraryGetCases(): (LibraryGetCase & { dirPath: string })[] {
  const cases = NODE_CORPUS.section<{ cases: LibraryGetCase[] }>("node_db_get")?.cases ?? [];
  if (cases.length === 0) throw new Error(`no node_db_get cases in ${NODE_CORPUS.dir}`);
  return cases.map((c) => ({ ...c, dirPath: NODE_CORPUS.path(c.dir) }));
}

export const CORPORA: Corpus[] = [
  GENERATED,
  FIXTURES,
  ...(CHROMIUM ? [CHROMIUM] : []),
  ...(EXTRA ? [EXTRA] : []),
];

export function corporaSummary(): string {
  return CORPORA.map((c) => `${c.name} (${c.dir})`).join(", ");
}

/** Every case of `section` across the corpora, each with its corpus; throws when there are none. */
export function sectionCases<T>(section: string): (T & { corpus: Corpus })[] {
  const cases = CORPORA.flatMap((corpus) =>
    (corpus.section<{ cases: T[] }>(section)?.cases ?? []).map((c) => ({ ...c, corpus })),
  );
  if (cases.length === 0) throw new Error(`no ${section} cases in ${corporaSummary()}`);
  return cases;
}

/** A .keys file: u32 little-endian length, then that many bytes, repeated. */
/**
 * The keys of a case of the committed RocksDB 11 fixtures (`head`, `v11-kv`) in `folder`: a `.keys`
 * file beside its table (the fixtures), or inline hex (as the shared corpus writes them).
 */
export function fixtureKeys(
  c: { corpus: Corpus; id?: string; keys?: string[] | { path: string } },
  folder = "head",
): Uint8Array[] {
  if (c.keys === undefined) throw new Error(`${c.corpus.name}:${folder}/${c.id}: no keys`);
  return Array.isArray(c.keys) ? c.keys.map(hexToBytes) : c.corpus.readKeys(`${folder}/${c.keys.path}`);
}

export function parseKeys(data: Uint8Array): Uint8Array[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const keys: Uint8Array[] = [];
  for (let pos = 0; pos < data.length;) {
    const n = view.getUint32(pos, true);
    pos += 4;
    keys.push(data.subarray(pos, pos + n));
    pos += n;
  }
  return keys;
}

export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** First index where two byte arrays differ, for failure messages. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function varint(data: Uint8Array, at: { pos: number }): number {
  let result = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = data[at.pos++]!;
    result += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return result;
  }
}

/** Entries of an uncompressed table block (test oracle for golden files only). */
export function blockEntries(block: Uint8Array): { key: Uint8Array; value: Uint8Array }[] {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const restarts = view.getUint32(block.length - 4, true);
  const end = block.length - 4 * (restarts + 1);
  const entries: { key: Uint8Array; value: Uint8Array }[] = [];
  let key = new Uint8Array(0);
  for (const at = { pos: 0 }; at.pos < end;) {
    const shared = varint(block, at);
    const nonShared = varint(block, at);
    const valueSize = varint(block, at);
    const next = new Uint8Array(shared + nonShared);
    next.set(key.subarray(0, shared));
    next.set(block.subarray(at.pos, at.pos + nonShared), shared);
    key = next;
    at.pos += nonShared;
    entries.push({ key, value: block.subarray(at.pos, at.pos + valueSize) });
    at.pos += valueSize;
  }
  return entries;
}

/** A block handle: varint64 offset, varint64 size. */
export function blockHandle(value: Uint8Array): { offset: number; size: number } {
  const at = { pos: 0 };
  const offset = varint(value, at);
  return { offset, size: varint(value, at) };
}

/** Where a section recorded the entries the library's own iterator yields (tests/corpus/README.md). */
export interface EntriesRecord {
  count: number;
  keys: string;
  values: string;
  /** 8 little-endian bytes per entry (sequence << 8 | type); null for tables of user keys. */
  tags?: string | null;
  /** 8 bytes per entry, as stored: the user-defined timestamps. */
  timestamps?: string;
}

/** One recorded entry, in the shape of sstfilter's Entry. */
export interface RecordedEntry {
  key: Uint8Array;
  value: Uint8Array;
  timestamp?: Uint8Array;
  seq?: bigint;
  typeCode?: number;
}

export function recordedEntries(corpus: Corpus, record: EntriesRecord): RecordedEntry[] {
  const keys = corpus.readKeys(record.keys);
  const values = corpus.readKeys(record.values);
  const tags = record.tags ? corpus.readBytes(record.tags) : null;
  const timestamps = record.timestamps === undefined ? null : corpus.readBytes(record.timestamps);
  if (keys.length !== record.count || values.length !== record.count) {
    throw new Error(
      `${record.keys}: ${keys.length} keys and ${values.length} values, ${record.count} recorded`,
    );
  }
  return keys.map((key, i) => {
    const e: RecordedEntry = { key, value: values[i]! };
    if (timestamps !== null) e.timestamp = timestamps.subarray(8 * i, 8 * i + 8);
    if (tags !== null) {
      const tag = new DataView(tags.buffer, tags.byteOffset + 8 * i, 8).getBigUint64(0, true);
      e.seq = tag >> 8n;
      e.typeCode = Number(tag & 0xffn);
    }
    return e;
  });
}

/** Why entry `ours` is not the recorded `theirs` (key, timestamp, sequence, type, value), or null. */
export function entryDifference(
  ours: { key: Uint8Array; value: Uint8Array; timestamp?: Uint8Array; seq?: bigint; typeCode?: number },
  theirs: RecordedEntry,
): string | null {
  const hex = (b: Uint8Array | undefined) => (b === undefined ? "none" : Buffer.from(b).toString("hex"));
  if (!bytesEqual(ours.key, theirs.key)) return `key ${hex(ours.key)}, recorded ${hex(theirs.key)}`;
  if (hex(ours.timestamp) !== hex(theirs.timestamp)) {
    return `timestamp ${hex(ours.timestamp)}, recorded ${hex(theirs.timestamp)}`;
  }
  if (ours.seq !== theirs.seq) return `seq ${ours.seq}, recorded ${theirs.seq}`;
  if (ours.typeCode !== theirs.typeCode) return `type ${ours.typeCode}, recorded ${theirs.typeCode}`;
  if (!bytesEqual(ours.value, theirs.value)) return `value ${hex(ours.value)}, recorded ${hex(theirs.value)}`;
  return null;
}

/** Throws naming the first entry where `ours` and the recorded entries part. */
export function expectSameEntries(
  id: string,
  ours: Parameters<typeof entryDifference>[0][],
  theirs: RecordedEntry[],
): void {
  for (let i = 0; i < Math.min(ours.length, theirs.length); i++) {
    const why = entryDifference(ours[i]!, theirs[i]!);
    if (why !== null) throw new Error(`${id}: entry ${i}: ${why}`);
  }
  if (ours.length !== theirs.length)
    throw new Error(`${id}: ${ours.length} entries, ${theirs.length} recorded`);
}

/** One entry of a table_writer case (entries.bin): the RocksDB value type, key and value. */
export interface WriterEntry {
  type: number; // 1 put, 0 delete, 2 merge, 0x0f range deletion (value: the end key)
  key: Uint8Array;
  value: Uint8Array;
}

/** The entries file of a table_writer case: u8 type, u32le key length, key, u32le value length, value. */
export function writerEntries(data: Uint8Array): WriterEntry[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out: WriterEntry[] = [];
  for (let pos = 0; pos < data.length;) {
    const type = data[pos]!;
    const keyLength = view.getUint32(pos + 1, true);
    const key = data.subarray(pos + 5, pos + 5 + keyLength);
    pos += 5 + keyLength;
    const valueLength = view.getUint32(pos, true);
    const value = data.subarray(pos + 4, pos + 4 + valueLength);
    pos += 4 + valueLength;
    out.push({ type, key, value });
  }
  return out;
}

/** A library's Get as the corpus records it (db_twopc, db_wal_damage): the value in hex, or not found. */
export interface GetAnswer {
  status: "ok" | "not-found";
  value?: string;
}

/**
 * The probes whose value from `get` differs from the library's `answers`, each as "probe i key:
 * ours X, <library> Y" (values in hex, cut to 40 digits).
 */
export async function getMismatches(
  get: (key: Uint8Array) => Promise<Uint8Array | null | undefined>,
  probes: readonly Uint8Array[],
  answers: readonly GetAnswer[],
  library: string,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const [i, key] of probes.entries()) {
    const value = await get(key);
    const theirs = answers[i];
    const expected = theirs?.status === "ok" ? theirs.value!.toLowerCase() : null;
    const got = value === null || value === undefined ? null : Buffer.from(value).toString("hex");
    if (got !== expected) {
      const name = Buffer.from(key).toString("latin1");
      wrong.push(`probe ${i} ${name}: ours ${got?.slice(0, 40)}, ${library} ${expected?.slice(0, 40)}`);
    }
  }
  return wrong;
}
