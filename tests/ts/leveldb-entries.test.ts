// LevelDB .ldb records: t.entries() (sync and async), t.get() and `sstfilter scan` on every table
// of the leveldb_table section, against what LevelDB 1.23's own iterator over the table yields
// (leveldb::Table::Open, Table::NewIterator; recorded by tests/corpus/native/leveldb_section.cc).
// DB tables hold internal keys (some with overwrites and deletions: both LevelDB value types);
// TableBuilder tables hold user keys and give entries without seq and type. Debian's sst_dump
// 7.8.3 reads LevelDB's DB tables when the file is named .sst: their scan lines are compared too.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { type Entry, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import {
  expectSameEntries,
  recordedEntries,
  sectionCases,
  type EntriesRecord,
  type RecordedEntry,
} from "./golden";
import { CLI } from "./cli-path";

interface LevelDbCase {
  id: string;
  file: { path: string };
  internal_keys: boolean;
  history?: boolean;
  entries: EntriesRecord & { types: number[] };
}

const CASES = sectionCases<LevelDbCase>("leveldb_table")
  .filter((c) => c.entries !== undefined) // the shared corpus records no entries
  .map((c) => ({
    ...c,
    name: `${c.corpus.name}:${c.id}`,
    path: c.corpus.path(c.file.path),
    recorded: recordedEntries(c.corpus, c.entries),
  }));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex").toUpperCase();

/** The scan lines of recorded entries, in sst_dump's --output_hex format (no seq/type: 0). */
function scanLines(entries: RecordedEntry[]): string {
  return entries
    .map((e) => `'${hex(e.key)}' seq:${e.seq ?? 0n}, type:${e.typeCode ?? 0} => ${hex(e.value)}\n`)
    .join("");
}

let sf: NodeSstFilter;
let dir: string;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
  dir = mkdtempSync(path.join(tmpdir(), "sstfilter-ldb-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the corpus has LevelDB tables of user keys and of internal keys with puts and deletions", () => {
  expect(CASES.filter((c) => !c.internal_keys).length).toBeGreaterThan(0);
  const history = CASES.filter((c) => c.history === true);
  expect(history.length).toBeGreaterThan(0);
  for (const c of history) expect([c.name, c.entries.types]).toEqual([c.name, [0, 1]]);
});

describe.each(CASES)("$name", (c) => {
  const open = () => sf.openTable(readFileSync(c.path), { internalKeys: c.internal_keys });

  test("entries (sync and async) are what LevelDB's table iterator yields", async () => {
    using t = open();
    const all = [...t.entries()];
    expectSameEntries(c.name, all, c.recorded);
    const types = new Set(all.map((e) => e.type));
    if (c.internal_keys) {
      const expected = c.entries.types.map((code) => (code === 0 ? "delete" : "put")).sort();
      expect([c.name, [...types].sort()]).toEqual([c.name, expected]);
    } else {
      expect([c.name, [...types]]).toEqual([c.name, [undefined]]);
    }
    const f = await sf.openTableFile(c.path, { internalKeys: c.internal_keys });
    const fromFile: Entry[] = [];
    for await (const e of f.entries()) fromFile.push(e);
    f.dispose();
    expectSameEntries(`${c.name} (async)`, fromFile, c.recorded);
  });

  test("get(key) finds every version of the key, newest first, and nothing for absent keys", () => {
    using t = open();
    const byKey = new Map<string, RecordedEntry[]>();
    for (const e of c.recorded) byKey.set(hex(e.key), [...(byKey.get(hex(e.key)) ?? []), e]);
    // Every key with more than one version, and a sample of the others.
    const sample = [...byKey.keys()].filter((k, i) => byKey.get(k)!.length > 1 || i % 13 === 0);
    for (const k of sample) {
      expectSameEntries(`${c.name} get(${k})`, t.get(Buffer.from(k, "hex")), byKey.get(k)!);
    }
    const absent = Uint8Array.from([...c.recorded[c.recorded.length - 1]!.key, 0xff, 0xff]);
    expect([c.name, t.get(absent)]).toEqual([c.name, []]);
    expect(sample.length).toBeGreaterThan(0);
  });

  test("sstfilter scan prints the recorded entries (and sst_dump's lines where it reads the file)", () => {
    const args = ["scan", c.path, "--output-hex", ...(c.internal_keys ? [] : ["--user-keys"])];
    const r = spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 1 << 30 });
    expect([c.name, r.status, r.stderr.toString()]).toEqual([c.name, 0, ""]);
    expect([c.name, r.stdout.toString() === scanLines(c.recorded)]).toEqual([c.name, true]);
    if (!c.internal_keys) return; // sst_dump reads internal keys only
    // sst_dump opens only files named *.sst; LevelDB's tables lack the properties it looks for.
    const link = path.join(dir, `${c.id}.sst`);
    symlinkSync(c.path, link);
    const out = execFileSync("sst_dump", [`--file=${link}`, "--command=scan", "--output_hex"], {
      maxBuffer: 1 << 30,
    });
    const header = out.indexOf("\nfrom [");
    const lines = out.subarray(out.indexOf(10, header + 1) + 1);
    expect([c.name, lines.equals(r.stdout)]).toEqual([c.name, true]);
  });
});
