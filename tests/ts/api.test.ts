import { execFileSync } from "node:child_process";
import * as path from "node:path";

import { init, SstFilterError, type SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { loadTestingBackend } from "./testing-backend";

const repoRoot = path.join(__dirname, "..", "..");

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof SstFilterError) return error.code;
    return `not an SstFilterError: ${String(error)}`;
  }
  return "no error";
}

describe("init", () => {
  test("picks SIMD128 where the runtime validates it, and the scalar module on request", async () => {
    expect((await init()).backend).toBe("wasm-simd128"); // Node 20 supports SIMD128
    expect((await init({ simd: false })).backend).toBe("wasm-scalar");
    expect((await init({ simd: true })).backend).toBe("wasm-simd128");
  });

  test("rejects bad options", async () => {
    await expect(init({ simd: "yes" as unknown as boolean })).rejects.toMatchObject({ code: "BAD_OPTIONS" });
  });

  test("the ES module entry loads in plain Node (wasmBinary read from disk, no fetch)", () => {
    const script = `
      import { init } from "sstfilter";
      const sf = await init();
      const f = sf.openFilter(sf.buildFilter(["a", "b"], { format: "leveldb", bitsPerKey: 10 }), { format: "leveldb" });
      console.log(sf.backend, f.kind, f.mayContain("a"));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot });
    expect(out.toString().trim()).toBe("wasm-simd128 leveldb-bloom true");
  });
});

describe.each(BACKENDS)("API behaviour on $name", ({ simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  test("packKeys: strings as UTF-8, bytes as given, n + 1 offsets", () => {
    const batch = sf.packKeys(["", "é", new Uint8Array([0, 255]), "abc"]);
    expect(Array.from(batch.offsets)).toEqual([0, 0, 2, 4, 7]);
    expect(Array.from(batch.data)).toEqual([0xc3, 0xa9, 0, 255, 0x61, 0x62, 0x63]);
  });

  // Key arrays are written into wasm memory by a fast path for ASCII strings (encoded many at a
  // time, joined) and by a general one otherwise; both must give each key's own UTF-8 bytes.
  describe("Key[] gives each key's own UTF-8, on the ASCII fast path and off it", () => {
    const utf8 = new TextEncoder();
    // The KeyBatch the keys should become, each key encoded on its own.
    const expectedBatch = (keys: (string | Uint8Array)[]) => {
      const parts = keys.map((k) => (typeof k === "string" ? utf8.encode(k) : k));
      let end = 0;
      const offsets = Uint32Array.from([0, ...parts.map((p) => (end += p.length))]);
      return { data: new Uint8Array(Buffer.concat(parts)), offsets };
    };
    // More keys than one encoder run (1024 strings), byte keys between strings, empty keys.
    const ascii = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 3 ? new Uint8Array([i & 255, 0x80, i >> 8]) : i % 11 === 5 ? "" : `key-${i}`,
    );
    // A non-ASCII key deep in the second run, and a lone high surrogate ending one key before a
    // lone low surrogate starting the next: joined, they would read as one character.
    const mixed = ascii.slice();
    mixed[1500] = "naïve";
    mixed[2000] = "a\ud83d";
    mixed[2001] = "\ude00b";

    // Non-ASCII in the first key, right after a byte key, and in the last key.
    const edges = ascii.slice();
    edges[0] = "ü";
    edges[4] = "→";
    edges[edges.length - 1] = "end ✓";

    test.each([
      ["ASCII strings and bytes", ascii],
      ["with non-ASCII and split surrogates", mixed],
      ["with non-ASCII first, after a byte key and last", edges],
    ])("%s", (_name, keys) => {
      const expected = expectedBatch(keys);
      const packed = sf.packKeys(keys);
      expect(Array.from(packed.offsets)).toEqual(Array.from(expected.offsets));
      expect(Buffer.from(packed.data).equals(Buffer.from(expected.data))).toBe(true);
      const opts = { format: "rocksdb-bloom", bitsPerKey: 10 } as const;
      const built = sf.buildFilter(keys, opts);
      expect(Buffer.from(built).equals(Buffer.from(sf.buildFilter(expected, opts)))).toBe(true);
      using filter = sf.openFilter(built);
      const probes = [...keys, ...keys.map((k) => (typeof k === "string" ? `${k}!` : "absent"))];
      expect(Array.from(filter.mayContainMany(probes))).toEqual(
        Array.from(filter.mayContainMany(expectedBatch(probes))),
      );
      expect(filter.mayContainMany(keys).every((answer) => answer === 1)).toBe(true);
    });

    test("a key that grows between reads (a getter) cannot write past the room measured for it", () => {
      using filter = sf.openFilter(sf.buildFilter(["a"], { format: "rocksdb-bloom", bitsPerKey: 10 }));
      let reads = 0;
      const keys = ["a", "b"];
      Object.defineProperty(keys, 1, { get: () => (reads++ === 0 ? "b" : "b".repeat(100_000)) });
      const answers = filter.mayContainMany(keys);
      expect(reads).toBeGreaterThan(1);
      expect(Array.from(answers)).toEqual(Array.from(filter.mayContainMany(["a", "b".repeat(100_000)])));
    });

    test("an array that grows while it is read (a getter) is read as it was when the call began", () => {
      using filter = sf.openFilter(sf.buildFilter(["a"], { format: "rocksdb-bloom", bitsPerKey: 10 }));
      // ["a", "b"], where each read of "b" appends a key.
      const growing = () => {
        const keys = ["a", "b"];
        Object.defineProperty(keys, 1, {
          get: () => {
            if (keys.length < 4000) keys.push(`k${keys.length}`);
            return "b";
          },
        });
        return keys;
      };
      expect(Array.from(filter.mayContainMany(growing()))).toEqual(
        Array.from(filter.mayContainMany(["a", "b"])),
      );
      expect(sf.packKeys(growing()).offsets).toEqual(new Uint32Array([0, 1, 2]));
    });
  });

  test("bad build options are BAD_OPTIONS", () => {
    const keys = ["a", "b"];
    for (const bitsPerKey of [Number.NaN, 0, -1, 1e9, Number.POSITIVE_INFINITY, 10.5]) {
      expect(codeOf(() => sf.buildFilter(keys, { format: "leveldb", bitsPerKey }))).toBe("BAD_OPTIONS");
    }
    expect(codeOf(() => sf.buildFilter(keys, { format: "rocksdb-bloom", bitsPerKey: 0.3 }))).toBe(
      "BAD_OPTIONS",
    );
    expect(codeOf(() => sf.buildFilter(keys, { format: "bogus", bitsPerKey: 10 } as never))).toBe(
      "BAD_OPTIONS",
    );
    expect(codeOf(() => sf.buildFilter(keys, { format: "leveldb", bitsPerKey: "10" } as never))).toBe(
      "BAD_OPTIONS",
    );
    expect(codeOf(() => sf.buildFilter(keys, undefined as never))).toBe("BAD_OPTIONS");
    expect(codeOf(() => sf.openFilter(new Uint8Array(9), { format: "pebble" as never }))).toBe("BAD_OPTIONS");
    expect(codeOf(() => sf.openFilter([1, 2, 3] as never))).toBe("BAD_OPTIONS");
  });

  test("keys that are neither strings nor Uint8Arrays are BAD_KEY, naming the index", () => {
    const error = (() => {
      try {
        sf.buildFilter(["a", 7 as unknown as string], { format: "leveldb", bitsPerKey: 10 });
      } catch (e) {
        return e as SstFilterError;
      }
      throw new Error("no error");
    })();
    expect(error).toBeInstanceOf(SstFilterError);
    expect(error.code).toBe("BAD_KEY");
    expect(error.message).toContain("index 1");
    using filter = sf.openFilter(sf.buildFilter(["a"], { format: "leveldb", bitsPerKey: 10 }), {
      format: "leveldb",
    });
    expect(codeOf(() => filter.mayContain(null as unknown as string))).toBe("BAD_KEY");
    expect(codeOf(() => filter.mayContainMany("abc" as never))).toBe("BAD_KEY");
    expect(
      codeOf(() => filter.mayContainMany({ data: new Uint8Array(4), offsets: new Uint32Array([0, 5]) })),
    ).toBe("BAD_KEY");
    expect(
      codeOf(() => filter.mayContainMany({ data: new Uint8Array(4), offsets: new Uint32Array([0, 3, 2]) })),
    ).toBe("BAD_KEY");
    expect(codeOf(() => filter.mayContainMany({ data: [1], offsets: [0, 1] } as never))).toBe("BAD_KEY");
    expect(codeOf(() => filter.mayContainMany({ data: new Uint8Array(1), offsets: null } as never))).toBe(
      "BAD_KEY",
    );
  });

  test("use after dispose is DISPOSED; dispose is idempotent; both paths free the wasm side", async () => {
    // The test build of the same module counts the live handles.
    const { sf, hooks: core } = await loadTestingBackend(simd);
    const before = core.liveHandles();
    const filter = sf.openFilter(sf.buildFilter(["a"], { format: "leveldb", bitsPerKey: 10 }), {
      format: "leveldb",
    });
    const block = sf.openLevelDbFilterBlock(new Uint8Array([0, 0, 0, 0, 11]));
    expect(core.liveHandles()).toBe(before + 2);
    filter.dispose();
    filter.dispose();
    block[Symbol.dispose]();
    expect(core.liveHandles()).toBe(before);
    expect(codeOf(() => filter.mayContain("a"))).toBe("DISPOSED");
    expect(codeOf(() => filter.mayContainMany(["a"]))).toBe("DISPOSED");
    expect(codeOf(() => block.mayContain(0, "a"))).toBe("DISPOSED");
  });

  test("mayContainMany crosses into wasm once per batch, never once per key", () => {
    using filter = sf.openFilter(sf.buildFilter(["a", "b"], { format: "leveldb", bitsPerKey: 10 }), {
      format: "leveldb",
    });
    const core = (sf as unknown as { heap: { module: Record<string, (...args: number[]) => number> } }).heap
      .module;
    const single = jest.spyOn(core, "_sstfilter_may_match");
    const batch = jest.spyOn(core, "_sstfilter_may_match_batch");
    const keys = Array.from({ length: 5000 }, (_, i) => `key${i}`);
    const answers = filter.mayContainMany(sf.packKeys(keys));
    filter.mayContainMany(keys);
    expect(answers).toHaveLength(5000);
    expect(single).not.toHaveBeenCalled();
    expect(batch).toHaveBeenCalledTimes(2);
    filter.mayContain("a");
    expect(single).toHaveBeenCalledTimes(1);
    single.mockRestore();
    batch.mockRestore();
  });

  test("filter block offsets must be whole numbers; bad bitsPerKey and key counts are rejected", () => {
    using block = sf.openLevelDbFilterBlock(new Uint8Array([0, 0, 0, 0, 11]));
    expect(codeOf(() => block.mayContain(-1, "a"))).toBe("BAD_OPTIONS");
    expect(codeOf(() => block.mayContain(1.5, "a"))).toBe("BAD_OPTIONS");
    expect(codeOf(() => sf.buildLevelDbFilterBlock([{ offset: 0, keys: ["a"] }], Number.NaN))).toBe(
      "BAD_OPTIONS",
    );
    expect(codeOf(() => sf.buildLevelDbFilterBlock([{ offset: 0.5, keys: ["a"] }], 10))).toBe("BAD_OPTIONS");
    expect(
      codeOf(() =>
        sf.buildLevelDbFilterBlock(
          [
            { offset: 4096, keys: ["a"] },
            { offset: 0, keys: ["b"] },
          ],
          10,
        ),
      ),
    ).toBe("BAD_OPTIONS");
    expect(codeOf(() => sf.buildLevelDbFilterBlock([{ offset: 2 ** 52, keys: ["a"] }], 10))).toBe(
      "RESOURCE_LIMIT",
    );
  });

  test("LevelDB semantics for malformed and empty filter blocks", () => {
    // Blocks at 0 and 6000: filter 0 holds "a", filter 1 is empty, filter 2 holds "z".
    const bytes = sf.buildLevelDbFilterBlock(
      [
        { offset: 0, keys: ["a"] },
        { offset: 6000, keys: ["z"] },
      ],
      10,
    );
    using block = sf.openLevelDbFilterBlock(bytes);
    expect(block.numFilters).toBe(3);
    expect(block.mayContain(0, "a")).toBe(true);
    expect(block.mayContain(2048, "a")).toBe(false); // empty filter: no match
    expect(block.mayContain(1 << 30, "a")).toBe(true); // past the last filter: may match
    using corrupt = sf.openLevelDbFilterBlock(new Uint8Array([0xff, 0xff, 0, 0, 11]));
    expect(corrupt.numFilters).toBe(0);
    expect(corrupt.mayContain(0, "anything")).toBe(true);
  });
});
