// User-defined timestamps (comparator leveldb.BytewiseComparator.u64ts): entries, get(), ranges,
// mayContain and `sstfilter scan` on the tables of the rocksdb_timestamp section, against what
// RocksDB 7.8.3 recorded (its iterator over every version, its Get at several read timestamps)
// and against Debian's sst_dump 7.8.3, which prints the stored key (timestamp included).
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

import { type Entry, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import {
  bytesEqual,
  expectSameEntries,
  recordedEntries,
  sectionCases,
  type EntriesRecord,
  type RecordedEntry,
} from "./golden";
import { CLI } from "./cli-path";

const MAX_TS = new Uint8Array(8).fill(0xff);

interface TimestampCase {
  id: string;
  file: { path: string };
  options: { partition_filters: boolean; timestamp_size: number };
  entries: EntriesRecord & { types: number[] };
  probes: { path: string };
  /** The database the Gets read (closed after them); absent in older corpora. */
  database?: { dir: string; files: string[] };
  reads: {
    read_timestamp: string;
    read_timestamp_decimal: string;
    get_results: string;
    found: string;
    values: string;
    timestamps: string;
  }[];
}

const CASES = sectionCases<TimestampCase>("rocksdb_timestamp").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  path: c.corpus.path(c.file.path),
  recorded: recordedEntries(c.corpus, c.entries),
}));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex").toUpperCase();
const u64 = (ts: Uint8Array): bigint => new DataView(ts.buffer, ts.byteOffset, 8).getBigUint64(0, true);
const join = (key: Uint8Array, ts: Uint8Array): Uint8Array => Uint8Array.from([...key, ...ts]);

/** sst_dump's scan lines: its output after the header, which ends with the "from [...]" line. */
function sstDumpScan(file: string, flags: string[] = []): Buffer {
  const out = execFileSync("sst_dump", [`--file=${file}`, "--command=scan", ...flags], {
    maxBuffer: 1 << 30,
  });
  const header = out.indexOf("\nfrom [");
  return out.subarray(out.indexOf(10, header + 1) + 1);
}

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has timestamp tables with puts and deletions", () => {
  expect(CASES.length).toBeGreaterThan(0);
  for (const c of CASES) {
    expect([c.name, c.options.timestamp_size]).toEqual([c.name, 8]);
    expect([c.name, c.entries.types.includes(1) && c.entries.types.includes(0x14)]).toEqual([c.name, true]);
  }
});

describe.each(CASES)("$name", (c) => {
  test("entries (sync and async): keys without timestamps, timestamps, seq, type, value as RocksDB's iterator", async () => {
    using t = sf.openTable(readFileSync(c.path));
    expectSameEntries(c.name, [...t.entries()], c.recorded);
    const f = await sf.openTableFile(c.path);
    const fromFile: Entry[] = [];
    for await (const e of f.entries()) fromFile.push(e);
    f.dispose();
    expectSameEntries(`${c.name} (async)`, fromFile, c.recorded);
    // keys() gives the user keys without timestamps too, one per version.
    const keys = [...t.keys()];
    expect(keys.length).toBe(c.recorded.length);
    expect(keys.every((k, i) => bytesEqual(k, c.recorded[i]!.key))).toBe(true);
  });

  test("scan lines equal sst_dump's (the stored key, timestamp included), plain and --output_hex", () => {
    using t = sf.openTable(readFileSync(c.path));
    for (const outputHex of [false, true]) {
      const ours = Buffer.concat([...t.scanText({}, { hex: outputHex })]);
      const theirs = sstDumpScan(c.path, outputHex ? ["--output_hex"] : []);
      expect([c.name, outputHex, ours.equals(theirs)]).toEqual([c.name, outputHex, true]);
    }
  });

  test("from/to/prefix take user keys without timestamps: every version in or out together", () => {
    using t = sf.openTable(readFileSync(c.path));
    const all = c.recorded;
    const a = all[Math.floor(all.length / 3)]!.key;
    const b = all[Math.floor((2 * all.length) / 3)]!.key;
    const within = (e: RecordedEntry) => Buffer.compare(e.key, a) >= 0 && Buffer.compare(e.key, b) < 0;
    expectSameEntries(`${c.name} from..to`, [...t.entries({ from: a, to: b })], all.filter(within));
    const prefix = a.subarray(0, Math.max(1, a.length - 1));
    expectSameEntries(
      `${c.name} prefix`,
      [...t.entries({ prefix })],
      all.filter(
        (e) => e.key.length >= prefix.length && bytesEqual(e.key.subarray(0, prefix.length), prefix),
      ),
    );
    // sst_dump seeks --from as a stored key, timestamp included: the key at the largest timestamp
    // starts at its newest version. (Its --to compares stored keys bytewise, timestamp included,
    // which is not the table's order, and --prefix without a timestamp trips its assertion.)
    const flags = [`--from=0x${hex(join(a, MAX_TS))}`, "--input_key_hex", "--read_num=50", "--output_hex"];
    const ours = Buffer.concat([...t.scanText({ from: a, limit: 50 }, { hex: true })]);
    expect([c.name, ours.equals(sstDumpScan(c.path, flags))]).toEqual([c.name, true]);
  });

  test("mayContain and mayContainMany give RocksDB's filter answer to Get", () => {
    using t = sf.openTable(readFileSync(c.path));
    const probes = c.corpus.readKeys(c.probes.path);
    const batch = t.mayContainMany(probes);
    let checked = 0;
    for (const read of c.reads) {
      // The partition a Get consults depends on its read timestamp; mayContain reads at the largest.
      if (c.options.partition_filters && read.read_timestamp !== "ffffffffffffffff") continue;
      const answers = c.corpus.readBytes(read.get_results);
      for (let i = 0; i < probes.length; i++) {
        if (answers[i] === 2) continue; // RocksDB did not consult this table's filter
        const single = t.mayContain(probes[i]!) ? 1 : 0;
        if (single !== answers[i] || batch[i] !== answers[i]) {
          throw new Error(
            `${c.name} read ts ${read.read_timestamp_decimal} probe ${i} (${hex(probes[i]!)}): RocksDB ${answers[i]}, mayContain ${single}, batch ${batch[i]}`,
          );
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(probes.length / 2);
  });

  test("get(key) lists every version newest first; the first at or below a read timestamp is what RocksDB's Get returns", async () => {
    using t = sf.openTable(readFileSync(c.path));
    const probes = c.corpus.readKeys(c.probes.path);
    const byKey = new Map<string, RecordedEntry[]>();
    for (const e of c.recorded) {
      const k = hex(e.key);
      byKey.set(k, [...(byKey.get(k) ?? []), e]);
    }
    const results = probes.map((p) => t.get(p));
    probes.forEach((p, i) =>
      expectSameEntries(`${c.name} get(${hex(p)})`, results[i]!, byKey.get(hex(p)) ?? []),
    );
    let found = 0;
    for (const read of c.reads) {
      const readTs = BigInt(read.read_timestamp_decimal);
      const isFound = c.corpus.readBytes(read.found);
      const values = c.corpus.readKeys(read.values);
      const stamps = c.corpus.readKeys(read.timestamps);
      probes.forEach((p, i) => {
        const visible = results[i]!.find((e) => u64(e.timestamp!) <= readTs);
        const ours = visible?.type === "put" ? 1 : 0;
        const where = `${c.name} read ts ${readTs} get(${hex(p)})`;
        expect([where, ours]).toEqual([where, isFound[i]]);
        if (ours === 1) {
          expect([where, hex(visible!.value), hex(visible!.timestamp!)]).toEqual([
            where,
            hex(values[i]!),
            hex(stamps[i]!),
          ]);
          found++;
        }
      });
    }
    expect(found).toBeGreaterThan(0);
    const f = await sf.openTableFile(c.path);
    expectSameEntries(`${c.name} async get`, await f.get(probes[0]!), results[0]!);
    f.dispose();
  });
});

const WITH_DATABASE = CASES.filter((c) => c.database !== undefined);

test("the generated corpus has the databases its Gets read", () => {
  expect(WITH_DATABASE.length).toBeGreaterThanOrEqual(3);
});

describe.each(WITH_DATABASE)("$name as a database", (c) => {
  test("db.get with readTimestamp equals RocksDB's Get at every read timestamp (the table's newer versions skipped)", async () => {
    const probes = c.corpus.readKeys(c.probes.path);
    const db = await sf.openDatabase(c.corpus.path(c.database!.dir));
    const wrong: string[] = [];
    let differing = 0;
    try {
      let newest: (string | null)[] = [];
      for (const read of c.reads) {
        const readTimestamp = BigInt(read.read_timestamp_decimal);
        const isFound = c.corpus.readBytes(read.found);
        const values = c.corpus.readKeys(read.values);
        const answers: (string | null)[] = [];
        for (const [i, p] of probes.entries()) {
          const ours = await db.get(p, { readTimestamp });
          const theirs = isFound[i] === 1 ? hex(values[i]!) : null;
          answers.push(theirs);
          if ((ours === null ? null : hex(ours)) !== theirs)
            wrong.push(
              `read ts ${readTimestamp} get(${hex(p)}): ours ${ours && hex(ours)}, RocksDB ${theirs}`,
            );
        }
        if (read.read_timestamp === "ffffffffffffffff") newest = answers;
        else if (answers.some((a, i) => a !== newest[i])) differing++;
      }
    } finally {
      db.dispose();
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(differing).toBeGreaterThan(0);
  });
});

test("sstfilter scan --json shows the timestamp apart; get prints every version as sst_dump does", () => {
  const c = CASES[0]!;
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 1 << 30 });
  const json = run("scan", c.path, "--json", "--read-num", "5").stdout.toString().trim().split("\n");
  expect(
    json.map((l) => JSON.parse(l) as { timestamp: { hex: string } }).map((e) => e.timestamp.hex),
  ).toEqual(c.recorded.slice(0, 5).map((e) => Buffer.from(e.timestamp!).toString("hex")));
  const first = c.recorded[0]!;
  const versions = c.recorded.filter((e) => bytesEqual(e.key, first.key));
  const got = run("get", c.path, Buffer.from(first.key).toString("hex"), "--hex", "--output-hex");
  expect(got.status).toBe(0);
  expect(got.stdout.toString()).toBe(
    versions
      .map((e) => `'${hex(e.key)}${hex(e.timestamp!)}' seq:${e.seq}, type:${e.typeCode} => ${hex(e.value)}\n`)
      .join(""),
  );
});
