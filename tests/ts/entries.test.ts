// Records: t.entries(), t.scanText(), t.rangeDeletions(), t.get() and `sstfilter scan / get`,
// checked against Debian's sst_dump 7.8.3 (rocksdb-tools): its scan lines for every RocksDB table
// of the corpora it can read, and for a table db_bench writes here with puts, deletes, merges and
// range deletions; its raw dump for the range deletions.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { type Entry, type NodeSstFilter, type Table } from "sstfilter";

import { loadBackend } from "./backends";
import { writeMixedTable } from "./mixed-table";
import { bytesEqual, sectionCases } from "./golden";
import { CLI } from "./cli-path";

const TABLES = sectionCases<{ id: string; file: { path: string }; options?: { format_version?: number } }>(
  "rocksdb_sst",
)
  // Tables of format_version 6 and 7 (RocksDB 8+) are beyond sst_dump 7.8.3.
  .filter((c) => c.corpus.name === "generated" || (c.options?.format_version ?? 0) <= 5)
  .map((c) => ({ id: `${c.corpus.name}:${c.id}`, file: c.corpus.path(c.file.path) }));

/** sst_dump's scan lines: its output after the four header lines. */
function sstDumpScan(file: string, flags: string[] = []): Buffer {
  const out = execFileSync("sst_dump", [`--file=${file}`, "--command=scan", ...flags], {
    maxBuffer: 1 << 30,
  });
  let at = 0;
  for (let i = 0; i < 4; i++) at = out.indexOf(10, at) + 1;
  return out.subarray(at);
}

function scanOf(t: Table, ...args: Parameters<Table["scanText"]>): Buffer {
  return Buffer.concat([...t.scanText(...args)]);
}

/** The range deletions of sst_dump's raw dump: [start, end] in hex, upper case. */
function rawDumpRangeDeletions(file: string, dir: string): [string, string][] {
  execFileSync("sst_dump", [`--file=${file}`, "--command=raw"], { cwd: dir });
  const dump = readFileSync(file.replace(/\.sst$/, "_dump.txt"), "latin1");
  const start = dump.indexOf("Range deletions:");
  const section = dump.slice(start, dump.indexOf("\n\n", start));
  return [...section.matchAll(/^ {2}HEX {4}([0-9A-F]*): ([0-9A-F]*)$/gm)].map((m) => [m[1]!, m[2]!]);
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex").toUpperCase();

let sf: NodeSstFilter;
let dir: string;
let mixed: string;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
  dir = mkdtempSync(path.join(tmpdir(), "sstfilter-entries-"));
  mixed = writeMixedTable(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("entries against sst_dump 7.8.3", () => {
  test("every RocksDB table it reads: scan lines byte for byte, plain and --output_hex", () => {
    let lines = 0;
    for (const c of TABLES) {
      using t = sf.openTable(readFileSync(c.file));
      for (const outputHex of [false, true]) {
        const ours = scanOf(t, {}, { hex: outputHex });
        const theirs = sstDumpScan(c.file, outputHex ? ["--output_hex"] : []);
        if (!ours.equals(theirs)) {
          throw new Error(
            `${c.id}${outputHex ? " --output_hex" : ""}: scan differs at byte ${firstDiff(ours, theirs)}`,
          );
        }
        if (!outputHex) lines += theirs.filter((b) => b === 10).length;
      }
    }
    console.log(`[entries] ${TABLES.length} tables, ${lines} scan lines identical to sst_dump's`);
    expect(TABLES.length).toBeGreaterThan(0);
    expect(lines).toBeGreaterThan(0);
  });

  test("puts, deletes, merges: entries, ranges and limits as sst_dump scans them", async () => {
    using t = sf.openTable(readFileSync(mixed));
    const all = [...t.entries()];
    const types = new Set(all.map((e) => e.type));
    expect([...types].sort()).toEqual(["delete", "merge", "put"]);
    expect(scanOf(t).equals(sstDumpScan(mixed))).toBe(true);
    expect(scanOf(t, {}, { hex: true }).equals(sstDumpScan(mixed, ["--output_hex"]))).toBe(true);
    // sst_dump takes keys in hex with --input_key_hex (0x-prefixed).
    const a = all[Math.floor(all.length / 4)]!.key;
    const b = all[Math.floor(all.length / 2)]!.key;
    const cases: [Parameters<Table["scanText"]>[0], string[]][] = [
      [{ from: a }, [`--from=0x${hex(a)}`]],
      [{ from: a, to: b }, [`--from=0x${hex(a)}`, `--to=0x${hex(b)}`]],
      [{ to: b, limit: 17 }, [`--to=0x${hex(b)}`, "--read_num=17"]],
      [{ prefix: a.subarray(0, 8) }, [`--prefix=0x${hex(a.subarray(0, 8))}`]],
      [{ prefix: a.subarray(0, 9) }, [`--prefix=0x${hex(a.subarray(0, 9))}`]],
      [{ from: b.subarray(0, 10), limit: 5 }, [`--from=0x${hex(b.subarray(0, 10))}`, "--read_num=5"]],
    ];
    for (const [opts, flags] of cases) {
      const ours = scanOf(t, opts);
      const theirs = sstDumpScan(mixed, [...flags, "--input_key_hex"]);
      expect([flags.join(" "), ours.equals(theirs)]).toEqual([flags.join(" "), true]);
      expect(theirs.length).toBeGreaterThan(0);
      // entries() walks the same entries as the lines.
      expect([flags.join(" "), [...t.entries(opts)].length]).toEqual([
        flags.join(" "),
        theirs.filter((x) => x === 10).length,
      ]);
    }
    // sf.formatScanLines formats entries as scan does.
    expect(
      Buffer.from(sf.formatScanLines(all, { hex: true })).equals(sstDumpScan(mixed, ["--output_hex"])),
    ).toBe(true);
    expect(() => sf.formatScanLines([{ ...all[0]!, seq: 1n << 56n }])).toThrow(
      expect.objectContaining({ code: "BAD_OPTIONS" }),
    );
    // The async path (a file read in pieces) gives the same entries.
    const f = await sf.openTableFile(mixed);
    const fromFile: Entry[] = [];
    for await (const e of f.entries()) fromFile.push(e);
    expect(fromFile.length).toBe(all.length);
    expect(fromFile.every((e, i) => bytesEqual(e.key, all[i]!.key) && e.seq === all[i]!.seq)).toBe(true);
    f.dispose();
  });

  test("range deletions as sst_dump's raw dump lists them; get() finds versions and covering ranges", async () => {
    using t = sf.openTable(readFileSync(mixed));
    const deletions = t.rangeDeletions();
    expect(deletions.length).toBeGreaterThan(0);
    expect(deletions.map((d) => [hex(d.start), hex(d.end)])).toEqual(rawDumpRangeDeletions(mixed, dir));
    const largest = t.properties["rocksdb.num.entries"] as number;
    expect(deletions.every((d) => d.seq > 0n && d.seq < BigInt(largest) * 10n)).toBe(true);

    const all = [...t.entries()];
    let covered = 0;
    for (const probe of all.filter((_, i) => i % 37 === 0)) {
      const versions = all.filter((e) => bytesEqual(e.key, probe.key));
      const covering = deletions.filter(
        (d) => Buffer.compare(d.start, probe.key) <= 0 && Buffer.compare(probe.key, d.end) < 0,
      );
      const got = t.get(probe.key);
      expect(got.filter((e) => e.type !== "range-delete").map((e) => e.seq)).toEqual(
        versions.map((e) => e.seq),
      );
      expect(got.filter((e) => e.type === "range-delete").length).toBe(covering.length);
      for (let i = 1; i < got.length; i++) expect(got[i - 1]!.seq! >= got[i]!.seq!).toBe(true);
      covered += covering.length;
    }
    // A key inside a deleted range but absent from the file: only the range deletion.
    const d = deletions[0]!;
    const inside = Uint8Array.from([...d.start, 0]);
    if (!all.some((e) => bytesEqual(e.key, inside))) {
      expect(t.get(inside).map((e) => [e.type, e.seq])).toEqual([["range-delete", d.seq]]);
    }
    console.log(`[entries] get() of ${Math.ceil(all.length / 37)} keys, ${covered} covering range deletions`);
    const f = await sf.openTableFile(mixed);
    expect((await f.rangeDeletions()).length).toBe(deletions.length);
    expect((await f.get(all[0]!.key)).map((e) => e.seq)).toEqual(t.get(all[0]!.key).map((e) => e.seq));
    f.dispose();
  });

  test("bad options are typed errors", () => {
    using t = sf.openTable(readFileSync(mixed));
    expect(() => t.entries({ limit: -1 })).toThrow(expect.objectContaining({ code: "BAD_OPTIONS" }));
    expect(() => t.entries({ from: 5 as unknown as string })).toThrow(
      expect.objectContaining({ code: "BAD_KEY" }),
    );
    expect(() => t.entries(null as unknown as object)).toThrow(
      expect.objectContaining({ code: "BAD_OPTIONS" }),
    );
  });
});

describe("sstfilter scan / get", () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 1 << 30 });

  test("scan prints sst_dump's lines; --prefix with --from is a usage error, as there", () => {
    const r = run("scan", mixed, "--output-hex");
    expect(r.status).toBe(0);
    expect(r.stdout.equals(sstDumpScan(mixed, ["--output_hex"]))).toBe(true);
    const json = run("scan", mixed, "--json", "--read-num", "3").stdout.toString().trim().split("\n");
    expect(json.map((l) => Object.keys(JSON.parse(l)))).toEqual(
      Array(3).fill(["key", "seq", "type", "value"]),
    );
    expect(run("scan", mixed, "--prefix", "a", "--from", "b").status).toBe(2);
  });

  test("get: exit 0 with the key's lines, 1 when the file holds nothing for it", () => {
    const t = sf.openTable(readFileSync(mixed));
    const first = t.entries({ limit: 1 }).next().value as Entry;
    t.dispose();
    const found = run("get", mixed, hex(first.key), "--hex", "--output-hex");
    expect(found.status).toBe(0);
    expect(found.stdout.toString()).toContain(
      `'${hex(first.key)}' seq:${first.seq}, type:${first.typeCode} => `,
    );
    const absent = run("get", mixed, "ff".repeat(20), "--hex");
    expect([absent.status, absent.stdout.length]).toEqual([1, 0]);
  });
});

describe("escaped scan text", () => {
  // Local Storage-like entries: keys holding \x00\x01, a newline, a right-to-left override; values
  // with a control byte, a newline, bytes not in UTF-8 and a backslash.
  const ENTRIES: [Buffer, Buffer][] = [
    [Buffer.from("_https://a.example\0\x01greet\nline", "latin1"), Buffer.from("\x01hi\nthere", "latin1")],
    [Buffer.from("_https://a.example\0\x01\u202Elook caf\u00e9"), Buffer.from([0x01, 0xff, 0xc3, 0x5c])],
  ];
  const ESCAPED =
    "'_https://a.example\\x00\\x01greet\\x0aline' seq:0, type:1 => \\x01hi\\x0athere\n" +
    "'_https://a.example\\x00\\x01\\xe2\\x80\\xaelook caf\u00e9' seq:0, type:1 => \\x01\\xff\\xc3\\\\\n";

  test("escape shows every byte on one line; the default stays sst_dump's bytes; hex wins", () => {
    const w = sf.createTableWriter({ format: "rocksdb" });
    for (const [key, value] of ENTRIES) w.put(key, value);
    const file = path.join(dir, "terminal.sst");
    writeFileSync(file, w.finish());
    const t = sf.openTable(readFileSync(file));
    try {
      expect(scanOf(t, {}, { escape: true }).toString()).toBe(ESCAPED);
      const raw = scanOf(t);
      expect([firstDiff(raw, sstDumpScan(file)), raw.length]).toEqual([raw.length, sstDumpScan(file).length]);
      expect(scanOf(t, {}, { hex: true, escape: true }).equals(sstDumpScan(file, ["--output_hex"]))).toBe(
        true,
      );
      const entries = [...t.entries()];
      expect(Buffer.from(sf.formatScanLines(entries, { escape: true })).toString()).toBe(ESCAPED);
      expect(Buffer.from(sf.formatScanLines(entries)).equals(raw)).toBe(true);
    } finally {
      t.dispose();
    }
  });
});

function firstDiff(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}
