// Verification shared between threads: verifyTableSplit hands out consecutive ranges of the data
// blocks to whichever thread finishes first, and the merged report must be the one a single walk
// makes (counts, samples in file order, the first failing block in file order). Then the Node
// workers themselves (verifyTableFile): they instantiate the core compiled by the thread that
// starts them, and give the same reports.
import { verifyTable, type AsyncTable, type NodeSstFilter } from "sstfilter";

import type { RangeVerifyThread } from "../../ts/api/table-verify";
import { loadBackend } from "./backends";
import { GENERATED } from "./golden";

// The package's own modules, as "sstfilter" is (jest.config.cjs), typed by their sources: the
// sources' SstFilterError is another class than the one the package's tables throw.
const { verifyTableSplit } =
  require("../../dist/cjs/api/table-verify") as typeof import("../../ts/api/table-verify");
const { verifyTableFile } =
  require("../../dist/cjs/platform/verify-parallel") as typeof import("../../ts/platform/verify-parallel");

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

const TABLES = [
  "rocksdb-sst/part_bloom10_mbs256/table.sst",
  "rocksdb-sst/fv5_bloom10_zstd_dict16k/table.sst",
  "rocksdb-sst/big_dec_n200000_snappy/table.sst",
];

/**
 * Threads in this one, each with its own table opened from `bytes`, answering after a delay that
 * varies from range to range, so that the threads take the ranges in a mixed order.
 */
function inProcessThreads(bytes: Uint8Array, taken: number[]): () => RangeVerifyThread {
  let calls = 0;
  return () => {
    const own = sf.openTable(bytes);
    return {
      async verify(range, onProgress) {
        taken.push(range.from);
        await new Promise((resolve) => setTimeout(resolve, (calls++ * 7) % 5));
        return verifyTable(own, { range, metaBlocks: false, onProgress });
      },
      close: () => own.dispose(),
    };
  };
}

/** `bytes` as a table read through a Blob: its walks wait for reads, so the threads interleave. */
function openAsync(bytes: Uint8Array): Promise<AsyncTable> {
  return sf.openTableFrom(new Blob([bytes.slice()]));
}

describe("verifyTableSplit: ranges taken by whichever thread is free", () => {
  test.each(TABLES)("%s: the report of one walk, with 2 and 3 threads", async (file) => {
    const bytes = GENERATED.readBytes(file);
    const t = await openAsync(bytes);
    const one = await verifyTable(t);
    expect(one.ok).toBe(true);
    for (const jobs of [2, 3]) {
      const taken: number[] = [];
      const progress: number[] = [];
      const report = await verifyTableSplit(t, inProcessThreads(bytes, taken), {
        jobs,
        onProgress: (p) => progress.push(p.bytesDone / p.bytesTotal),
      });
      expect(report).toEqual(one);
      // Every further thread took a range, each range once; the summed progress ends at 100%.
      expect(taken.length).toBeGreaterThanOrEqual(jobs - 1);
      expect(new Set(taken).size).toBe(taken.length);
      expect(progress.at(-1)).toBe(1);
    }
    t.dispose();
  });

  test("a damaged block in a middle range: the walk stops there, whichever thread reached it", async () => {
    const file = "rocksdb-sst/big_dec_n200000_snappy/table.sst";
    const bytes = GENERATED.readBytes(file);
    const t0 = sf.openTable(bytes);
    const blocks = [...t0.dataBlocks()];
    t0.dispose();
    // Two damaged blocks: the first in file order is the one reported. At 60% of the blocks, it
    // lies in the second range with 2 threads, the third with 3 (each takes 1/jobs of what is left).
    const at = Math.floor(blocks.length * 0.6);
    const first = blocks[at]!;
    const damaged = bytes.slice();
    damaged[first.offset + 10]! ^= 0x40;
    damaged[blocks.at(-3)!.offset + 10]! ^= 0x40;
    const t = await openAsync(damaged);
    const one = await verifyTable(t);
    expect(one.error).toMatchObject({ code: "CHECKSUM_MISMATCH", offset: first.offset });
    expect(one.dataBlocks).toBe(at);
    for (const jobs of [2, 3]) {
      expect(await verifyTableSplit(t, inProcessThreads(damaged, []), { jobs })).toEqual(one);
    }
    t.dispose();
  });

  test("false negatives: counted over every range, samples in file order", async () => {
    // The filter's bit array zeroed (its checksum recomputed): every key is ruled out.
    const bytes = GENERATED.readBytes("rocksdb-sst/big_dec_n200000_snappy/table.sst");
    const t0 = sf.openTable(bytes);
    expect(t0.footer.checksum).toBe("crc32c");
    const [offset, size] = t0.metaindex[t0.filter!.metaBlock]!;
    t0.dispose();
    const emptied = bytes.slice();
    emptied.fill(0, offset, offset + size - 5); // the 5 bytes of metadata stay
    const typed = emptied.subarray(offset, offset + size + 1); // contents + compression type
    const crc = sf.hash.crc32cMask(sf.hash.crc32c(typed));
    new DataView(emptied.buffer).setUint32(offset + size + 1, crc, true);
    const t = await openAsync(emptied);
    const one = await verifyTable(t, { maxReported: 25 });
    expect(one.falseNegatives).toBe(one.keys);
    expect(one.falseNegativeSamples).toHaveLength(25);
    for (const jobs of [2, 3]) {
      expect(await verifyTableSplit(t, inProcessThreads(emptied, []), { jobs, maxReported: 25 })).toEqual(
        one,
      );
    }
    t.dispose();
  });

  test("an abort rejects with its reason and closes every thread", async () => {
    const bytes = GENERATED.readBytes("rocksdb-sst/big_dec_n200000_snappy/table.sst");
    const t = await openAsync(bytes);
    const started = inProcessThreads(bytes, []);
    let open = 0;
    const controller = new AbortController();
    const run = verifyTableSplit(
      t,
      () => {
        const thread = started();
        open++;
        return { verify: thread.verify, close: () => (open--, thread.close()) };
      },
      { jobs: 3, signal: controller.signal, onProgress: () => controller.abort(new Error("stop")) },
    );
    await expect(run).rejects.toThrow("stop");
    expect(open).toBe(0);
    t.dispose();
  });
});

describe("verifyTableFile: Node workers on the core compiled here", () => {
  test("the workers are handed this thread's compiled Module", () => {
    const setup = sf.verifyWorkerSetup();
    expect(setup?.core.variant).toBe("simd");
    expect(setup?.core.module).toBeInstanceOf(WebAssembly.Module);
  });

  test.each(TABLES)("%s: the report of one walk, with 2 and 3 threads", async (file) => {
    const t = await sf.openTableFile(GENERATED.path(file));
    const one = await verifyTable(t);
    for (const jobs of [2, 3]) {
      const report = await verifyTableFile(t, GENERATED.path(file), {
        jobs,
        internalKeys: true,
        worker: sf.verifyWorkerSetup()!,
      });
      expect(report).toEqual(one);
    }
    t.dispose();
  });

  test("a worker instantiates the Module it is given, not one of its own", async () => {
    const file = GENERATED.path(TABLES[0]!);
    const t = await sf.openTableFile(file);
    const setup = sf.verifyWorkerSetup()!;
    // An empty module: valid, but without the core's exports, so the worker cannot load it.
    const empty = new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    const run = verifyTableFile(t, file, {
      jobs: 2,
      internalKeys: true,
      worker: { ...setup, core: { ...setup.core, module: empty } },
    });
    await expect(run).rejects.toMatchObject({ code: "WASM_LOAD" });
    t.dispose();
  });
});
