// RocksDB 11.8.1's format_version 7 compression names and user-defined indexes
// (tests/corpus/fixtures/v11-meta): the manager and codec ids rocksdb.compression records, a table
// of a codec of another compression manager answered UNSUPPORTED naming both (never decoded by
// guess), and the trie index's meta block read past and listed by name and size. Probe answers,
// entries and keys of the readable tables are table.test.ts's.
import { readFileSync } from "node:fs";

import { SstFilterError, type SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { FIXTURES, sectionCases } from "./golden";

interface MetaCase {
  id: string;
  file: string;
  compression: string;
}

const CASES = sectionCases<MetaCase>("v11_meta");
const read = (c: MetaCase): Uint8Array => new Uint8Array(readFileSync(FIXTURES.path(`v11-meta/${c.file}`)));
const UDI_BLOCK = "rocksdb.user_defined_index.trie_index";
// The codec ids rocksdb.compression lists per builtin codec (include/rocksdb/compression_type.h).
const CODEC_IDS: Record<string, string> = {
  none: "",
  snappy: "01",
  zlib: "02",
  bzip2: "03",
  lz4: "04",
  lz4hc: "05",
  zstd: "07",
};

describe.each(BACKENDS)("format_version 7 compression managers on $name", ({ simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  test("the corpus holds the builtin codecs, the custom codec and user-defined indexes", () => {
    const ids = CASES.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(["custom-codec-0x81", "trie-index", "trie-index-primary"]));
    expect(
      CASES.filter((c) => c.id.startsWith("fv7-"))
        .map((c) => c.compression)
        .sort(),
    ).toEqual(Object.keys(CODEC_IDS).sort());
  });

  test.each(CASES.filter((c) => c.id.startsWith("fv7-")).map((c) => [c.id, c] as const))(
    "%s: rocksdb.compression names BuiltinV2 and the codec",
    (_id, c) => {
      using t = sf.openTable(read(c));
      const ids = CODEC_IDS[c.compression]!;
      expect([c.id, t.properties["rocksdb.compression"]]).toEqual([c.id, ids ? `BuiltinV2;${ids};` : ";;"]);
    },
  );

  test("a codec of another compression manager is UNSUPPORTED, naming the manager and the id", () => {
    const c = CASES.find((k) => k.id === "custom-codec-0x81")!;
    // RocksDB stored the index and filter raw: the table opens, the first data block (offset 0) is
    // of codec 0x81.
    using t = sf.openTable(read(c));
    let error: unknown;
    try {
      for (const key of t.keys()) throw new Error(`read key ${Buffer.from(key).toString("hex")}`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SstFilterError);
    const e = error as SstFilterError;
    expect([e.code, e.message, e.offset]).toEqual([
      "UNSUPPORTED",
      expect.stringContaining(
        "compression manager SstfilterFixtureCodecs, codec 0x81: not a codec of this reader",
      ),
      0,
    ]);
  });

  test.each(CASES.filter((c) => c.id.startsWith("trie-index")).map((c) => [c.id, c] as const))(
    "%s: the user-defined index is read past and listed by name and size",
    (_id, c) => {
      using t = sf.openTable(read(c));
      const handle = t.metaindex[UDI_BLOCK];
      expect([c.id, handle?.length]).toEqual([c.id, 2]);
      const region = t.layout().find((r) => r.name === UDI_BLOCK);
      expect([c.id, region?.kind, region?.offset, region?.size]).toEqual([
        c.id,
        "meta",
        handle![0],
        handle![1],
      ]);
      expect([c.id, t.properties["rocksdb.udi.is.primary.index"]]).toEqual([
        c.id,
        c.id === "trie-index-primary" ? 1 : undefined,
      ]);
    },
  );
});
