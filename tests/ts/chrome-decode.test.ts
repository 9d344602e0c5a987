// Chrome's stores decoded from TypeScript (ts/api/decoders.ts, ts/api/indexeddb.ts) and through
// `sstfilter db dump --decode` (ts/tools/db-dump.ts), compared with the page's own reading of the
// Chromium profile (section chromium_stores, expected.json): every object store's records (key and
// value) and every index's live entries in the page's order, localStorage and sessionStorage items.
// Also: a decoder registered from TypeScript is what dump uses, and hostile values give typed errors.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

import { SstFilterError, type IndexedDbDatabase, type NodeSstFilter } from "sstfilter";

import { dbDumpLines } from "../../ts/tools/db-dump";
import { loadBackend } from "./backends";
import { sectionCases } from "./golden";
import { CLI } from "./cli-path";

interface ChromiumCase {
  id: string;
  chromium: { version: string };
  expected: string;
  folders: Record<string, { path: string }>;
}

interface ExpectedStore {
  name: string;
  key_path: unknown;
  auto_increment: boolean;
  records: { key: unknown; value: unknown }[];
  indexes: { name: string; entries: { key: unknown; primary_key: unknown }[] }[];
}

interface Expected {
  indexeddb: { name: string; object_stores: ExpectedStore[] }[];
  local_storage: [string, string][];
  session_storage: [string, string][];
}

const CASES = sectionCases<ChromiumCase>("chromium_stores").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id} (Chromium ${c.chromium.version})`,
  dir: (folder: string) => c.corpus.path(c.folders[folder]!.path),
  expectedJson: JSON.parse(readFileSync(c.corpus.path(c.expected), "utf8")) as Expected,
}));

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

/** [key, value] pairs sorted by key, for stores the page lists in no particular order. */
const sortedPairs = (pairs: [string, string][]): [string, string][] =>
  [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

async function readIndexedDb(c: (typeof CASES)[number], blobs: boolean): Promise<IndexedDbDatabase[]> {
  const db = await sf.openDatabase(c.dir("indexeddb"));
  try {
    return await sf.readIndexedDb(db, blobs ? { blobDir: c.dir("indexeddb_blob") } : {});
  } finally {
    db.dispose();
  }
}

function runCli(args: string[]): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe.each(CASES)("$name", (c) => {
  test("detectStore recognises the three folders", async () => {
    for (const [folder, kind] of [
      ["indexeddb", "indexeddb"],
      ["local_storage", "localstorage"],
      ["session_storage", "sessionstorage"],
    ] as const) {
      const db = await sf.openDatabase(c.dir(folder));
      try {
        expect([folder, await sf.detectStore(db)]).toEqual([folder, kind]);
      } finally {
        db.dispose();
      }
    }
  });

  test("db.scan gives each live key once, in idb_cmp1 order", async () => {
    const db = await sf.openDatabase(c.dir("indexeddb"));
    try {
      const compare = db.compareFor(db.columnFamilies[0]!);
      let previous: Uint8Array | null = null;
      let n = 0;
      for await (const r of db.scan()) {
        if (previous !== null) expect([n, compare(previous, r.key)]).toEqual([n, -1]);
        expect(["delete", "single-delete"]).not.toContain(r.type);
        previous = r.key;
        n++;
      }
      expect(n).toBeGreaterThan(1000);
    } finally {
      db.dispose();
    }
  });

  test("db.scan agrees with db.get: sampled live keys hold their value, keys missing from it are gone", async () => {
    const db = await sf.openDatabase(c.dir("indexeddb"));
    try {
      const live = new Map<string, Uint8Array>();
      for await (const r of db.scan()) live.set(Buffer.from(r.key).toString("hex"), r.value.slice());
      let checked = 0;
      let i = 0;
      for (const [key, value] of live) {
        if (i++ % 97 !== 0) continue;
        const got = await db.get(Buffer.from(key, "hex"));
        expect([key, got === null ? null : Buffer.from(got).toString("hex")]).toEqual([
          key,
          Buffer.from(value).toString("hex"),
        ]);
        checked++;
      }
      // Keys the tables hold but the scan dropped: deleted (or overwritten by a deletion) for db.get too.
      const dropped = new Set<string>();
      for (const f of db.levels.flatMap((l) => l.files)) {
        const t = await db.openTable(f);
        try {
          for await (const e of t.entries()) {
            const key = Buffer.from(e.key).toString("hex");
            if (!live.has(key)) dropped.add(key);
          }
        } finally {
          t.dispose();
        }
      }
      expect(dropped.size).toBeGreaterThan(0);
      i = 0;
      for (const key of dropped) {
        if (i++ % 53 !== 0) continue;
        expect([key, await db.get(Buffer.from(key, "hex"))]).toEqual([key, null]);
        checked++;
      }
      expect(checked).toBeGreaterThan(100);
    } finally {
      db.dispose();
    }
  });

  test("every IndexedDB object store's records and index entries equal the page's", async () => {
    const ours = await readIndexedDb(c, true);
    let records = 0;
    let entries = 0;
    for (const expectedDb of c.expectedJson.indexeddb) {
      const d = ours.find((x) => x.name === expectedDb.name);
      expect([expectedDb.name, d !== undefined]).toEqual([expectedDb.name, true]);
      for (const store of expectedDb.object_stores) {
        const where = `${expectedDb.name}/${store.name}`;
        const s = d!.objectStores.find((x) => x.name === store.name);
        expect([where, s !== undefined]).toEqual([where, true]);
        expect([where, s!.keyPath, s!.autoIncrement]).toEqual([where, store.key_path, store.auto_increment]);
        expect([where, s!.records.length]).toEqual([where, store.records.length]);
        s!.records.forEach((r, i) => {
          expect([where, i, r.key, r.value]).toEqual([
            where,
            i,
            store.records[i]!.key,
            store.records[i]!.value,
          ]);
        });
        records += s!.records.length;
        for (const index of store.indexes) {
          const at = `${where}.${index.name}`;
          const x = s!.indexes.find((y) => y.name === index.name);
          expect([at, x !== undefined]).toEqual([at, true]);
          expect([at, x!.entries]).toEqual([
            at,
            index.entries.map((e) => ({ key: e.key, primaryKey: e.primary_key })),
          ]);
          entries += x!.entries.length;
        }
      }
      expect([expectedDb.name, d!.objectStores.map((s) => s.name).sort()]).toEqual([
        expectedDb.name,
        expectedDb.object_stores.map((s) => s.name).sort(),
      ]);
    }
    expect(records).toBeGreaterThan(0);
    expect(entries).toBeGreaterThan(0);
  });

  test("without the blob folder, blob-wrapped values stay markers", async () => {
    const ours = await readIndexedDb(c, false);
    const wrapped = ours.flatMap((d) =>
      d.objectStores.flatMap((s) => s.records.filter((r) => r.wrapping === "blob")),
    );
    expect(wrapped.length).toBeGreaterThan(0);
    for (const r of wrapped) expect([r.key, Object.keys(r.value as object)]).toEqual([r.key, ["$blob"]]);
  });

  test("localStorage and sessionStorage items equal the page's", async () => {
    for (const [folder, expected] of [
      ["local_storage", c.expectedJson.local_storage],
      ["session_storage", c.expectedJson.session_storage],
    ] as const) {
      const db = await sf.openDatabase(c.dir(folder));
      try {
        const areas =
          folder === "local_storage" ? await sf.readLocalStorage(db) : await sf.readSessionStorage(db);
        const items = areas.flatMap((a) => a.items.map((i): [string, string] => [i.key, i.value]));
        expect([folder, sortedPairs(items)]).toEqual([folder, sortedPairs(expected)]);
      } finally {
        db.dispose();
      }
    }
  });

  test("db dump --decode indexeddb --json prints the page's records", () => {
    const r = runCli([
      "db",
      "dump",
      c.dir("indexeddb"),
      "--decode",
      "indexeddb",
      "--json",
      "--blob-dir",
      c.dir("indexeddb_blob"),
    ]);
    expect([r.status, r.stderr]).toEqual([0, ""]);
    const lines = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const expected = c.expectedJson.indexeddb.flatMap((d) =>
      d.object_stores.flatMap((s) =>
        s.records.map((rec) => ({ database: d.name, objectStore: s.name, key: rec.key, value: rec.value })),
      ),
    );
    const sortKey = (l: { database: unknown; objectStore: unknown }): string =>
      `${String(l.database)}\0${String(l.objectStore)}`;
    // Databases and stores in id order (ours) or name order (the page's); records in key order in both.
    const group = (ls: { database: unknown; objectStore: unknown }[]) => {
      const m = new Map<string, unknown[]>();
      for (const l of ls) m.set(sortKey(l), [...(m.get(sortKey(l)) ?? []), l]);
      return [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    };
    expect(group(lines as { database: unknown; objectStore: unknown }[])).toEqual(group(expected));
  });

  test("db dump --decode auto, text and JSON, for localStorage and sessionStorage", () => {
    for (const [folder, expected] of [
      ["local_storage", c.expectedJson.local_storage],
      ["session_storage", c.expectedJson.session_storage],
    ] as const) {
      const json = runCli(["db", "dump", c.dir(folder), "--decode", "auto", "--json"]);
      expect([folder, json.status, json.stderr]).toEqual([folder, 0, ""]);
      const items = json.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { key: string; value: string })
        .map((i): [string, string] => [i.key, i.value]);
      expect([folder, sortedPairs(items)]).toEqual([folder, sortedPairs(expected)]);
      const text = runCli(["db", "dump", c.dir(folder), "--decode", "auto"]);
      expect([folder, text.status, text.stdout.trimEnd().split("\n").length]).toEqual([
        folder,
        0,
        expected.length,
      ]);
      // eslint-disable-next-line no-control-regex
      expect([folder, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text.stdout)]).toEqual([
        folder,
        false,
      ]);
    }
  });

  test("db dump without --decode prints the raw records, and scan --decode decodes a table's", async () => {
    const raw = runCli(["db", "dump", c.dir("local_storage"), "--json"]);
    expect([raw.status, raw.stderr]).toEqual([0, ""]);
    const first = JSON.parse(raw.stdout.split("\n")[0]!) as { key: unknown; type: string };
    expect(first.type).toBe("put");
    const db = await sf.openDatabase(c.dir("indexeddb"));
    const tables = db.levels.flatMap((l) => l.files.map((f) => f.name));
    db.dispose();
    const kinds = new Set<string>();
    for (const table of tables) {
      const file = path.join(c.dir("indexeddb"), table);
      const scan = runCli(["scan", file, "--comparator", "idb_cmp1", "--decode", "indexeddb", "--json"]);
      expect([table, scan.status, scan.stderr]).toEqual([table, 0, ""]);
      const lines = scan.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; record?: { kind: string }; decodeError?: string });
      // Every put decodes; deletions hold no value to decode.
      const puts = lines.filter((l) => l.type === "put");
      expect([
        table,
        puts.filter((l) => l.record === undefined || l.decodeError !== undefined).length,
      ]).toEqual([table, 0]);
      expect([table, lines.filter((l) => l.type !== "put" && l.record !== undefined).length]).toEqual([
        table,
        0,
      ]);
      for (const l of puts) kinds.add(l.record!.kind);
    }
    expect([...kinds]).toEqual(
      expect.arrayContaining(["databaseName", "objectStoreData", "indexData", "existsEntry"]),
    );
  });

  test("db dump refuses an unknown decoder (usage), and names the record a decoder cannot read", () => {
    const unknown = runCli(["db", "dump", c.dir("local_storage"), "--decode", "no-such"]);
    expect([unknown.status, unknown.stdout]).toEqual([2, ""]);
    expect(unknown.stderr).toContain("--decode takes one of indexeddb, localstorage, sessionstorage, auto");
    // localStorage records read as IndexedDB ones: a typed error naming the record, exit code 3.
    const wrong = runCli(["db", "dump", c.dir("local_storage"), "--decode", "indexeddb"]);
    expect(wrong.status).toBe(3);
    expect(wrong.stderr).toMatch(/: (CORRUPT|TRUNCATED): record 0x[0-9a-f]+: /);
  });

  test("a decoder registered from TypeScript is the one dump uses", async () => {
    const calls: number[] = [];
    sf.registerDecoder("test.lengths", (key, value) => {
      calls.push(key.length);
      return { keyLength: key.length, valueLength: value.length };
    });
    expect(sf.decoderNames()).toContain("test.lengths");
    expect(() => sf.registerDecoder("indexeddb", () => null)).toThrow(SstFilterError);
    const db = await sf.openDatabase(c.dir("local_storage"));
    try {
      const lines: string[] = [];
      for await (const l of dbDumpLines(sf, db, { decode: "test.lengths", json: true })) lines.push(l);
      expect(lines.length).toBe(calls.length);
      expect(lines.length).toBeGreaterThan(c.expectedJson.local_storage.length);
      const parsed = JSON.parse(lines[0]!) as { record: { keyLength: number } };
      expect(parsed.record.keyLength).toBe(calls[0]);
    } finally {
      db.dispose();
    }
  });

  test("hostile values give a typed SstFilterError, not a crash", async () => {
    const db = await sf.openDatabase(c.dir("indexeddb"));
    let dataRecord: { key: Uint8Array; value: Uint8Array } | null = null;
    try {
      for await (const r of db.scan()) {
        // An object store record of one-byte ids: prefix 0, database, store, index id 1.
        if (r.key[0] === 0 && r.key[3] === 1 && r.value.length > 20) {
          dataRecord = { key: r.key.slice(), value: r.value.slice() };
          break;
        }
      }
    } finally {
      db.dispose();
    }
    // The record the scan stopped at: an object store's (index id 1) in the first database and store.
    expect([dataRecord?.key[0], dataRecord?.key[3], (dataRecord?.value.length ?? 0) > 20]).toEqual([
      0,
      1,
      true,
    ]);
    const idb = sf.decoder("indexeddb");
    expect(idb.decode(dataRecord!.key, dataRecord!.value)).toMatchObject({ kind: "objectStoreData" });
    for (const cut of [dataRecord!.value.length - 1, 8, 4, 2]) {
      let thrown: unknown = null;
      try {
        idb.decode(dataRecord!.key, dataRecord!.value.subarray(0, cut));
      } catch (error) {
        thrown = error;
      }
      expect([cut, thrown instanceof SstFilterError]).toEqual([cut, true]);
      expect([cut, (thrown as SstFilterError).code]).toEqual([
        cut,
        expect.stringMatching(/TRUNCATED|CORRUPT/),
      ]);
    }
    expect(() =>
      sf.decoder("localstorage").decode(new TextEncoder().encode("_nonul"), new Uint8Array([1])),
    ).toThrow(SstFilterError);
    expect(() => sf.decoder("no-such")).toThrow(SstFilterError);
  });
});
