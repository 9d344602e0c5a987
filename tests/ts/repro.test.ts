// Cases where sstfilter once answered differently from the database that wrote the file
// (tests/corpus/fixtures/repro, described in its README.md), on both wasm modules. Expected
// answers are the database's own: 1 = its filter said "may match", 0 = it ruled the file out,
// 2 = the filter was not consulted.
import { readFileSync } from "node:fs";
import * as path from "node:path";

import type { SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";

const REPRO = path.join(__dirname, "..", "corpus", "fixtures", "repro");

function read(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(REPRO, relative)));
}

function readKeys(relative: string): Uint8Array[] {
  const data = read(relative);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const keys: Uint8Array[] = [];
  for (let pos = 0; pos < data.length;) {
    const n = view.getUint32(pos, true);
    keys.push(data.subarray(pos + 4, pos + 4 + n));
    pos += 4 + n;
  }
  return keys;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

const CASES = [
  { name: "rocksdb-fv2-partitioned-separator", file: "table.sst" },
  { name: "leveldb-db-separator", file: "table.ldb" },
];

describe.each(BACKENDS)("repro cases on $name", ({ simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  test.each(CASES)("$name: every consulted probe gets the database's answer", ({ name, file }) => {
    using table = sf.openTable(read(`${name}/${file}`));
    const probes = readKeys(`${name}/probes.keys`);
    const answers = read(`${name}/get.u8`);
    expect(answers.length).toBe(probes.length);
    const consulted = probes.filter((_, i) => answers[i] !== 2);
    const batched = table.mayContainMany(consulted);
    const mismatches: string[] = [];
    let j = 0;
    probes.forEach((probe, i) => {
      if (answers[i] === 2) return;
      const single = table.mayContain(probe) ? 1 : 0;
      const explained = table.explainMayContain(probe);
      if (single !== answers[i] || batched[j] !== answers[i] || Number(explained.mayContain) !== answers[i]) {
        mismatches.push(
          `probe #${i} (${hex(probe)}): database ${answers[i]}, single ${single}, batched ${batched[j]}, ` +
            `explainMayContain ${explained.route} ${explained.partition ?? ""} -> ${explained.mayContain}`,
        );
      }
      j++;
    });
    expect(consulted.length).toBeGreaterThan(1000);
    expect(mismatches).toEqual([]);
  });

  test("a probe equal to a shortened partition separator is answered by the next partition", () => {
    using table = sf.openTable(read("rocksdb-fv2-partitioned-separator/table.sst"));
    const probe = readKeys("rocksdb-fv2-partitioned-separator/probes.keys")[479]!;
    expect(hex(probe)).toBe("76632d4262544c4c08");
    const explained = table.explainMayContain(probe);
    expect(explained.route).toBe("partition");
    expect(explained.partition).toBe(9);
    expect(explained.mayContain).toBe(false);
  });

  test("buildLevelDbFilterBlock(t.dataBlocks()) equals the stored block, tail of empty filters included", () => {
    using table = sf.openTable(read("leveldb-filter-block-tail/table.ldb"));
    const stored = table.filterBytes()[0]!;
    expect(Buffer.compare(stored, read("leveldb-filter-block-tail/filter_block.bin"))).toBe(0);
    const blocks = [...table.dataBlocks()];
    expect(blocks.length).toBeGreaterThan(1);
    const built = sf.buildLevelDbFilterBlock(blocks, 10);
    expect(built.length).toBe(4997);
    expect(Buffer.compare(built, stored)).toBe(0);
    // Without the sizes, the block ends at the last block's start: LevelDB's tail is missing.
    const withoutSizes = sf.buildLevelDbFilterBlock(
      blocks.map(({ offset, keys }) => ({ offset, keys })),
      10,
    );
    expect(withoutSizes.length).toBe(4989);
  });

  test("block sizes are checked", () => {
    expect(() => sf.buildLevelDbFilterBlock([{ offset: 0, size: -1, keys: ["a"] }], 10)).toThrow(
      expect.objectContaining({ code: "BAD_OPTIONS" }),
    );
    expect(() => sf.buildLevelDbFilterBlock([{ offset: 0, size: 0.5, keys: ["a"] }], 10)).toThrow(
      expect.objectContaining({ code: "BAD_OPTIONS" }),
    );
  });
});
