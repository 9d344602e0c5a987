// Whole databases (sf.openDatabase, sstfilter db inspect) on the db_manifest section: the
// databases RocksDB 7.8.3 and LevelDB 1.23 left (CURRENT, MANIFEST, IDENTITY), read from their
// folders (Node) and as Files (browsers), against the live files each library itself reported;
// and on the node corpus's node_databases (RocksDB 10.x through rocksdb-native, classic-level).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { SstFilterError, type Database, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { NODE_CORPUS, sectionCases } from "./golden";
import { CLI } from "./cli-path";
import { rejectionOf } from "./rejection";

interface LiveFile {
  column_family: string;
  level: number;
  file_number: number;
  size: number;
  smallest_key: string;
  largest_key: string;
  smallest_seqno: number;
  largest_seqno: number;
}
interface ManifestCase {
  id: string;
  format: "rocksdb" | "leveldb";
  current: string;
  manifest: string;
  manifest_name: string;
  files: string[];
  live?: { files: LiveFile[]; last_sequence: number; column_families: { name: string }[] };
  wal?: { batches: [number, number][] };
  sstables?: string;
}

const CASES = sectionCases<ManifestCase>("db_manifest").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  dir: path.dirname(c.corpus.path(c.manifest)),
}));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** Our live files in GetLiveFilesMetaData's order and fields. */
function liveFiles(db: Database): LiveFile[] {
  return db.columnFamilies.flatMap((cf) =>
    cf.levels.flatMap((l) =>
      l.files.map((f) => ({
        column_family: cf.name,
        level: l.level,
        file_number: Number(f.number),
        size: f.size,
        smallest_key: hex(f.smallestKey),
        largest_key: hex(f.largestKey),
        smallest_seqno: Number(f.smallestSeqno),
        largest_seqno: Number(f.largestSeqno),
      })),
    ),
  );
}

/** "--- level N ---" headings and " number:size[...]" lines: leveldb.sstables without its keys. */
function levelDbFilesText(db: Database): string {
  return db.levels
    .map((l) => `--- level ${l.level} ---\n${l.files.map((f) => ` ${f.number}:${f.size}\n`).join("")}`)
    .join("");
}

// What liveFiles() gives of each file, as the corpus records it from GetLiveFilesMetaData.
const LIVE_FILE_FIELDS = [
  "column_family",
  "level",
  "file_number",
  "size",
  "smallest_key",
  "largest_key",
  "smallest_seqno",
  "largest_seqno",
] as const;

function check(c: (typeof CASES)[number], db: Database): void {
  expect(db.format).toBe(c.format);
  expect(db.manifest).toBe(c.manifest_name);
  expect(db.manifestEnd.kind).toBe("clean");
  if (c.format === "leveldb") {
    expect(levelDbFilesText(db)).toBe(c.sstables!.replace(/\[.*\]/g, ""));
    expect(db.levels.flatMap((l) => l.files.map((f) => f.name)).every((n) => n.endsWith(".ldb"))).toBe(true);
    return;
  }
  const expected = c.live!.files.map((f) => Object.fromEntries(LIVE_FILE_FIELDS.map((k) => [k, f[k]])));
  expect(liveFiles(db)).toEqual(expected);
  // Writes left in a WAL follow the MANIFEST's last sequence number.
  const lastSequence = c.wal ? c.wal.batches[0]![0]! - 1 : c.live!.last_sequence;
  expect(db.lastSequence).toBe(BigInt(lastSequence));
  expect(db.columnFamilies.map((cf) => cf.name)).toEqual(c.live!.column_families.map((cf) => cf.name));
}

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has RocksDB and LevelDB databases with files on several levels", () => {
  expect(CASES.filter((c) => c.format === "rocksdb").length).toBeGreaterThanOrEqual(5);
  expect(CASES.filter((c) => c.format === "leveldb").length).toBeGreaterThanOrEqual(2);
  // Background compactions decide how deep RocksDB's trees grow: at least one has three levels.
  const depths = CASES.filter((c) => c.live).map((c) => new Set(c.live!.files.map((f) => f.level)).size);
  expect(Math.max(...depths)).toBeGreaterThanOrEqual(3);
});

describe.each(CASES)("$name", (c) => {
  test("openDatabase(dir) lists the library's live files", async () => {
    const db = await sf.openDatabase(c.dir);
    check(c, db);
  });

  test("openDatabase(Files), as a browser hands over a dropped folder", async () => {
    const files = readdirSync(c.dir).map(
      (name) => new File([readFileSync(path.join(c.dir, name))], name, { type: "application/octet-stream" }),
    );
    check(c, await sf.openDatabase(files));
  });

  test("db inspect --json gives the same files", () => {
    const r = spawnSync(process.execPath, [CLI, "db", "inspect", c.dir, "--json"], { encoding: "utf8" });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    const out = JSON.parse(r.stdout) as {
      format: string;
      columnFamilies: {
        name: string;
        levels: { level: number; files: { number: string; size: number }[] }[];
      }[];
    };
    expect(out.format).toBe(c.format);
    const listed = out.columnFamilies.flatMap((cf) =>
      cf.levels.flatMap((l) => l.files.map((f) => [cf.name, l.level, Number(f.number), f.size])),
    );
    if (c.live) {
      expect(listed).toEqual(c.live.files.map((f) => [f.column_family, f.level, f.file_number, f.size]));
    } else {
      expect(listed.length).toBe((c.sstables!.match(/^ \d+:/gm) ?? []).length);
    }
    const text = spawnSync(process.execPath, [CLI, "db", "inspect", c.dir], { encoding: "utf8" });
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`${c.format} database, ${c.manifest_name}`);
  });
});

interface NodeDatabaseCase {
  id: string;
  format: "rocksdb" | "leveldb";
  manifest: string;
  manifest_name: string;
  sstables?: string;
  tables: { number: number; size: number }[];
}
const NODE_CASES = (NODE_CORPUS.section<{ cases: NodeDatabaseCase[] }>("node_databases")?.cases ?? []).map(
  (c) => ({ ...c, dir: path.dirname(NODE_CORPUS.path(c.manifest)) }),
);

/**
 * RocksDB's Version::DebugString(hex) ("rocksdb.sstables"): per level, each file as
 * " number:size[smallest_seqno .. largest_seqno]['KEY' seq:N, type:T .. 'KEY' seq:N, type:T]".
 */
function parseSstables(text: string): string[] {
  const files: string[] = [];
  let level = -1;
  for (const line of text.split("\n")) {
    const heading = /^--- level (\d+) /.exec(line);
    if (heading) level = Number(heading[1]);
    const f =
      /^ (\d+):(\d+)\[(\d+) \.\. (\d+)\]\['([0-9A-F]*)' seq:(\d+), type:(\d+) \.\. '([0-9A-F]*)' seq:(\d+), type:(\d+)\]/.exec(
        line,
      );
    if (f) files.push([level, ...f.slice(1)].join(" "));
  }
  return files;
}

function ourSstables(db: Database): string[] {
  const trailer = (internal: Uint8Array): string => {
    const tag = new DataView(internal.buffer, internal.byteOffset + internal.length - 8).getBigUint64(
      0,
      true,
    );
    return `${tag >> 8n} ${tag & 0xffn}`;
  };
  return db.levels.flatMap((l) =>
    l.files.map((f) =>
      [
        l.level,
        f.number,
        f.size,
        f.smallestSeqno,
        f.largestSeqno,
        hex(f.smallestKey).toUpperCase(),
        trailer(f.smallestInternalKey),
        hex(f.largestKey).toUpperCase(),
        trailer(f.largestInternalKey),
      ].join(" "),
    ),
  );
}

test("the node corpus has RocksDB 10.x and classic-level databases", () => {
  expect(NODE_CASES.map((c) => c.format).sort()).toEqual(["leveldb", "rocksdb", "rocksdb"]);
});

describe.each(NODE_CASES)("node:$id", (c) => {
  test("openDatabase(dir): the tables the database left, and RocksDB's rocksdb.sstables", async () => {
    const db = await sf.openDatabase(c.dir);
    expect([db.format, db.manifest, db.manifestEnd.kind]).toEqual([c.format, c.manifest_name, "clean"]);
    const live = db.columnFamilies
      .flatMap((cf) =>
        cf.levels.flatMap((l) => l.files.map((f) => ({ number: Number(f.number), size: f.size }))),
      )
      .sort((a, b) => a.number - b.number);
    expect(live).toEqual(c.tables);
    if (c.sstables !== undefined) {
      const expected = parseSstables(c.sstables);
      expect(expected.length).toBe(c.tables.length);
      expect(ourSstables(db)).toEqual(expected);
      // Its blob files: "blob_file_number: N total_blob_count: C total_blob_bytes: B ...
      // garbage_blob_count: G garbage_blob_bytes: GB".
      const blobs = [
        ...c.sstables.matchAll(
          /^blob_file_number: (\d+) total_blob_count: (\d+) total_blob_bytes: (\d+) .* garbage_blob_count: (\d+) garbage_blob_bytes: (\d+)$/gm,
        ),
      ].map((m) => m.slice(1).join(" "));
      expect(
        db.columnFamilies[0]!.blobFiles.map((b) =>
          [b.number, b.totalBlobCount, b.totalBlobBytes, b.garbageBlobCount, b.garbageBlobBytes].join(" "),
        ),
      ).toEqual(blobs);
      if (c.id === "rn_db_blob_files") expect(blobs.length).toBeGreaterThan(1);
      // RocksDB 10 writes epoch numbers: level 0 is ordered by them.
      expect(db.levels.flatMap((l) => l.files).every((f) => f.epochNumber > 0n)).toBe(true);
    }
  });
});

describe("db.openTable", () => {
  // A database with a table on disk: ldb writes three keys and compacts (CompactRange flushes).
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "sstfilter-db-table-"));
    for (const args of [
      ["put", "a", "1", "--create_if_missing"],
      ["batchput", "b", "2", "c", "3"],
      ["compact"],
    ]) {
      const r = spawnSync("ldb", [`--db=${dir}`, ...args], { encoding: "utf8" });
      expect([r.status, r.stderr]).toEqual([0, ""]);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fromFolder = (): Promise<Database> => sf.openDatabase(dir);
  const fromFiles = (): Promise<Database> =>
    sf.openDatabase(readdirSync(dir).map((name) => new File([readFileSync(path.join(dir, name))], name)));
  const fromReadOnly = (): Promise<Database> =>
    sf.openDatabase({
      names: readdirSync(dir),
      read: (name) => Promise.resolve(new Uint8Array(readFileSync(path.join(dir, name)))),
    });

  test.each([
    ["a folder", fromFolder],
    ["Files", fromFiles],
    ["a source without open()", fromReadOnly],
  ])("opens the live table from %s, and its keys are the MANIFEST's range", async (_how, open) => {
    const db = await open();
    const files = db.levels.flatMap((l) => l.files);
    expect(files.length).toBe(1);
    const table = await db.openTable(files[0]!);
    try {
      const keys: string[] = [];
      for await (const k of table.keys()) keys.push(Buffer.from(k).toString());
      expect(keys).toEqual(["a", "b", "c"]);
      expect(Buffer.from(files[0]!.smallestKey).toString()).toBe("a");
      expect(Buffer.from(files[0]!.largestKey).toString()).toBe("c");
    } finally {
      table.dispose();
    }
  });

  test("a name the database does not hold, or a file that is no table, is an error naming it", async () => {
    const db = await fromFolder();
    await expect(db.openTable("000999.sst")).rejects.toMatchObject({
      code: "BAD_OPTIONS",
      file: "000999.sst",
    });
    await expect(db.openTable("CURRENT")).rejects.toMatchObject({ file: "CURRENT" });
    await expect(db.readFile("CURRENT")).resolves.toEqual(
      new Uint8Array(readFileSync(path.join(dir, "CURRENT"))),
    );
  });
});

describe("broken databases", () => {
  const source = CASES.find((c) => c.id === "rocksdb_levels")!;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "sstfilter-db-"));
    for (const name of readdirSync(source.dir)) {
      writeFileSync(path.join(dir, name), readFileSync(path.join(source.dir, name)));
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("a bit flip in the MANIFEST is a checksum mismatch naming the file and the record", async () => {
    const manifest = path.join(dir, source.manifest_name);
    const bytes = readFileSync(manifest);
    bytes[100]! ^= 0x01;
    writeFileSync(manifest, bytes);
    const error = await rejectionOf(sf.openDatabase(dir));
    expect(error).toBeInstanceOf(SstFilterError);
    const e = error as SstFilterError;
    expect([e.code, e.file]).toEqual(["CHECKSUM_MISMATCH", source.manifest_name]);
    expect(e.offset).toBeLessThanOrEqual(100);
    const r = spawnSync(process.execPath, [CLI, "db", "inspect", dir], { encoding: "utf8" });
    expect(r.status).toBe(3);
    expect(r.stderr).toContain(`CHECKSUM_MISMATCH: ${source.manifest_name}: `);
  });

  test("a MANIFEST cut mid-record is read up to its torn tail", async () => {
    const manifest = path.join(dir, source.manifest_name);
    const bytes = readFileSync(manifest);
    writeFileSync(manifest, bytes.subarray(0, bytes.length - 3));
    const db = await sf.openDatabase(dir);
    expect(db.manifestEnd.kind).toBe("torn");
    expect(db.manifestEnd.offset).toBeLessThan(bytes.length - 3);
    const r = spawnSync(process.execPath, [CLI, "db", "inspect", dir], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("torn tail at byte");
  });

  test("CURRENT without its newline, or naming a missing MANIFEST, is CORRUPT about CURRENT", async () => {
    writeFileSync(path.join(dir, "CURRENT"), "MANIFEST-999999\n");
    await expect(sf.openDatabase(dir)).rejects.toMatchObject({ code: "CORRUPT", file: "CURRENT" });
    writeFileSync(path.join(dir, "CURRENT"), source.manifest_name);
    await expect(sf.openDatabase(dir)).rejects.toMatchObject({ code: "CORRUPT", file: "CURRENT" });
  });
});
