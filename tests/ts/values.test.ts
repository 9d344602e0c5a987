// Blob indexes and wide-column entities (sf.decodeBlobIndex, sf.decodeWideColumns, scan
// --decode-blob-index, scan --json) on the tables of the rocksdb_values section, against what
// RocksDB 7.8.3 recorded: sst_dump's scans (its BlobIndex::DebugString, and the entries it could
// not decode), the blob files and Get's values of blob DBs, and GetEntity's columns.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

import { SstFilterError, type BlobIndex, type Entry, type NodeSstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { bytesEqual, sectionCases } from "./golden";
import { CLI } from "./cli-path";

interface SstDumpRun {
  flags: string;
  stdout: string;
  stderr: string;
}
interface ValuesCase {
  id: string;
  file: { path: string };
  sst_dump: Record<"decode" | "decode_hex" | "plain", SstDumpRun>;
  keys?: string;
  get_values?: string;
  blob_files?: { number: number; path: string }[];
  get_entity?: { key: string; names: string; values: string }[];
}

const CASES = sectionCases<ValuesCase>("rocksdb_values").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  path: c.corpus.path(c.file.path),
}));

const RUNS = [
  { run: "decode", output: { decodeBlobIndex: true } },
  { run: "decode_hex", output: { decodeBlobIndex: true, hex: true } },
  { run: "plain", output: {} },
] as const;

/** sst_dump's scan lines: its standard output after the header, which ends with "from [...]". */
function scanLines(out: Buffer): Buffer {
  const header = out.indexOf("\nfrom [");
  return out.subarray(out.indexOf(10, header + 1) + 1);
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex").toUpperCase();

/** BlobIndex::DebugString(true) of a decoded index, written here from its fields. */
function debugStringHex(b: BlobIndex): string {
  const shown =
    b.type === "inlined-ttl"
      ? `[inlined blob] value:${hex(b.value!)}`
      : `[blob ref] file:${b.fileNumber} offset:${b.offset} size:${b.size} compression: ${b.compression}`;
  return b.type === "blob" ? shown : `${shown} exp:${b.expiration}`;
}

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has blob DBs, crafted blob indexes and entities", () => {
  const ids = CASES.map((c) => c.id);
  for (const id of ["blob_db_none", "blob_db_snappy", "blob_crafted", "entities"]) {
    expect([id, ids.includes(id)]).toEqual([id, true]);
  }
  for (const c of CASES) {
    using t = sf.openTable(readFileSync(c.path));
    const types = new Set([...t.entries()].map((e) => e.type));
    const expected = c.id === "entities" ? "wide-column-entity" : "blob-index";
    expect([c.name, types.has(expected)]).toEqual([c.name, true]);
  }
});

describe.each(CASES)("$name", (c) => {
  test.each(RUNS)(
    "scan text ($run) as sst_dump's, standard error included (sync and async)",
    async ({ run, output }) => {
      const recorded = c.sst_dump[run];
      const theirs = scanLines(Buffer.from(c.corpus.readBytes(recorded.stdout)));
      const theirErrors = Buffer.from(c.corpus.readBytes(recorded.stderr));
      using t = sf.openTable(readFileSync(c.path));
      const errors: Uint8Array[] = [];
      const ours = Buffer.concat([...t.scanText({}, { ...output, onErrorText: (e) => errors.push(e) })]);
      expect([c.name, run, ours.equals(theirs)]).toEqual([c.name, run, true]);
      expect([c.name, run, Buffer.concat(errors).toString("latin1")]).toEqual([
        c.name,
        run,
        theirErrors.toString("latin1"),
      ]);
      const f = await sf.openTableFile(c.path);
      const fromFile: Uint8Array[] = [];
      for await (const text of f.scanText({}, output)) fromFile.push(text);
      f.dispose();
      expect([c.name, run, Buffer.concat(fromFile).equals(theirs)]).toEqual([c.name, run, true]);
    },
  );

  test.each(BACKENDS)(
    "decodeBlobIndex ($name): sst_dump's decoded text, CORRUPT where it failed",
    async ({ simd }) => {
      const lib = await loadBackend(simd);
      using t = lib.openTable(readFileSync(c.path));
      const lines = scanLines(Buffer.from(c.corpus.readBytes(c.sst_dump.decode_hex.stdout)))
        .toString("latin1")
        .split("\n");
      const failed = Buffer.from(c.corpus.readBytes(c.sst_dump.decode_hex.stderr)).toString("latin1");
      let decoded = 0;
      for (const e of t.entries()) {
        const prefix = `'${hex(e.key)}' seq:${e.seq}, type:${e.typeCode} => `;
        if (e.type !== "blob-index") continue;
        if (failed.includes(`${prefix}error decoding blob index\n`)) {
          let error: unknown;
          try {
            lib.decodeBlobIndex(e.value);
          } catch (thrown) {
            error = thrown;
          }
          expect([
            c.name,
            hex(e.key),
            error instanceof SstFilterError && error.code,
            typeof (error as SstFilterError).offset,
          ]).toEqual([c.name, hex(e.key), "CORRUPT", "number"]);
          continue;
        }
        const line = lines.find((l) => l.startsWith(prefix));
        expect([c.name, hex(e.key), debugStringHex(lib.decodeBlobIndex(e.value))]).toEqual([
          c.name,
          hex(e.key),
          line?.slice(prefix.length),
        ]);
        decoded++;
      }
      if (c.id !== "entities") expect([c.name, decoded > 0]).toEqual([c.name, true]);
    },
  );
});

describe.each(CASES.filter((c) => c.blob_files !== undefined))("$name: blob DB", (c) => {
  test("every blob index names the blob file and the bytes where Get's value lies", () => {
    using t = sf.openTable(readFileSync(c.path));
    const keys = c.corpus.readKeys(c.keys!);
    const values = c.corpus.readKeys(c.get_values!);
    const blobFile = c.blob_files![0]!;
    const blob = c.corpus.readBytes(blobFile.path);
    const entries: Entry[] = [...t.entries()];
    expect([c.name, entries.map((e) => hex(e.key))]).toEqual([c.name, keys.map(hex)]);
    let inBlobFile = 0;
    entries.forEach((e, i) => {
      const got = values[i]!;
      if (e.type !== "blob-index") {
        // Values shorter than min_blob_size stay in the table.
        expect([c.name, hex(e.key), e.type, got.length < 20, bytesEqual(e.value, got)]).toEqual([
          c.name,
          hex(e.key),
          "put",
          true,
          true,
        ]);
        return;
      }
      const b = sf.decodeBlobIndex(e.value);
      expect([c.name, hex(e.key), b.type, b.fileNumber]).toEqual([
        c.name,
        hex(e.key),
        "blob",
        BigInt(blobFile.number),
      ]);
      expect(b.offset! + b.size!).toBeLessThanOrEqual(BigInt(blob.length));
      if (b.compression === "NoCompression") {
        const stored = blob.subarray(Number(b.offset), Number(b.offset! + b.size!));
        expect([c.name, hex(e.key), bytesEqual(stored, got)]).toEqual([c.name, hex(e.key), true]);
      } else {
        expect([c.name, b.compression]).toEqual([c.name, "Snappy"]);
      }
      inBlobFile++;
    });
    expect([c.name, inBlobFile > 0]).toEqual([c.name, true]);
  });
});

describe.each(CASES.filter((c) => c.get_entity !== undefined))("$name: entities", (c) => {
  test.each(BACKENDS)("decodeWideColumns ($name) gives GetEntity's columns", async ({ simd }) => {
    const lib = await loadBackend(simd);
    using t = lib.openTable(readFileSync(c.path));
    const entries = [...t.entries()];
    expect(entries.length).toBe(c.get_entity!.length);
    c.get_entity!.forEach((recorded, i) => {
      const e = entries[i]!;
      const names = c.corpus.readKeys(recorded.names).map(hex);
      const values = c.corpus.readKeys(recorded.values).map(hex);
      expect([recorded.key, Buffer.from(e.key).toString("latin1")]).toEqual([recorded.key, recorded.key]);
      // GetEntity gives a plain value as the default column (the empty name).
      const columns =
        e.type === "wide-column-entity"
          ? lib.decodeWideColumns(e.value)
          : [{ name: new Uint8Array(0), value: e.value }];
      expect([
        recorded.key,
        columns.map((col) => hex(col.name)),
        columns.map((col) => hex(col.value)),
      ]).toEqual([recorded.key, names, values]);
      for (const col of columns) expect("blobIndex" in col).toBe(false);
    });
  });
});

test("decoders reject bad bytes with CORRUPT and the offset, and values that are no Uint8Array", () => {
  const corrupt = (f: () => unknown): [string | undefined, number | undefined] => {
    try {
      f();
    } catch (error) {
      if (error instanceof SstFilterError) return [error.code, error.offset];
      throw error;
    }
    return [undefined, undefined];
  };
  expect(corrupt(() => sf.decodeBlobIndex(new Uint8Array(0)))).toEqual(["CORRUPT", 0]);
  expect(corrupt(() => sf.decodeBlobIndex(Uint8Array.of(3, 1, 1, 1, 0)))).toEqual(["CORRUPT", 0]);
  expect(corrupt(() => sf.decodeBlobIndex(Uint8Array.of(1, 5, 1, 2, 0, 9)))).toEqual(["CORRUPT", 5]);
  expect(corrupt(() => sf.decodeWideColumns(Uint8Array.of(1, 2, 1, 0x62, 0, 1, 0x61, 0)))).toEqual([
    "CORRUPT",
    5,
  ]);
  expect(corrupt(() => sf.decodeWideColumns(Uint8Array.of(1, 0xff, 0xff, 0xff, 0xff, 0x0f)))).toEqual([
    "CORRUPT",
    6,
  ]);
  expect(corrupt(() => sf.decodeWideColumns(Uint8Array.of(7, 0)))).toEqual(["CORRUPT", 0]);
  expect(corrupt(() => sf.decodeBlobIndex("text" as unknown as Uint8Array))).toEqual([
    "BAD_OPTIONS",
    undefined,
  ]);
  // Version 2: a column that is a blob reference (file 12, offset 400, size 40, LZ4).
  const v2 = Uint8Array.of(2, 1, 1, 1, 1, 0x11, 1, 6, 0x61, 1, 12, 0x90, 0x03, 40, 4);
  const [column] = sf.decodeWideColumns(v2);
  expect(column!.blobIndex).toEqual({
    type: "blob",
    fileNumber: 12n,
    offset: 400n,
    size: 40n,
    compression: "LZ4",
    compressionType: 4,
  });
  expect(sf.decodeBlobIndex(Uint8Array.of(0, 0x2a, 0x68, 0x69))).toEqual({
    type: "inlined-ttl",
    expiration: 42n,
    value: Uint8Array.of(0x68, 0x69),
  });
});

test("64-bit fields arrive whole as unsigned bigints, in the interface's field order", () => {
  // A blob-ttl index (rocksdb db/blob/blob_index.h EncodeBlobTTL): type 2, then varint64
  // expiration, file number, offset and size, then the compression byte. 2^64 - 1 is ten varint
  // bytes; 2^63 is nine 0x80 bytes and a 1.
  const max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
  const half = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
  const index = sf.decodeBlobIndex(Uint8Array.from([2, ...max, ...max, ...half, 7, 0]));
  expect(index).toEqual({
    type: "blob-ttl",
    fileNumber: (1n << 64n) - 1n,
    offset: 1n << 63n,
    size: 7n,
    compression: "NoCompression",
    compressionType: 0,
    expiration: (1n << 64n) - 1n,
  });
  // JSON output (scan --json, the CLI) lists the fields as the interface does.
  expect(Object.keys(index)).toEqual([
    "type",
    "fileNumber",
    "offset",
    "size",
    "compression",
    "compressionType",
    "expiration",
  ]);
  expect(Object.keys(sf.decodeBlobIndex(Uint8Array.of(0, 0x2a, 0x68, 0x69)))).toEqual([
    "type",
    "expiration",
    "value",
  ]);
});

describe("sstfilter scan", () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 1 << 30 });

  test.each(CASES)("--decode-blob-index prints sst_dump's lines: $name", (c) => {
    for (const [name, flags] of [
      // --raw: sst_dump's bytes, which the default escapes for a terminal.
      ["decode", ["--decode-blob-index", "--raw"]],
      ["decode_hex", ["--decode-blob-index", "--output-hex"]],
    ] as const) {
      const r = run("scan", c.path, ...flags);
      const recorded = c.sst_dump[name];
      expect([c.name, name, r.status]).toEqual([c.name, name, 0]);
      const theirs = scanLines(Buffer.from(c.corpus.readBytes(recorded.stdout)));
      expect([c.name, name, r.stdout.equals(theirs)]).toEqual([c.name, name, true]);
      expect([c.name, name, r.stderr.toString("latin1")]).toEqual([
        c.name,
        name,
        Buffer.from(c.corpus.readBytes(recorded.stderr)).toString("latin1"),
      ]);
    }
  });

  test("--json adds blobIndex to blob indexes and columns to entities", () => {
    const json = (id: string) =>
      run("scan", CASES.find((c) => c.id === id)!.path, "--json")
        .stdout.toString()
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const crafted = json("blob_crafted");
    expect(crafted[1]).toMatchObject({
      key: "key00001",
      type: "blob-index",
      blobIndex: { type: "blob", fileNumber: "12", offset: "3456", size: "789", compression: "Snappy" },
    });
    expect(crafted.find((e) => e.key === "key00014")).toMatchObject({
      blobIndex: { type: "inlined-ttl", expiration: "1700000000", value: "inlined value" },
    });
    expect(crafted.filter((e) => typeof e.valueError === "string").length).toBe(5);
    const entities = json("entities");
    expect(entities[2]).toMatchObject({
      type: "wide-column-entity",
      columns: [
        { name: "", value: "" },
        { name: "a", value: "1" },
        { name: "b", value: "" },
      ],
    });
  });
});
