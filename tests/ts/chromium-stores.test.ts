// A Chromium profile's LevelDB stores (section chromium_stores, written by Debian's chromium through
// tests/corpus/node/chromium.mjs): the IndexedDB folder is ordered by Chromium's idb_cmp1, which is
// not bytewise. Read through its database (the MANIFEST names the comparator) every table answers
// exactly in that order: no key of any table is ruled out, verify finds the keys in idb_cmp1 order
// and the filters sound, and db.get finds each key's newest version across the log and the levels.
// Read alone (no MANIFEST), a table never rules out a key it holds either.
import * as path from "node:path";

import { verifyTable, type AsyncTable, type Entry, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { sectionCases } from "./golden";

interface ChromiumCase {
  id: string;
  chromium: { version: string };
  comparators: { indexeddb: string; local_storage: string; session_storage: string };
  folders: Record<string, { path: string; files: { name: string; size: number }[] }>;
}

const CASES = sectionCases<ChromiumCase>("chromium_stores").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id} (Chromium ${c.chromium.version})`,
  indexedDb: c.corpus.path(c.folders["indexeddb"]!.path),
}));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

/** Every entry of a table, in file order. */
async function entriesOf(table: AsyncTable): Promise<Entry[]> {
  const out: Entry[] = [];
  for await (const e of table.entries()) out.push(e);
  return out;
}

describe.each(CASES)("$name", (c) => {
  test("the IndexedDB database names idb_cmp1, and its tables are read in that order", async () => {
    const db = await sf.openDatabase(c.indexedDb);
    try {
      expect(db.comparator).toBe(c.comparators.indexeddb);
      expect(db.comparator).toBe("idb_cmp1");
      const files = db.levels.flatMap((l) => l.files);
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) {
        const t = await db.openTable(f);
        try {
          expect([f.name, t.order.source, t.order.comparator]).toEqual([f.name, "recorded", "idb_cmp1"]);
          const entries = await entriesOf(t);
          expect(entries.length).toBeGreaterThan(0);
          const ruledOut: string[] = [];
          for (const e of entries) if (!(await t.mayContain(e.key))) ruledOut.push(hex(e.key));
          expect([f.name, ruledOut.slice(0, 5), ruledOut.length]).toEqual([f.name, [], 0]);
          const report = await verifyTable(t);
          expect([f.name, report.error, report.falseNegatives, report.ok]).toEqual([f.name, null, 0, true]);
        } finally {
          t.dispose();
        }
      }
    } finally {
      db.dispose();
    }
  });

  test("a table read alone never rules out a key it holds, and verify does not call it corrupt", async () => {
    const db = await sf.openDatabase(c.indexedDb);
    const names = db.levels.flatMap((l) => l.files.map((f) => f.name));
    db.dispose();
    let unknown = 0;
    for (const name of names) {
      const t = await sf.openTableFile(path.join(c.indexedDb, name));
      try {
        if (t.order.source === "unknown") unknown++;
        const ruledOut: string[] = [];
        for (const e of await entriesOf(t)) if (!(await t.mayContain(e.key))) ruledOut.push(hex(e.key));
        expect([name, t.order.source, ruledOut.slice(0, 5), ruledOut.length]).toEqual([
          name,
          t.order.source,
          [],
          0,
        ]);
        const report = await verifyTable(t);
        expect([name, report.falseNegatives, report.error?.code === "CORRUPT"]).toEqual([name, 0, false]);
      } finally {
        t.dispose();
      }
      // Supplied, the order is exact again.
      const exact = await sf.openTableFile(path.join(c.indexedDb, name), { comparator: "idb_cmp1" });
      try {
        expect([name, exact.order.source]).toEqual([name, "supplied"]);
        expect([name, (await verifyTable(exact)).ok]).toEqual([name, true]);
      } finally {
        exact.dispose();
      }
    }
    // The large tables' separators do not ascend bytewise: their order is seen to be unknown.
    expect(unknown).toBeGreaterThan(0);
  });

  test("db.get finds every sampled key's newest version across the log and the levels", async () => {
    const db = await sf.openDatabase(c.indexedDb);
    try {
      // The newest version of each user key, by sequence number, from every table and live log.
      const newest = new Map<string, { seq: bigint; value: Uint8Array | null }>();
      const note = (key: Uint8Array, seq: bigint, value: Uint8Array | null): void => {
        const k = hex(key);
        const seen = newest.get(k);
        if (seen === undefined || seen.seq < seq) newest.set(k, { seq, value });
      };
      for (const f of db.levels.flatMap((l) => l.files)) {
        const t = await db.openTable(f);
        try {
          for (const e of await entriesOf(t)) note(e.key, e.seq!, e.type === "put" ? e.value : null);
        } finally {
          t.dispose();
        }
      }
      for (const log of await db.writeAheadLogs()) {
        for (const r of log.records) note(r.key, r.sequence, r.kind === "put" ? r.value : null);
      }
      const keys = [...newest.keys()];
      expect(keys.length).toBeGreaterThan(1000);
      // Every 23rd key (about 1,500 gets), plus the first and last.
      const sample = keys.filter((_k, i) => i % 23 === 0 || i === keys.length - 1);
      const wrong: string[] = [];
      for (const k of sample) {
        const got = await db.get(Buffer.from(k, "hex"));
        const want = newest.get(k)!.value;
        if ((got === null ? null : hex(got)) !== (want === null ? null : hex(want))) wrong.push(k);
      }
      expect([wrong.slice(0, 5), wrong.length, sample.length]).toEqual([[], 0, sample.length]);
      const verified = await db.verify();
      expect(verified.ok).toBe(true);
    } finally {
      db.dispose();
    }
  });
});
