// Embedded blob tables (docs/FORMATS.md 3.10.3; RocksDB 11.6+ SstFileWriter::OpenWithEmbeddedBlobs),
// the v11-blob fixtures, on both wasm modules and through the `sstfilter` command: t.get() gives
// for every probe the value RocksDB 11.8.1's Get gave (manifest getValue; with wide-column
// entities, GetEntity's columns too), t.entries() the values RocksDB's table iterator read (an
// entity's same-file columns resolved), verify passes, and a byte flipped inside a blob record's payload is a CHECKSUM_MISMATCH
// naming the record, on get and on verify alike. `sstfilter get` prints the value as Get returns
// it; `sstfilter scan` prints the entries as stored, blob indexes included, as sst_dump does
// (its reader leaves them unresolved: rocksdb block_based_table_reader.cc, kSSTDumpTool).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { SstFilterError, verifyTable, type Entry, type SstFilter, type Table } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { CLI } from "./cli-path";
import { fixtureKeys, hexToBytes, sectionCases, type Corpus } from "./golden";

interface Probe {
  key: string; // hex
  getValue: string | null; // hex; null: RocksDB's Get found nothing
  /** With entities, for a key present: GetEntity's columns, [name, value] in hex. */
  getEntity?: [string, string][];
}

interface BlobCase {
  id: string;
  path: string;
  keys: Uint8Array[];
  /** The values RocksDB's table iterator read (an entity's columns resolved, serialized again). */
  values: Uint8Array[];
  /** With entities: each entry's value type as that iterator read it (1 value, 0x16 entity). */
  entryTypes: number[] | undefined;
  probes: Probe[];
}

const FOLDER = "v11-blob";
const CASES: BlobCase[] = sectionCases<{
  id: string;
  file: string;
  keys: { path: string };
  values: { path: string };
  entryTypes?: number[];
  probes: Probe[];
  corpus: Corpus;
}>("v11_blob").map((c) => ({
  id: `${c.corpus.name}:${FOLDER}/${c.id}`,
  path: c.corpus.path(`${FOLDER}/${c.file}`),
  keys: fixtureKeys(c, FOLDER),
  values: c.corpus.readKeys(`${FOLDER}/${c.values.path}`),
  entryTypes: c.entryTypes,
  probes: c.probes,
}));
const ENTITY_CASES = CASES.filter((c) => c.entryTypes?.includes(0x16));

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

/** An entry's type as RocksDB's table iterator read it: a value or a wide-column entity. */
const typeName = (code: number | undefined): string => (code === 0x16 ? "wide-column-entity" : "put");

/** What Get and GetEntity answer for the newest entry (undefined: none): null when not found. */
function answerOf(
  sf: SstFilter,
  newest: Entry | undefined,
): { value: string; columns: [string, string][] } | null {
  if (newest?.type === "put") return { value: hex(newest.value), columns: [["", hex(newest.value)]] };
  if (newest?.type !== "wide-column-entity") return null;
  const columns = sf
    .decodeWideColumns(newest.value)
    .map((c): [string, string] => [hex(c.name), hex(c.value)]);
  // Get answers the default column (the empty name, first when present), or an empty value.
  return { value: columns[0]?.[0] === "" ? columns[0][1] : "", columns };
}
const readTable = (file: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(file));

/** The entries holding a blob index that names this file (number 0), with where their record lies. */
function sameFileBlobs(sf: SstFilter, t: Table): { entry: Entry; offset: number; size: number }[] {
  return [...t.entries({ embeddedBlobs: "index" })]
    .filter((e) => e.type === "blob-index")
    .map((entry) => ({ entry, index: sf.decodeBlobIndex(entry.value) }))
    .filter(({ index }) => index.fileNumber === 0n)
    .map(({ entry, index }) => ({ entry, offset: Number(index.offset!), size: Number(index.size!) }));
}

/** A copy of the case's table with one byte flipped in the middle of its first non-empty record. */
function damagedCopy(sf: SstFilter, c: BlobCase): { bytes: Uint8Array; key: Uint8Array; record: number } {
  const bytes = readTable(c.path);
  const t = sf.openTable(bytes);
  const blob = sameFileBlobs(sf, t).find((b) => b.size > 0);
  t.dispose();
  if (blob === undefined) throw new Error(`${c.id}: no blob record with a payload`);
  bytes[blob.offset + (blob.size >> 1)]! ^= 0x01;
  return { bytes, key: blob.entry.key, record: blob.offset };
}

/** `error` (a thrown one, or a verify report's) must be CHECKSUM_MISMATCH naming the record. */
function checksumMismatch(error: unknown, what: string, record: number): void {
  const e = error as { code?: unknown; offset?: unknown; message?: unknown } | null;
  if (e?.code !== "CHECKSUM_MISMATCH" || e.offset !== record) {
    const got = e === null ? "no error" : `${String(e.code)} at ${String(e.offset)}: ${String(e.message)}`;
    throw new Error(`${what}: expected CHECKSUM_MISMATCH at the record (${record}), got ${got}`);
  }
}

describe.each(BACKENDS)("$name", ({ simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  test.each(CASES.map((c) => [c.id, c] as const))(
    "%s: get gives RocksDB's Get value for every probe",
    async (_, c) => {
      const bytes = readTable(c.path);
      const sync = sf.openTable(bytes);
      const fromSource = await sf.openTableFrom({
        size: bytes.length,
        read: async (at, n) => bytes.subarray(at, at + n),
      });
      let values = 0;
      for (const probe of c.probes) {
        const key = hexToBytes(probe.key);
        for (const [how, found] of [
          ["bytes", sync.get(key)],
          ["source", await fromSource.get(key)],
        ] as const) {
          const newest = found[0];
          const got = newest === undefined ? "nothing" : `${newest.type} ${hex(newest.value)}`;
          const answer = answerOf(sf, newest);
          const ok =
            (answer?.value ?? null) === probe.getValue &&
            (probe.getEntity === undefined ||
              JSON.stringify(answer?.columns) === JSON.stringify(probe.getEntity));
          if (!ok) {
            const entity =
              probe.getEntity === undefined ? "" : `, GetEntity ${JSON.stringify(probe.getEntity)}`;
            throw new Error(
              `${c.id} (${how}) probe ${probe.key}: ${got}, RocksDB ${probe.getValue}${entity}`,
            );
          }
        }
        if (probe.getValue !== null) values++;
      }
      sync.dispose();
      fromSource.dispose();
      expect(values).toBeGreaterThan(0);
    },
  );

  test.each(CASES.map((c) => [c.id, c] as const))(
    "%s: entries() give the values written; embeddedBlobs 'index' the stored indexes",
    (_, c) => {
      const t = sf.openTable(readTable(c.path));
      const entries = [...t.entries()];
      expect(entries.length).toBe(c.keys.length);
      entries.forEach((e, i) => {
        const type = typeName(c.entryTypes?.[i]);
        if (hex(e.key) !== hex(c.keys[i]!) || e.type !== type || hex(e.value) !== hex(c.values[i]!)) {
          throw new Error(
            `${c.id}: entries()[${i}] is ${e.type} ${hex(e.key)} => ${hex(e.value)}, RocksDB's ${type} ${hex(c.values[i]!)}`,
          );
        }
      });
      // The stored entries: those moved out hold a same-file index, the others their value.
      const blobs = sameFileBlobs(sf, t);
      expect(blobs.length).toBeGreaterThan(0);
      const stored = [...t.entries({ embeddedBlobs: "index" })];
      const moved = stored.filter((e) => e.type === "blob-index");
      expect(moved.length).toBe(blobs.length);
      stored.forEach((e, i) => {
        if (e.type === "put" && hex(e.value) !== hex(c.values[i]!)) {
          throw new Error(`${c.id}: stored entry ${i} has another value than written`);
        }
      });
      t.dispose();
    },
  );

  test.each(ENTITY_CASES.map((c) => [c.id, c] as const))(
    "%s: entities keep large columns in same-file records, and a column's damage fails its entry",
    (_, c) => {
      const bytes = readTable(c.path);
      const t = sf.openTable(bytes);
      // Stored: version 2 entities whose large columns are same-file blob indexes.
      const stored = [...t.entries({ embeddedBlobs: "index" })];
      const withRecords = stored.flatMap((e) =>
        e.type !== "wide-column-entity"
          ? []
          : sf
              .decodeWideColumns(e.value)
              .filter((col) => col.blobIndex?.fileNumber === 0n && col.blobIndex.size! > 0n)
              .map((col) => ({
                key: e.key,
                offset: Number(col.blobIndex!.offset!),
                size: Number(col.blobIndex!.size!),
              })),
      );
      t.dispose();
      expect(withRecords.length).toBeGreaterThan(0);
      // Resolved, the entities hold no blob index at all (entries() equal RocksDB's, above).
      const column = withRecords[withRecords.length >> 1]!;
      bytes[column.offset + (column.size >> 1)]! ^= 0x01;
      const damaged = sf.openTable(bytes);
      let thrown: unknown = "nothing thrown";
      try {
        damaged.get(column.key);
      } catch (error) {
        thrown = error;
      }
      damaged.dispose();
      checksumMismatch(thrown, `${c.id} get of an entity`, column.offset);
    },
  );

  test.each(CASES.map((c) => [c.id, c] as const))("%s: verify passes", async (_, c) => {
    const t = sf.openTable(readTable(c.path));
    const report = await verifyTable(t);
    t.dispose();
    expect(report.error).toBeNull();
    expect([report.ok, report.keys]).toEqual([true, c.keys.length]);
  });

  test.each(CASES.map((c) => [c.id, c] as const))(
    "%s: a byte flipped in a blob record's payload is CHECKSUM_MISMATCH on get and verify",
    async (_, c) => {
      const { bytes, key, record } = damagedCopy(sf, c);
      // Opening reads no blob record.
      const t = sf.openTable(bytes);
      let thrown: unknown = "nothing thrown";
      try {
        t.get(key);
      } catch (error) {
        thrown = error;
      }
      if (!(thrown instanceof SstFilterError)) throw new Error(`${c.id} get: ${String(thrown)}`);
      checksumMismatch(thrown, `${c.id} get`, record);
      const report = await verifyTable(t);
      t.dispose();
      expect(report.ok).toBe(false);
      checksumMismatch(report.error, `${c.id} verify`, record);
    },
  );
});

describe("the sstfilter command", () => {
  const work = mkdtempSync(path.join(tmpdir(), "sstfilter-v11-blob-"));
  const run = (...args: string[]): { code: number | null; stdout: string } => {
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
    return { code: r.status, stdout: r.stdout };
  };
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(true);
  });

  test.each(CASES.map((c) => [c.id, c] as const))(
    "%s: get prints the entry RocksDB read: its value, as a put, or its entity",
    (_, c) => {
      const present = c.probes.filter((p) => p.getValue !== null);
      expect(present.length).toBeGreaterThan(0);
      // Every tenth, each run being a process start.
      for (const probe of present.filter((_p, i) => i % 10 === 0)) {
        const r = run("get", c.path, probe.key, "--hex", "--output-hex");
        const index = c.keys.findIndex((k) => hex(k) === probe.key);
        const entity = c.entryTypes?.[index] === 0x16;
        const read: Entry = {
          key: hexToBytes(probe.key),
          value: entity ? c.values[index]! : hexToBytes(probe.getValue!),
          seq: 0n,
          type: entity ? "wide-column-entity" : "put",
          typeCode: entity ? 0x16 : 1,
        };
        const expected = Buffer.from(sf.formatScanLines([read], { hex: true })).toString("utf8");
        expect([probe.key, r.code, r.stdout]).toEqual([probe.key, 0, expected]);
      }
    },
  );

  test.each(CASES.map((c) => [c.id, c] as const))("%s: scan prints the entries as stored", (_, c) => {
    const r = run("scan", c.path, "--output-hex");
    expect(r.code).toBe(0);
    const t = sf.openTable(readTable(c.path));
    const stored = [...t.entries({ embeddedBlobs: "index" })];
    t.dispose();
    expect(stored.some((e) => e.type === "blob-index")).toBe(true);
    expect(r.stdout).toBe(Buffer.from(sf.formatScanLines(stored, { hex: true })).toString("utf8"));
  });

  test.each(CASES.map((c) => [c.id, c] as const))("%s: verify passes, and names a damaged record", (_, c) => {
    const sound = run("verify", c.path);
    expect([sound.code, sound.stdout]).toEqual([0, expect.stringContaining(": ok")]);
    const { bytes, record } = damagedCopy(sf, c);
    const damaged = path.join(work, path.basename(c.path));
    writeFileSync(damaged, bytes);
    const r = run("verify", damaged);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`CHECKSUM_MISMATCH: .*\\(at byte ${record}\\)`));
  });

  test("inspect shows rocksdb.embedded.blob.stats decoded", () => {
    const c = CASES[0]!;
    const t = sf.openTable(readTable(c.path));
    const blobs = sameFileBlobs(sf, t);
    t.dispose();
    const bytes = blobs.reduce((sum, b) => sum + b.size, 0);
    const r = run("inspect", c.path);
    expect(r.code).toBe(0);
    const count = (n: number): string => n.toLocaleString("en-US");
    expect(r.stdout).toMatch(
      new RegExp(
        `rocksdb\\.embedded\\.blob\\.stats +${count(blobs.length)} blob records, ${count(bytes)} payload bytes \\(`,
      ),
    );
  });
});
