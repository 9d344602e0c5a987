// The `sstfilter` command (dist/esm/bin/sstfilter.js, the package's "bin", bundled), run as a user runs it on the
// generated corpus: inspect (text and JSON), probe exit codes both ways, build equal to
// sf.buildFilter, write equal to SstFileWriter's bytes, verify on sound and damaged files. Help,
// usage errors and unreadable input, and every output whole: tests/cli-expected (cli-expected.test.ts).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import type { NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { GENERATED, writerEntries } from "./golden";
import { CLI } from "./cli-path";

const work = mkdtempSync(path.join(tmpdir(), "sstfilter-cli-"));

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
const CASES = GENERATED.section<{ cases: any[] }>("rocksdb_sst")!.cases;
const FULL = CASES.find((c) => c.id === "fv5_bloom10_crc32c")!;
const PARTITIONED = CASES.find((c) => c.id === "part_bloom10_mbs256")!;
/* eslint-enable @typescript-eslint/no-explicit-any */

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

describe("inspect", () => {
  test("text: format, footer, checksum, filter with estimated and measured rates, properties", () => {
    const r = run("inspect", GENERATED.path(PARTITIONED.file.path));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("format      rocksdb block-based table, format_version 5");
    expect(r.stdout).toContain("checksum    crc32c");
    expect(r.stdout).toContain(`metaindex @ ${PARTITIONED.footer.metaindex_handle[0]}`);
    expect(r.stdout).toMatch(/filter {6}rocksdb-bloom \(policy bloomfilter\), partitioned, 31 partitions/);
    expect(r.stdout).toMatch(/5,000 keys \(rocksdb\.num\.filter_entries\), [\d.]+ bits\/key, 6 probes/);
    expect(r.stdout).toMatch(
      /estimated 0\.\d\d% \(RocksDB's formula\), measured 0\.\d\d% on [\d,]+ absent keys/,
    );
    expect(r.stdout).toMatch(/rocksdb\.num\.entries +5000/);
  });

  test("--json: everything the table says, parseable, properties as stored", () => {
    const r = run("inspect", "--json", GENERATED.path(FULL.file.path));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.format).toBe("rocksdb");
    expect(out.footer).toMatchObject({ formatVersion: 5, checksum: "crc32c" });
    expect(out.metaindex).toEqual(FULL.metaindex);
    expect(out.properties).toMatchObject(FULL.properties);
    expect(out.filter).toMatchObject({ kind: "rocksdb-bloom", keys: 2000, partitioned: false });
    expect(out.filter.parts).toHaveLength(1);
    expect(out.filter.parts[0].details.numProbes).toBe(FULL.filter.filter_meta.num_probes);
  });

  test("a filter of more 64-byte blocks than a function takes arguments: its density summary", () => {
    // 100 bits per key: about 5 keys per block, so ~950k distinct keys fill ~185k blocks (the
    // summary once spread them into Math.min, which overflows the stack past ~120k).
    const db = mkdtempSync(path.join(work, "big-filter-"));
    execFileSync("db_bench", [
      "--benchmarks=fillrandom,flush",
      "--num=1500000",
      "--key_size=8",
      "--value_size=1",
      "--bloom_bits=100",
      "--format_version=5",
      "--compression_type=none",
      "--write_buffer_size=1000000000",
      "--disable_wal=1",
      "--disable_auto_compactions=1",
      `--db=${db}`,
    ]);
    const tables = readdirSync(db).filter((f) => f.endsWith(".sst"));
    expect(tables).toHaveLength(1);
    const r = run("inspect", path.join(db, tables[0]!));
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const blocks = Number(/over ([\d,]+) 64-byte blocks/.exec(r.stdout)?.[1]?.replace(/,/g, ""));
    expect(blocks).toBeGreaterThan(150_000);
    expect(r.stdout).toMatch(/bits set [\d.]+% over [\d,]+ 64-byte blocks \(min [\d.]+%, max [\d.]+%\)/);
  }, 60_000);

  test("LevelDB: keys counted from the data blocks", () => {
    const r = run("inspect", GENERATED.path("leveldb-table/db_b10_bs1024/table.ldb"));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("leveldb table");
    const keys = GENERATED.find<{ id: string; keys: { count: number } }>("leveldb_table", "db_b10_bs1024")
      .keys.count;
    expect(r.stdout).toContain(`${keys.toLocaleString("en-US")} keys (counted)`);
  });
});

describe("probe", () => {
  const file = GENERATED.path(FULL.file.path);
  const keys = GENERATED.readKeys(FULL.keys.path);
  const probes = GENERATED.readKeys(FULL.probes.path);
  const answers = GENERATED.readBytes(FULL.get_results);
  const absent = probes.find((_, i) => answers[i] === 0)!;

  test("exit 0 when every key may be present", () => {
    const r = run("probe", "--hex", file, hex(keys[0]!), hex(keys[1999]!));
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n")).toHaveLength(2);
    expect(r.stdout).toContain("may be in this file");
    expect(r.stdout).toContain("full filter; the lookup goes on to data block @ 0");
  });

  test("exit 1 when some key is definitely absent, naming the partition", () => {
    const r = run("probe", "--hex", file, hex(keys[0]!), hex(absent));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("definitely not in this file");
    const part = run("probe", GENERATED.path(PARTITIONED.file.path), "no-such-key");
    expect(part.code).toBe(1);
    expect(part.stdout).toMatch(/no-such-key +definitely not in this file +\(filter partition \d+ of 31\)/);
  });
});

describe("build", () => {
  const keys = ["apple", "banana", "cherry", "", "durian"];

  test.each(["leveldb", "rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"] as const)(
    "%s: the bytes sf.buildFilter returns, from text or hex lines",
    (format) => {
      const text = path.join(work, `${format}.txt`);
      writeFileSync(text, keys.join("\r\n") + "\n");
      const out = path.join(work, `${format}.bin`);
      // LevelDB's policy takes whole bits per key; RocksDB's fractional ones.
      const bits = format === "leveldb" ? 10 : 9.5;
      const r = run("build", "--format", format, "--bits-per-key", String(bits), text, "-o", out);
      expect(r.code).toBe(0);
      const expected = sf.buildFilter(keys, { format, bitsPerKey: bits });
      expect(new Uint8Array(readFileSync(out))).toEqual(expected);
      expect(r.stderr).toContain(`5 keys at ${bits} bits/key: ${expected.length} bytes written to ${out}`);

      const hexFile = path.join(work, `${format}.hex`);
      writeFileSync(hexFile, keys.map((k) => Buffer.from(k).toString("hex")).join("\n"));
      const piped = spawnSync(process.execPath, [
        CLI,
        "build",
        "--hex",
        "--format",
        format,
        `--bits-per-key=${bits}`,
        hexFile,
      ]);
      expect(piped.status).toBe(0);
      expect(new Uint8Array(piped.stdout)).toEqual(expected);
    },
  );
});

describe("write", () => {
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const WRITER = GENERATED.section<{ cases: any[] }>("table_writer")!.cases;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  // Hex lines key<TAB>value of a puts-only case's entries.
  const hexLines = (c: { entries: { path: string } }): string[] =>
    writerEntries(GENERATED.readBytes(c.entries.path)).map((e) => `${hex(e.key)}\t${hex(e.value)}`);

  test.each([
    ["fv4_legacy_snappy_empty_values", ["--format-version", "4", "--filter", "rocksdb-legacy-bloom"]],
    [
      "part_fv5_ribbon_meta256",
      [
        "--filter",
        "rocksdb-ribbon",
        "--partition-filters",
        "--compression",
        "none",
        "--metadata-block-size",
        "256",
      ],
    ],
    ["twolevel_fv5_nofilter_snappy_meta1024", ["--index-type", "two-level", "--metadata-block-size", "1024"]],
  ])("RocksDB: SstFileWriter's bytes, given its options and identity: %s", (id, options) => {
    const c = WRITER.find((x) => x.id === id)!;
    const input = path.join(work, `${id}.txt`);
    writeFileSync(input, hexLines(c).join("\n") + "\n");
    const out = path.join(work, `${id}.sst`);
    const properties = Object.entries(c.identity as Record<string, string | number>).flatMap(
      ([name, value]) => ["--property", `${name}=${value}`],
    );
    const r = run("write", input, "-o", out, "--hex", "--checksum", "crc32c", ...options, ...properties);
    expect(r.stderr).toMatch(/rocksdb table, [\d,]+ entries: [\d,]+ bytes written/);
    expect(r.code).toBe(0);
    expect(hex(readFileSync(out))).toBe(hex(GENERATED.readBytes(c.file.path)));
  });

  test("RocksDB --format-version 7: the table's footer and properties say format_version 7", () => {
    const input = path.join(work, "fv7.txt");
    const lines = Array.from({ length: 500 }, (_, i) => `k${String(i).padStart(4, "0")}\tvalue ${i}`);
    writeFileSync(input, lines.join("\n") + "\n");
    const out = path.join(work, "fv7.sst");
    const r = run("write", input, "-o", out, "--format-version", "7", "--filter", "rocksdb-ribbon");
    expect(r.code).toBe(0);
    const info = run("inspect", "--json", out);
    expect(info.code).toBe(0);
    const table = JSON.parse(info.stdout);
    expect(table.footer).toMatchObject({ formatVersion: 7, checksum: "xxh3" });
    expect(table.properties["rocksdb.format.version"]).toBe(7);
    expect(table.properties["rocksdb.compression"]).toBe("BuiltinV2;01;");
    expect(table.properties["rocksdb.block.based.table.decoupled.partitioned.filters"]).toBe("1");
    // Coupled partitioned filters: RocksDB 11's collector then leaves the property out.
    const coupled = path.join(work, "fv7-coupled.sst");
    const args = ["--filter", "rocksdb-bloom", "--partition-filters", "--metadata-block-size", "256"];
    args.push("--decouple-partitioned-filters");
    expect(run("write", input, "-o", coupled, ...args, "false", "--format-version", "7").code).toBe(0);
    const partitioned = JSON.parse(run("inspect", "--json", coupled).stdout);
    expect(partitioned.filter).toMatchObject({ partitioned: true });
    expect(partitioned.properties["rocksdb.block.based.table.decoupled.partitioned.filters"]).toBeUndefined();
    expect(run("write", input, "-o", coupled, ...args, "maybe").code).toBe(2);
    // Data blocks with values apart (RocksDB 11): recorded in the properties, every entry read back.
    const apart = path.join(work, "fv7-apart.sst");
    const flag = "--separate-key-value-in-data-block";
    expect(run("write", input, "-o", apart, flag, "--format-version", "7", "--block-size", "512").code).toBe(
      0,
    );
    const separated = JSON.parse(run("inspect", "--json", apart).stdout);
    expect(separated.properties["rocksdb.separate.key.value.in.data.block"]).toBe(1);
    const scan = run("scan", apart);
    expect(scan.code).toBe(0);
    expect(scan.stdout).toContain("'k0499' seq:0, type:1 => value 499");
    expect(run("write", input, "-o", apart, flag, "--format-version", "5").code).toBe(2);
  });

  test("LevelDB with --sort: TableBuilder's bytes from shuffled input", () => {
    const c = WRITER.find((x) => x.id === "ldb_puts_snappy_leveldb")!;
    const lines = hexLines(c);
    const shuffled = lines.map((l, i) => lines[(i * 7919) % lines.length]!);
    expect(new Set(shuffled).size).toBe(lines.length);
    const input = path.join(work, "leveldb.txt");
    writeFileSync(input, shuffled.join("\n"));
    const out = path.join(work, "written.ldb");
    const r = run(
      "write",
      input,
      "--output",
      out,
      "--hex",
      "--sort",
      "--format",
      "leveldb",
      "--filter",
      "leveldb",
    );
    expect(r.code).toBe(0);
    expect(hex(readFileSync(out))).toBe(hex(GENERATED.readBytes(c.file.path)));
  });

  test("keys out of order: exit 3 naming the line, no file left; bad options: exit 2", () => {
    const input = path.join(work, "unsorted.txt");
    writeFileSync(input, "b\t1\na\t2\n");
    const out = path.join(work, "unsorted.sst");
    const r = run("write", input, "-o", out);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("line 2");
    expect(r.stderr).toContain("BAD_KEY");
    expect(readdirSync(work)).not.toContain("unsorted.sst");
    expect(run("write", input, "-o", out, "--checksum", "md5").code).toBe(2);
    expect(run("write", input).code).toBe(2);
    expect(run("write", input, "-o", out, "--index-type", "hash").code).toBe(2);
    expect(run("write", input, "-o", out, "--metadata-block-size", "4k").code).toBe(2);
  });

  test("keys out of order after MiBs already streamed to OUT: exit 3, OUT removed", () => {
    const input = path.join(work, "late-unsorted.txt");
    const lines = Array.from(
      { length: 30000 },
      (_, i) => `k${String(i).padStart(8, "0")}\t${"v".repeat(100)}`,
    );
    lines.push("a\tlate");
    writeFileSync(input, lines.join("\n") + "\n");
    const out = path.join(work, "late-unsorted.sst");
    const r = run("write", input, "-o", out, "--compression", "none");
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("line 30001");
    expect(r.stderr).toContain("BAD_KEY");
    expect(readdirSync(work)).not.toContain("late-unsorted.sst");
  });
});

describe("verify", () => {
  test("a sound file: exit 0", () => {
    const r = run("verify", GENERATED.path(PARTITIONED.file.path));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(": ok");
    const blocks = PARTITIONED.properties["rocksdb.num.data.blocks"] as number;
    const keys = (PARTITIONED.keys.count as number).toLocaleString("en-US");
    expect(r.stdout).toContain(`${blocks} data blocks, ${keys} keys read, every checksum matches`);
    expect(r.stdout).toContain("every key read passes the filter");
    const leveldb = run("verify", "--user-keys", GENERATED.path("leveldb-table/tb_b10_bs256/table.ldb"));
    expect(leveldb.code).toBe(0);
  });

  test("--jobs N: the same report from N threads", () => {
    for (const c of [PARTITIONED, CASES.find((x) => x.id === "fv5_bloom10_zstd_dict16k")!]) {
      const one = run("verify", GENERATED.path(c.file.path));
      for (const jobs of ["2", "3"]) {
        const many = run("verify", "--jobs", jobs, GENERATED.path(c.file.path));
        expect([c.id, jobs, many.code, many.stdout]).toEqual([c.id, jobs, 0, one.stdout]);
      }
    }
    expect(run("verify", "--jobs", "0", GENERATED.path(FULL.file.path)).code).toBe(2);
  });

  test("threads by default: one per core while the data pays and the further copies stay small", () => {
    // defaultVerifyJobs on tables described by what it reads: the 222 MB db_bench table of the
    // benchmark (212 MB of data blocks, 4 MB of filter, 3 MB of index), a 2 GB one (36 MB of
    // filter, 17 MB of index), and a small one.
    const script = `
      import { defaultVerifyJobs } from ${JSON.stringify(path.join(path.dirname(CLI), "..", "api", "table-verify.js"))};
      const MiB = 1 << 20;
      const table = (data, filter, index) => ({
        properties: { "rocksdb.data.size": data * MiB, "rocksdb.index.size": index * MiB },
        filter: { sizeBytes: filter * MiB },
        footer: { indexHandle: [0, 0], metaindexHandle: [0, 0] },
        metaindex: {},
      });
      console.log(JSON.stringify([
        defaultVerifyJobs(table(212, 4, 3), 2),
        defaultVerifyJobs(table(212, 4, 3), 8),
        defaultVerifyJobs(table(212, 4, 3), 1),
        defaultVerifyJobs(table(1900, 36, 17), 8),
        defaultVerifyJobs(table(20, 0.1, 0.1), 8),
        defaultVerifyJobs(table(1024, 1, 1), 8),
      ]));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([2, 2, 1, 1, 1, 2]);
  });

  test("a damaged copy: exit 1, naming the code and the offset", () => {
    const bytes = GENERATED.readBytes(FULL.file.path);
    const damaged = path.join(work, "damaged.sst");
    bytes[5000]! ^= 0xff;
    writeFileSync(damaged, bytes);
    const r = run("verify", damaged);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${damaged}: CORRUPT`);
    expect(r.stdout).toMatch(/CHECKSUM_MISMATCH: .*\(at byte \d+\)/);
    // Threads report the same failing block.
    const threaded = run("verify", "--jobs", "2", damaged);
    expect([threaded.code, threaded.stdout]).toEqual([1, r.stdout]);

    // A damaged footer (the metaindex offset, right after the checksum type of a 53-byte footer):
    // the file does not even open.
    const footer = GENERATED.readBytes(FULL.file.path);
    footer[footer.length - 52]! ^= 0x01;
    writeFileSync(damaged, footer);
    const open = run("verify", damaged);
    expect(open.code).toBe(1);
    expect(open.stdout).toMatch(/CORRUPT\n {2}(CORRUPT|CHECKSUM_MISMATCH|TRUNCATED): .*at byte \d+/);
  });
});

describe("verify: every codec, and what this reader cannot decode", () => {
  test.each(["fv5_bloom10_bzip2", "fv5_bloom10_zstd_trained_dict16k", "fv5_bloom10_lz4_dict16k"])(
    "%s: exit 0",
    (id) => {
      const c = CASES.find((x) => x.id === id)!;
      const r = run("verify", GENERATED.path(c.file.path));
      expect([r.code, r.stdout]).toEqual([0, expect.stringContaining("every key read passes the filter")]);
    },
  );

  test("a data block in XPRESS (Windows only): UNSUPPORTED, exit 3, naming the block", async () => {
    const sf = await loadBackend(true);
    const bytes = GENERATED.readBytes(FULL.file.path);
    const t = sf.openTable(bytes);
    const first = t.dataBlocks().next().value!;
    t.dispose();
    const trailer = first.offset + first.size;
    bytes[trailer] = 6;
    const crc = sf.hash.crc32cMask(sf.hash.crc32c(bytes.subarray(first.offset, trailer + 1)));
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(trailer + 1, crc, true);
    const xpress = path.join(work, "xpress.sst");
    writeFileSync(xpress, bytes);
    const r = run("verify", xpress);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`${xpress}: UNSUPPORTED`);
    expect(r.stdout).toContain(
      `UNSUPPORTED: XPRESS compressed blocks are not supported (at byte ${first.offset})`,
    );
  });
});
