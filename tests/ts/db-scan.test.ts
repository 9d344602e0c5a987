// db.scan (ts/api/db-scan.ts), a database's logical contents, against what the libraries answer:
// for every probe of the db_get cases (RocksDB 7.8.3's db_bench database with deletions, range
// deletions and merges, the log replayed; a database of three column families, one of them
// reverse-ordered) and of the node corpus (rocksdb-native, classic-level), the scan holds the
// key with the value DB::Get returned, or lacks it where Get found nothing. Merge chains (no merge
// operator runs) are left out. The scan's keys ascend in each family's comparator order.
import { readFileSync } from "node:fs";
import * as path from "node:path";

import type { Database, NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { libraryGetCases, parseKeys, sectionCases } from "./golden";

interface RocksAnswer {
  status: "ok" | "not-found";
  value?: string;
}
interface GetCase {
  id: string;
  dir: string;
  probes: { path: string; count: number };
  answers?: { kind: string; with_wal: RocksAnswer }[];
  column_family_answers?: Record<string, (string | null)[]>;
}

const CASES = sectionCases<GetCase>("db_get").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  dirPath: c.corpus.path(c.dir),
  probes: parseKeys(readFileSync(c.corpus.path(c.probes.path))),
}));

const LIBRARY_CASES = libraryGetCases();

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

/** The scan of one family as hex key → { value, type }, checking that its keys ascend. */
async function scanned(
  db: Database,
  columnFamily: string,
): Promise<Map<string, { value: Uint8Array; type: string }>> {
  const family = db.columnFamilies.find((cf) => cf.name === columnFamily)!;
  const compare = db.compareFor(family);
  const out = new Map<string, { value: Uint8Array; type: string }>();
  let previous: Uint8Array | null = null;
  for await (const r of db.scan({ columnFamily })) {
    if (previous !== null)
      expect([columnFamily, hex(r.key), Math.sign(compare(previous, r.key))]).toEqual([
        columnFamily,
        hex(r.key),
        -1,
      ]);
    previous = r.key;
    out.set(hex(r.key), { value: r.value.slice(), type: r.type });
  }
  return out;
}

test("the corpora have cases", () => {
  expect(CASES.some((c) => c.answers !== undefined)).toBe(true);
  expect(CASES.some((c) => c.column_family_answers !== undefined)).toBe(true);
  expect(LIBRARY_CASES.length).toBeGreaterThan(0);
});

describe.each(CASES)("$name", (c) => {
  test("every probe: the scan holds what DB::Get answered", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      let compared = 0;
      if (c.answers !== undefined) {
        const records = await scanned(db, "default");
        c.answers.forEach((a, i) => {
          const probe = hex(c.probes[i]!);
          const ours = records.get(probe);
          if (ours?.type === "merge") return; // a merge chain: no merge operator runs
          const theirs = a.with_wal.status === "ok" ? a.with_wal.value : null;
          expect([probe, a.kind, ours === undefined ? null : hex(ours.value)]).toEqual([
            probe,
            a.kind,
            theirs,
          ]);
          compared++;
        });
      }
      for (const [family, answers] of Object.entries(c.column_family_answers ?? {})) {
        const records = await scanned(db, family);
        answers.forEach((theirs, i) => {
          const probe = hex(c.probes[i]!);
          const ours = records.get(probe);
          expect([
            family,
            probe,
            ours === undefined ? null : Buffer.from(ours.value).toString("utf8"),
          ]).toEqual([family, probe, theirs]);
          compared++;
        });
      }
      expect(compared).toBeGreaterThan(100);
    } finally {
      db.dispose();
    }
  });
});

describe.each(LIBRARY_CASES)("node:$id", (c) => {
  test("every probe: the scan holds what the library's get answered", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      const records = await scanned(db, "default");
      c.probes.forEach((probe, i) => {
        const ours = records.get(Buffer.from(probe).toString("hex"));
        expect([probe, ours === undefined ? null : Buffer.from(ours.value).toString("utf8")]).toEqual([
          probe,
          c.answers[i],
        ]);
      });
    } finally {
      db.dispose();
    }
  });
});
