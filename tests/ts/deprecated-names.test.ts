// The names issue 30 replaced stay working as deprecated aliases (public API: README.md,
// ../shared/DESIGN.md): each old name gives the same answer as the name that replaced it.
// Table.explain / AsyncTable.explain -> explainMayContain, checkKeysAgainstFilter -> verifyBatches,
// Database.recoverMemtable -> recoverLogs, Database.explain -> explainGet.
import { readFileSync } from "node:fs";

import type { Database, GetExplanation, NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { FIXTURES, parseKeys, sectionCases } from "./golden";

// A partitioned filter: explain names a partition, the walk covers several batches of blocks.
const TABLE = "head/fv7-bloom10-part-decoupled-snappy.sst";

// The first db_get database: levels 0 to 2 and an unflushed WAL, so that the logs' recovery
// holds records and a Get's route has memtable and table steps.
const DATABASE = sectionCases<{ id: string; dir: string; probes: { path: string } }>("db_get").map((c) => ({
  id: `${c.corpus.name}:${c.id}`,
  dir: c.corpus.path(c.dir),
  probes: parseKeys(readFileSync(c.corpus.path(c.probes.path))),
}))[0]!;

const absent = new TextEncoder().encode("no-such-key");

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

describe("Table", () => {
  test("explain is explainMayContain", () => {
    using t = sf.openTable(FIXTURES.readBytes(TABLE));
    const probes = [...[...t.keys()].filter((_, i) => i % 1000 === 0), absent];
    const answers = probes.map((k) => t.explainMayContain(k));
    expect(answers.filter((a) => a.route === "partition").length).toBe(probes.length);
    expect(answers.some((a) => !a.mayContain)).toBe(true);
    expect(probes.map((k) => t.explain(k))).toEqual(answers);
    expect(t.explain(absent, { useFilter: false })).toEqual(
      t.explainMayContain(absent, { useFilter: false }),
    );
  });

  test("checkKeysAgainstFilter is verifyBatches", () => {
    using t = sf.openTable(FIXTURES.readBytes(TABLE));
    const batches = [...t.verifyBatches()];
    expect(batches.reduce((n, b) => n + b.keys, 0)).toBe(15_000);
    expect([...t.checkKeysAgainstFilter()]).toEqual(batches);
    expect([...t.checkKeysAgainstFilter({ from: 1 }, false)]).toEqual([
      ...t.verifyBatches({ from: 1 }, false),
    ]);
  });
});

describe("AsyncTable", () => {
  test("explain is explainMayContain", async () => {
    using t = await sf.openTableFile(FIXTURES.path(TABLE));
    const probes = [new TextEncoder().encode("1000097423"), absent];
    const answers = await Promise.all(probes.map((k) => t.explainMayContain(k)));
    expect(answers.map((a) => a.mayContain)).toEqual([true, false]);
    expect(await Promise.all(probes.map((k) => t.explain(k)))).toEqual(answers);
  });

  test("checkKeysAgainstFilter is verifyBatches", async () => {
    using t = await sf.openTableFile(FIXTURES.path(TABLE));
    const walk = async <T>(batches: AsyncIterable<T>): Promise<T[]> => {
      const out: T[] = [];
      for await (const b of batches) out.push(b);
      return out;
    };
    const batches = await walk(t.verifyBatches());
    expect(batches.reduce((n, b) => n + b.keys, 0)).toBe(15_000);
    expect(await walk(t.checkKeysAgainstFilter())).toEqual(batches);
  });
});

describe(`Database (${DATABASE.id})`, () => {
  test("recoverMemtable is recoverLogs", async () => {
    const db = await sf.openDatabase(DATABASE.dir);
    try {
      const recovery = await db.recoverLogs();
      expect(recovery.logs.reduce((n, l) => n + l.records.length, 0)).toBeGreaterThan(0);
      expect(await db.recoverMemtable()).toEqual(recovery);
    } finally {
      db.dispose();
    }
  });

  test("explain is explainGet", async () => {
    // A database each: the second name's Gets would find the first's blocks in the block cache.
    const routesOf = async (get: (db: Database, key: Uint8Array) => Promise<GetExplanation>) => {
      const db = await sf.openDatabase(DATABASE.dir);
      try {
        const routes = [];
        for (const key of DATABASE.probes.filter((_, i) => i % 50 === 0)) routes.push(await get(db, key));
        return routes;
      } finally {
        db.dispose();
      }
    };
    const routes = await routesOf((db, key) => db.explainGet(key));
    expect(routes.some((r) => r.result.value !== null)).toBe(true);
    expect(routes.some((r) => r.steps.some((s) => s.where === "memtable"))).toBe(true);
    expect(await routesOf((db, key) => db.explain(key))).toEqual(routes);
  });
});
