// The one voice of the command line and the viewer (ts/tools/format.ts, published as
// `sstfilter/tools`): a filter lookup's route worded for both layouts names the same filter and
// data block; a value decoded by its entry type is what sf.decodeBlobIndex / decodeWideColumns give.
// The CLI's and the viewer's own tests check the wording byte for byte; these check that both
// layouts say the same fact, on every probe of the rocksdb_sst and leveldb_table corpora.
import { readFileSync } from "node:fs";

import { SstFilterError, type NodeSstFilter } from "sstfilter";

import {
  decodeEntryValue,
  handleLine,
  handleShort,
  lookupRouteLine,
  lookupRouteSentence,
} from "../../ts/tools/format";
import { loadBackend } from "./backends";
import { sectionCases } from "./golden";

interface TableCase {
  id: string;
  file: { path: string };
  /** leveldb_table: false for a bare TableBuilder's user keys. */
  internal_keys?: boolean;
}

const TABLES = [...sectionCases<TableCase>("rocksdb_sst"), ...sectionCases<TableCase>("leveldb_table")].map(
  (c) => ({ ...c, name: `${c.corpus.name}:${c.id}`, path: c.corpus.path(c.file.path) }),
);
const VALUES = sectionCases<TableCase>("rocksdb_values").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  path: c.corpus.path(c.file.path),
}));

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("every probe's route: the CLI's line and the viewer's sentence name the same partition and data block", () => {
  const routes = new Set<string>();
  for (const c of TABLES) {
    using t = sf.openTable(readFileSync(c.path), { internalKeys: c.internal_keys ?? true });
    const partitions = t.filter?.partitions ?? 0;
    // The table's own keys (a may-contain answer) and keys just past them (mostly absent).
    const keys = [...t.entries({ limit: 50 })].flatMap((e) => [e.key, Uint8Array.from([...e.key, 0xff])]);
    for (const key of keys) {
      const e = t.explainMayContain(key);
      routes.add(e.route);
      const line = lookupRouteLine(e, partitions);
      const sentence = lookupRouteSentence(e, partitions, "");
      const where = `${c.name} key ${Buffer.from(key).toString("hex")} (${e.route})`;
      if (e.route === "partition") {
        expect([where, line.includes(`partition ${e.partition} of ${partitions}`)]).toEqual([where, true]);
        expect([where, sentence.includes(`partition ${e.partition} of ${partitions}`)]).toEqual([
          where,
          true,
        ]);
      }
      // The data block a lookup reads (or whose filter answered) is named by both, or by neither.
      const block = e.dataBlock;
      const inLine = block !== null && line.includes(handleLine(block));
      const inSentence = block !== null && sentence.includes(handleShort(block));
      expect([where, inLine]).toEqual([where, inSentence]);
      if (e.route === "block-filter") expect([where, inLine]).toEqual([where, true]);
    }
  }
  // The corpora reach the three layouts of a filter: a full filter, partitions, LevelDB's per block.
  expect([...routes].filter((r) => ["full-filter", "partition", "block-filter"].includes(r)).sort()).toEqual([
    "block-filter",
    "full-filter",
    "partition",
  ]);
});

test("decodeEntryValue: blob indexes and entities as sf decodes them, other types undefined", () => {
  const seen = { blobIndex: 0, columns: 0, none: 0 };
  for (const c of VALUES) {
    using t = sf.openTable(readFileSync(c.path));
    for (const e of t.entries()) {
      const where = `${c.name} key ${Buffer.from(e.key).toString("hex")} (${e.type})`;
      const decoded = decodeEntryValue(sf, e);
      const expected = (() => {
        try {
          if (e.type === "blob-index") return { blobIndex: sf.decodeBlobIndex(e.value) };
          if (e.type === "wide-column-entity") return { columns: sf.decodeWideColumns(e.value) };
          return undefined;
        } catch (error) {
          return { error };
        }
      })();
      if (expected !== undefined && "error" in expected) {
        expect([
          where,
          decoded !== undefined && "error" in decoded && decoded.error instanceof SstFilterError,
        ]).toEqual([where, true]);
        continue;
      }
      expect([where, decoded]).toEqual([where, expected]);
      if (decoded === undefined) seen.none++;
      else if ("blobIndex" in decoded) seen.blobIndex++;
      else if ("columns" in decoded) seen.columns++;
    }
  }
  expect([seen.blobIndex > 0, seen.columns > 0, seen.none > 0]).toEqual([true, true, true]);
});
