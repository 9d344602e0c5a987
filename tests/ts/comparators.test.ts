// Comparators from TypeScript (ts/api/comparators.ts): tables written in an order of the caller's
// and read back in it, what t.order reports, and comparators that misbehave: one that throws or
// returns no number is BAD_OPTIONS naming it (never an answer computed from garbage), one of
// another order than the table's is refused at open, and a name that is not built in is refused.
import { SstFilterError, type SstFilter } from "sstfilter";

import { loadBackend } from "./backends";

let sf: SstFilter;
beforeAll(async () => {
  sf = await loadBackend(true);
});

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Descending byte order: the order of rocksdb.ReverseBytewiseComparator. */
const descending = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(b, a);

// 2,000 keys in descending order, in blocks of 512 bytes: many blocks, many separators.
const KEYS = Array.from({ length: 2000 }, (_v, i) => `key${String(1999 - i).padStart(5, "0")}`);

function write(format: "rocksdb" | "leveldb", comparator: { name: string; compare: typeof descending }) {
  const filter = format === "rocksdb" ? "rocksdb-bloom" : "leveldb";
  const w = sf.createTableWriter({ format, comparator, filter, blockSize: 512, bitsPerKey: 10 });
  for (const k of KEYS) w.put(k, `v:${k}`);
  return w.finish();
}

async function rejection(run: () => unknown): Promise<SstFilterError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SstFilterError) return error;
    throw error;
  }
  throw new Error("did not throw");
}

describe.each(["rocksdb", "leveldb"] as const)("a %s table written in an order of the caller's", (format) => {
  const order = { name: "my.Descending", compare: descending };

  test("is read back in it: every key found, its value got, and absent keys ruled out", () => {
    const bytes = write(format, order);
    const t = sf.openTable(bytes, { comparator: order, internalKeys: format === "rocksdb" });
    try {
      expect(t.order).toMatchObject({ source: "supplied", comparator: "my.Descending", known: true });
      if (format === "rocksdb") expect(t.properties["rocksdb.comparator"]).toBe("my.Descending");
      expect([...t.keys()].map(dec)).toEqual(KEYS);
      for (const k of KEYS.filter((_k, i) => i % 37 === 0)) {
        expect([k, t.mayContain(k), t.get(k).map((e) => dec(e.value))]).toEqual([k, true, [`v:${k}`]]);
      }
      const absent = Array.from({ length: 500 }, (_v, i) => `absent${i}`);
      const ruledOut = absent.filter((k) => !t.mayContain(k)).length;
      expect(ruledOut).toBeGreaterThan(400);
      expect([...t.entries({ from: "key01000", limit: 3 })].map((e) => dec(e.key))).toEqual([
        "key01000",
        "key00999",
        "key00998",
      ]);
    } finally {
      t.dispose();
    }
  });

  test("without it, never rules out a key the table holds", () => {
    const bytes = write(format, order);
    const t = sf.openTable(bytes, { internalKeys: format === "rocksdb" });
    try {
      expect(t.order.known).toBe(false);
      expect(t.order.comparator).toBe(format === "rocksdb" ? "my.Descending" : "");
      const missed = KEYS.filter((k) => !t.mayContain(k));
      expect(missed).toEqual([]);
      expect(t.get(KEYS[777]!).map((e) => dec(e.value))).toEqual([`v:${KEYS[777]}`]);
      expect(t.explainMayContain("absent").route).toBe(format === "rocksdb" ? "full-filter" : "any-filter");
    } finally {
      t.dispose();
    }
  });

  test("a comparator of another order is refused when the table opens", async () => {
    const bytes = write(format, order);
    const error = await rejection(() =>
      sf.openTable(bytes, {
        comparator: { name: "my.Descending", compare: (a, b) => Buffer.compare(a, b) },
        internalKeys: format === "rocksdb",
      }),
    );
    expect([error.code, error.message]).toEqual([
      "BAD_OPTIONS",
      expect.stringMatching(/index entry \d+ sorts before/),
    ]);
  });

  test("a comparator that throws, or returns no number, is BAD_OPTIONS naming it", async () => {
    const bytes = write(format, order);
    const thrown = await rejection(() =>
      sf.openTable(bytes, {
        comparator: {
          name: "my.Broken",
          compare: () => {
            throw new Error("boom");
          },
        },
        internalKeys: format === "leveldb" ? false : true,
      }),
    );
    // A RocksDB table names its own comparator: another name is refused before any call.
    if (format === "rocksdb") expect(thrown.message).toMatch(/"my.Descending" \(rocksdb.comparator\)/);
    else
      expect([thrown.code, thrown.message]).toEqual(["BAD_OPTIONS", 'the comparator "my.Broken" threw boom']);
    const nan = await rejection(() =>
      sf.openTable(bytes, { comparator: () => Number.NaN, internalKeys: format === "rocksdb" }),
    );
    expect([nan.code, nan.message]).toEqual([
      "BAD_OPTIONS",
      expect.stringContaining("returned NaN, not a number"),
    ]);
    // The module is sound afterwards: the right comparator still reads the table.
    const t = sf.openTable(bytes, { comparator: order, internalKeys: format === "rocksdb" });
    expect(t.mayContain(KEYS[5]!)).toBe(true);
    t.dispose();
  });
});

test("the writer refuses keys out of its comparator's order, naming the entry", () => {
  const w = sf.createTableWriter({ format: "rocksdb", comparator: "rocksdb.ReverseBytewiseComparator" });
  w.put("b", "1");
  expect(() => w.put("c", "2")).toThrow(/entry 1: key sorts before the key before it/);
});

test("a comparator name that is not built in is BAD_OPTIONS; a writer's comparator needs a name", () => {
  const bytes = write("rocksdb", { name: "my.Descending", compare: descending });
  expect(() => sf.openTable(bytes, { comparator: "no.Such" })).toThrow(
    /"no.Such" is not a built-in comparator/,
  );
  expect(() => sf.createTableWriter({ format: "rocksdb", comparator: descending } as never)).toThrow(
    /needs its name/,
  );
});
