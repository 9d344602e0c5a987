// db.get over wide-column entities (ts/api/db-get.ts, docs/FORMATS.md 6.6): the rocksdb_values
// section's "entities" table (RocksDB 7.8.3's PutEntity and one Put, flushed) made a database with a
// MANIFEST naming it (the test build's singleTableManifest, FORMATS 6.8). DB::Get answers an entity
// with its default column's value, empty when it has none (rocksdb GetContext::SaveValue,
// WideColumnSerialization::GetValueOfDefaultColumn), so the expected value is the column with the
// empty name among the columns GetEntity recorded. And the same from the memtable: the db_wal
// section's rocksdb_wal_kinds database, whose column family cf1 holds two entities in its WAL only.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import type { NodeSstFilter } from "sstfilter";

import { sectionCases } from "./golden";
import { loadTestingBackend, type TestingHooks } from "./testing-backend";

interface EntitiesCase {
  id: string;
  file: { path: string };
  get_entity?: { key: string; names: string; values: string }[];
}

const CASES = sectionCases<EntitiesCase>("rocksdb_values")
  .filter((c) => c.get_entity !== undefined)
  .map((c) => ({ ...c, name: `${c.corpus.name}:${c.id}`, path: c.corpus.path(c.file.path) }));

// rocksdb db/dbformat.h ValueType of the entries the case's table holds.
const TYPE_BYTES: Record<string, number> = { put: 0x01, "wide-column-entity": 0x16 };

interface WalCase {
  id: string;
  copied: Record<string, string>;
}

// The entities tests/corpus/native/wal_section.cc writes to cf1 (EveryKind, the batch), by their
// default columns: what DB::Get answers for them.
const WAL_ENTITIES: [string, string][] = [
  ["c-entity", "default-column"],
  ["b-entity", "v"],
];

const WAL_CASES = sectionCases<WalCase>("db_wal")
  .filter((c) => c.id === "rocksdb_wal_kinds")
  .map((c) => ({
    ...c,
    name: `${c.corpus.name}:${c.id}`,
    dir: path.dirname(c.corpus.path(Object.values(c.copied)[0]!)),
  }));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

let sf: NodeSstFilter;
let hooks: TestingHooks;
let work: string;

beforeAll(async () => {
  ({ sf, hooks } = await loadTestingBackend(true));
  work = mkdtempSync(path.join(tmpdir(), "sstfilter-db-get-values-"));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A database directory holding `table` as 000005.sst on level 6, its MANIFEST, CURRENT and IDENTITY. */
function databaseOf(name: string, table: Uint8Array): string {
  using t = sf.openTable(table);
  const entries = [...t.entries()];
  const internal = (i: number) => {
    const e = entries[i]!;
    const trailer = Buffer.alloc(8);
    trailer.writeBigUInt64LE(((e.seq ?? 0n) << 8n) | BigInt(TYPE_BYTES[e.type ?? "put"]!));
    return hex(e.key) + trailer.toString("hex");
  };
  const largestSeq = entries.reduce((m, e) => ((e.seq ?? 0n) > m ? e.seq! : m), 0n);
  const manifest = hooks.singleTableManifest(
    5,
    table.length,
    6,
    internal(0),
    internal(entries.length - 1),
    Number(largestSeq),
  );
  if (manifest === null) throw new Error(`${name}: no MANIFEST`);
  const dir = path.join(work, name.replace(/[^a-z0-9_-]/gi, "_"));
  mkdirSync(dir);
  writeFileSync(path.join(dir, "000005.sst"), table);
  writeFileSync(path.join(dir, "MANIFEST-000001"), manifest);
  writeFileSync(path.join(dir, "CURRENT"), "MANIFEST-000001\n");
  writeFileSync(path.join(dir, "IDENTITY"), `${name}\n`); // marks the directory RocksDB's
  return dir;
}

test("the corpus has an entities case and a WAL with entities", () => {
  expect(CASES.length).toBeGreaterThan(0);
  expect(WAL_CASES.length).toBeGreaterThan(0);
  for (const c of CASES) expect([c.name, c.get_entity!.length > 5]).toEqual([c.name, true]);
});

describe.each(CASES)("$name", (c) => {
  test("db.get gives every key's default column, as DB::Get does", async () => {
    const db = await sf.openDatabase(databaseOf(c.name, readFileSync(c.path)));
    let withoutDefault = 0;
    for (const recorded of c.get_entity!) {
      const names = c.corpus.readKeys(recorded.names);
      const values = c.corpus.readKeys(recorded.values);
      const at = names.findIndex((n) => n.length === 0);
      if (at < 0) withoutDefault++;
      const expected = at < 0 ? "" : hex(values[at]!);
      const got = await db.get(Buffer.from(recorded.key, "latin1"));
      expect([recorded.key, got === null ? null : hex(got)]).toEqual([recorded.key, expected]);
      const explained = await db.explainGet(Buffer.from(recorded.key, "latin1"));
      expect([recorded.key, explained.result.outcome, explained.steps.at(-1)?.entry]).toEqual([
        recorded.key,
        "found",
        "value",
      ]);
    }
    // Entities without a default column answer the empty value, not "not found".
    expect([c.name, withoutDefault > 0]).toEqual([c.name, true]);
    db.dispose();
  });
});

describe.each(WAL_CASES)("$name", (c) => {
  test("db.get answers the memtable's entities with their default column", async () => {
    const db = await sf.openDatabase(c.dir);
    for (const [key, expected] of WAL_ENTITIES) {
      const explained = await db.explainGet(key, { columnFamily: "cf1" });
      const step = explained.steps.find((s) => s.entry !== "none");
      expect([key, explained.result.outcome, step?.where, step?.entry]).toEqual([
        key,
        "found",
        "memtable",
        "value",
      ]);
      expect([key, Buffer.from((await db.get(key, { columnFamily: "cf1" }))!).toString()]).toEqual([
        key,
        expected,
      ]);
    }
    db.dispose();
  });
});
