import type { SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { blockEntries, blockHandle, bytesEqual, firstDifference, sectionCases } from "./golden";

interface FilterCase {
  id: string;
  bits_per_key: number;
  keys: { path: string };
  filter: { path: string };
  probes: { path: string };
  probe_results: string;
}

interface TableCase {
  id: string;
  options: { filter_policy: { bits_per_key: number }; compression: string };
  internal_keys: boolean;
  file: { path: string };
  footer: { index_handle: [number, number] };
  filter_block: { path: string; num_filters: number };
  probes: { path: string };
  get_results: string;
  probe_filter_index?: string; // only for tables answered through the filter block
}

const filterCases = sectionCases<FilterCase>("leveldb_filter");
const tableCases = sectionCases<TableCase>("leveldb_table");

describe.each(BACKENDS)("LevelDB filters on $name", ({ name, simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  test("every golden filter: bytes identical, every answer identical (single and batched)", () => {
    for (const c of filterCases) {
      const keys = c.corpus.readKeys(c.keys.path);
      const expected = c.corpus.readBytes(c.filter.path);
      const built = sf.buildFilter(keys, { format: "leveldb", bitsPerKey: c.bits_per_key });
      if (!bytesEqual(built, expected)) {
        throw new Error(
          `${c.corpus.name}:${c.id}: built filter differs from LevelDB's at byte ${firstDifference(built, expected)}`,
        );
      }
      // The same bytes from a KeyBatch.
      expect(
        bytesEqual(
          sf.buildFilter(sf.packKeys(keys), { format: "leveldb", bitsPerKey: c.bits_per_key }),
          expected,
        ),
      ).toBe(true);

      const probes = c.corpus.readKeys(c.probes.path);
      const answers = c.corpus.readBytes(c.probe_results);
      using filter = sf.openFilter(expected, { format: "leveldb" });
      expect(filter.kind).toBe(expected.length >= 2 ? "leveldb-bloom" : "never-match");
      const batched = filter.mayContainMany(sf.packKeys(probes));
      const fromArray = filter.mayContainMany(probes);
      for (let i = 0; i < probes.length; i++) {
        const single = filter.mayContain(probes[i]!) ? 1 : 0;
        if (single !== answers[i] || batched[i] !== answers[i] || fromArray[i] !== answers[i]) {
          throw new Error(
            `${c.corpus.name}:${c.id} probe ${i}: LevelDB says ${answers[i]}, single ${single}, batch ${batched[i]}, array ${fromArray[i]}`,
          );
        }
      }
      const keyAnswers = filter.mayContainMany(keys);
      expect(keyAnswers.every((a) => a === 1)).toBe(true);
    }
    console.log(`[golden] ${name}: ${filterCases.length} LevelDB filters, bytes and answers identical`);
  });

  test("filter blocks: LevelDB's answer for every consulted probe of every golden table", () => {
    let probesChecked = 0;
    for (const c of tableCases) {
      // Tables answered through a DB record no filter index; the table tests check those.
      if (c.probe_filter_index === undefined) continue;
      using block = sf.openLevelDbFilterBlock(c.corpus.readBytes(c.filter_block.path));
      expect(block.numFilters).toBe(c.filter_block.num_filters);
      const probes = c.corpus.readKeys(c.probes.path);
      const answers = c.corpus.readBytes(c.get_results);
      const filterIndex = c.corpus.readU32s(c.probe_filter_index);
      for (let i = 0; i < probes.length; i++) {
        if (filterIndex[i] === 0xffffffff) continue;
        const got = block.mayContain(filterIndex[i]! * 2048, probes[i]!) ? 1 : 0;
        if (got !== answers[i])
          throw new Error(`${c.corpus.name}:${c.id} probe ${i}: LevelDB says ${answers[i]}, got ${got}`);
        probesChecked++;
      }
    }
    expect(probesChecked).toBeGreaterThan(0);
    console.log(
      `[golden] ${name}: ${tableCases.length} LevelDB filter blocks, ${probesChecked} probes identical`,
    );
  });

  test("filter blocks built from the tables' data blocks equal LevelDB's bytes", () => {
    let built = 0;
    for (const c of tableCases.filter((t) => t.options.compression === "kNoCompression")) {
      const file = c.corpus.readBytes(c.file.path);
      const [indexOffset, indexSize] = c.footer.index_handle;
      const blocks = blockEntries(file.subarray(indexOffset, indexOffset + indexSize)).map(({ value }) => {
        const handle = blockHandle(value);
        const entries = blockEntries(file.subarray(handle.offset, handle.offset + handle.size));
        const trailer = c.internal_keys ? 8 : 0;
        return {
          offset: handle.offset,
          size: handle.size,
          keys: entries.map((e) => e.key.subarray(0, e.key.length - trailer)),
        };
      });
      const out = sf.buildLevelDbFilterBlock(blocks, c.options.filter_policy.bits_per_key);
      const expected = c.corpus.readBytes(c.filter_block.path);
      if (!bytesEqual(out, expected)) {
        throw new Error(
          `${c.corpus.name}:${c.id}: filter block differs from LevelDB's at byte ${firstDifference(out, expected)}`,
        );
      }
      built++;
    }
    expect(built).toBeGreaterThanOrEqual(10);
    console.log(`[golden] ${name}: ${built} LevelDB filter blocks built byte-identical`);
  });
});
