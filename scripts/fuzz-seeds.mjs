// Writes the seed corpora of the fuzz targets (tests/fuzz/<target>_harness.h documents each input layout)
// from the test corpus: node scripts/fuzz-seeds.mjs <corpus dir> <fixtures dir> <output dir>. One folder per
// target; rerunning replaces them.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const [corpus, fixtures, out] = process.argv.slice(2);
if (!corpus || !fixtures || !out) {
  console.error("usage: node scripts/fuzz-seeds.mjs <corpus dir> <fixtures dir> <output dir>");
  process.exit(2);
}
const read = (relative) => new Uint8Array(readFileSync(path.resolve(corpus, relative)));
const manifest = (section) => JSON.parse(readFileSync(path.join(corpus, section, "manifest.json"), "utf8"));

// Seeds above this size slow every execution down more than they add coverage.
const MAX_TABLE_BYTES = 160 << 10;
const MAX_FILTER_BYTES = 64 << 10;

function readKeys(relative, limit) {
  const data = read(relative);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const keys = [];
  for (let pos = 0; pos < data.length && keys.length < limit;) {
    const n = view.getUint32(pos, true);
    keys.push(data.subarray(pos + 4, pos + 4 + n));
    pos += 4 + n;
  }
  return keys;
}

// SplitKeys' layout: a length byte, then that many bytes.
function probeKeys(keys) {
  return concat(keys.map((k) => concat([Uint8Array.of(Math.min(k.length, 255)), k.subarray(0, 255)])));
}

function concat(parts) {
  const outBytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    outBytes.set(p, at);
    at += p.length;
  }
  return outBytes;
}

const u16 = (n) => Uint8Array.of(n & 0xff, (n >> 8) & 0xff);

const seeds = new Map();
function seed(target, name, bytes) {
  if (!seeds.has(target)) seeds.set(target, []);
  seeds.get(target).push([name, bytes]);
}

function varint(data, at) {
  let result = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = data[at.pos++];
    result += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return result;
  }
}

// The handle of the first data block: the value of the index block's first entry (index values
// always start with a full handle).
function firstDataBlock(file, [offset, size], deltaEncoded) {
  const block = file.subarray(offset, offset + size);
  const at = { pos: 0 };
  varint(block, at); // shared
  const nonShared = varint(block, at);
  if (!deltaEncoded) varint(block, at); // value length
  at.pos += nonShared;
  return [varint(block, at), varint(block, at)];
}

// ---- filters and LevelDB filter blocks ----
for (const [section, family] of [
  ["rocksdb-filter", 1],
  ["leveldb-filter", 0],
]) {
  for (const c of manifest(section).cases) {
    if (c.filter.bytes > MAX_FILTER_BYTES) continue;
    const probes = probeKeys(readKeys(c.keys.path, 16));
    seed("filter", c.id, concat([Uint8Array.of(family), u16(probes.length), read(c.filter.path), probes]));
  }
}

// ---- tables, their blocks, LevelDB filter blocks ----
const tables = [];
for (const c of manifest("rocksdb-sst").cases) {
  tables.push({
    id: c.id,
    path: c.file.path,
    bytes: c.file.bytes,
    keys: c.keys.path,
    userKeys: false,
    rocksdb: true,
    compressed: c.options.compression !== "kNoCompression",
    metaindex: c.footer.metaindex_handle,
    index: c.footer.index_handle,
    metaEntries: c.metaindex,
    deltaEncoded: c.properties["rocksdb.index.value.is.delta.encoded"] === 1,
    partitioned: c.options.index_type === "kTwoLevelIndexSearch",
  });
}
for (const c of manifest("leveldb-table").cases) {
  tables.push({
    id: c.id,
    path: c.file.path,
    bytes: c.file.bytes,
    keys: c.keys.path,
    userKeys: c.internal_keys === false,
    rocksdb: false,
    compressed: c.options.compression !== "kNoCompression",
    metaindex: c.footer.metaindex_handle,
    index: c.footer.index_handle,
    metaEntries: { [c.filter_block.metaindex_name]: c.filter_block.handle },
    deltaEncoded: false,
    partitioned: false,
  });
  const probes = probeKeys(readKeys(c.keys.path, 16));
  seed("leveldb_filter_block", c.id, concat([u16(probes.length), read(c.filter_block.path), probes]));
}
// The committed RocksDB 11 tables: head/, v11-kv/ (data blocks with values apart), v11-meta/
// (format_version 7 compression names, a custom codec, user-defined indexes) and v11-blob/ (blob
// records embedded among the data blocks).
for (const folder of ["head", "v11-kv", "v11-meta", "v11-blob"]) {
  if (!existsSync(path.join(fixtures, folder))) continue;
  for (const name of readdirSync(path.join(fixtures, folder))) {
    if (!name.endsWith(".sst")) continue;
    const file = path.resolve(fixtures, folder, name); // absolute: read() resolves against the corpus
    const bytes = readFileSync(file).length;
    if (bytes <= MAX_TABLE_BYTES) tables.push({ id: `${folder}-${name}`, path: file, bytes, head: true });
  }
}

for (const t of tables) {
  if (t.bytes > MAX_TABLE_BYTES) continue;
  const file = read(t.path);
  const probes = t.keys ? probeKeys(readKeys(t.keys, 16)) : new Uint8Array(0);
  // Flags: user keys as the file has them; checksums verified, and not (harness_support.h OpenFuzzedTable).
  for (const checksums of [0, 2]) {
    const flags = (t.userKeys ? 1 : 0) | checksums;
    // table_get takes the same layout: each probe looked up.
    for (const target of ["table", "table_get"]) {
      seed(
        target,
        `${t.id}-${checksums ? "unverified" : "verified"}`,
        concat([Uint8Array.of(flags), u16(probes.length), probes, file]),
      );
    }
  }
  if (t.head) continue;
  if (t.compressed) {
    // The compressed index block as a codec's input (block_harness.h): the seek key's first
    // byte is the block's compression type; flags: RocksDB, format_version 5.
    const [offset, size] = t.index;
    const type = file[offset + size];
    seed(
      "block",
      `${t.id}-compressed-index`,
      concat([Uint8Array.of(0xa1), Uint8Array.of(1, type), file.subarray(offset, offset + size)]),
    );
    continue;
  }

  // Blocks of uncompressed tables, with the flags each is read with (block_harness.h).
  const flavor = t.rocksdb ? 1 : 0;
  const key = readKeys(t.keys, 1)[0] ?? new Uint8Array(0);
  const block = (label, flags, [offset, size]) =>
    seed(
      "block",
      `${t.id}-${label}`,
      concat([Uint8Array.of(flags), Uint8Array.of(key.length), key, file.subarray(offset, offset + size)]),
    );
  block("metaindex", flavor, t.metaindex);
  const indexFlags = flavor | (t.userKeys ? 0 : 2) | (t.deltaEncoded ? 4 : 0);
  block("index", indexFlags, t.index);
  if (!t.partitioned) block("data", flavor, firstDataBlock(file, t.index, t.deltaEncoded));
  for (const [name, handle] of Object.entries(t.metaEntries)) {
    if (name === "rocksdb.properties") block("properties", flavor, handle);
    if (name.startsWith("partitionedfilter.")) block("filter-index", indexFlags, handle);
  }
}

// ---- build -> probe round trips ----
// The keys of a few RocksDB filter cases, one per key shape (binary, text, long, mixed lengths).
const shapes = new Map();
for (const c of manifest("rocksdb-filter").cases) {
  if (!shapes.has(c.keys.shape) && c.keys.count >= 10) shapes.set(c.keys.shape, c);
}
for (const c of shapes.values()) {
  const keys = probeKeys(readKeys(c.keys.path, 40));
  for (let format = 0; format < 4; format++) {
    seed("roundtrip", `${c.id}-${format}`, concat([Uint8Array.of(format), Uint8Array.of(72), keys]));
  }
}

// ---- values: [flags u8][value] ----
// The blob indexes of the crafted case as stored, and GetEntity's columns of the entities case
// serialized as version 1 (and the smallest as version 2), as RocksDB lays them out.
const putVarint = (n) => {
  const bytes = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) bytes.push((n & 0x7f) | 0x80);
  bytes.push(n);
  return Uint8Array.from(bytes);
};
const lengthPrefixed = (b) => concat([putVarint(b.length), b]);
for (const c of manifest("rocksdb-values").cases) {
  if (c.values) {
    readKeys(c.values, 1000).forEach((v, i) => {
      seed("values", `${c.id}-${i}`, concat([Uint8Array.of(0), v]));
      seed("values", `${c.id}-${i}-hex`, concat([Uint8Array.of(1), v]));
    });
  }
  for (const e of c.get_entity ?? []) {
    const names = readKeys(e.names, 1000);
    const values = readKeys(e.values, 1000);
    const v1 = concat([
      putVarint(1),
      putVarint(names.length),
      ...names.map((n, i) => concat([lengthPrefixed(n), putVarint(values[i].length)])),
      ...values,
    ]);
    seed("values", `${c.id}-${e.key}-v1`, concat([Uint8Array.of(0), v1]));
    const nameSizes = concat(names.map((n) => putVarint(n.length)));
    const valueSizes = concat(values.map((v) => putVarint(v.length)));
    const allNames = concat(names);
    const v2 = concat([
      putVarint(2),
      putVarint(names.length),
      putVarint(nameSizes.length),
      putVarint(valueSizes.length),
      putVarint(allNames.length),
      new Uint8Array(names.length).fill(1),
      nameSizes,
      valueSizes,
      allNames,
      ...values,
    ]);
    seed("values", `${c.id}-${e.key}-v2`, concat([Uint8Array.of(0), v2]));
  }
}

// ---- embedded_blobs: [blocks_end u64 LE][stored compression u8][value] ----
// Stats as SstFileWriter writes them (rocksdb table/embedded_blob_sst.h), and same-file blob
// indexes (kind 1, file 0, offset, size, compression) with records inside and across blocks_end.
const u64 = (n) => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n), true);
  return bytes;
};
for (const [count, bytes] of [
  [0, 0],
  [3, 144],
  [100, 260000],
]) {
  seed(
    "embedded_blobs",
    `stats-${count}-${bytes}`,
    concat([u64(0), Uint8Array.of(0), putVarint(count), putVarint(bytes)]),
  );
}
for (const [offset, size, end] of [
  [0, 40, 45],
  [1024, 300, 1329],
  [1024, 300, 1328],
  [70000, 0, 70005],
]) {
  const index = concat([
    Uint8Array.of(1),
    putVarint(0),
    putVarint(offset),
    putVarint(size),
    Uint8Array.of(0),
  ]);
  seed("embedded_blobs", `index-${offset}-${size}-${end}`, concat([u64(end), Uint8Array.of(0), index]));
}

// ---- table writer round trips ----
// The entries of the table writer cases (entries.bin: u8 type, u32 key length, key, u32 value
// length, value), at most 300 of them, as the harness's (op, key, value) parts; the four option
// bytes pick the format, filter, block size and restart interval.
const opOfType = { 1: 0, 0: 1, 2: 2, 15: 3 };
const entrySets = new Map();
for (const c of manifest("table-writer").cases) {
  if (!entrySets.has(c.entries.set)) entrySets.set(c.entries.set, c);
}
for (const c of entrySets.values()) {
  const data = read(c.entries.path);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const parts = [];
  for (let pos = 0, n = 0; pos < data.length && n < 300; n++) {
    const type = data[pos];
    const keyLength = view.getUint32(pos + 1, true);
    const key = data.subarray(pos + 5, pos + 5 + keyLength);
    pos += 5 + keyLength;
    const valueLength = view.getUint32(pos, true);
    const value = data.subarray(pos + 4, pos + 4 + valueLength);
    pos += 4 + valueLength;
    parts.push(probeKeys([Uint8Array.of(opOfType[type]), key, value]));
  }
  const entries = concat(parts);
  // RocksDB: format_version 5, xxh3, FastLocalBloom of capped:2 prefixes only, restart interval 16,
  // each codec in turn (the restart byte's top bits).
  for (let codec = 0; codec < 7; codec++) {
    seed(
      "writer",
      `${c.id}-rocksdb-${codec}`,
      concat([Uint8Array.of(0x13, 0x66, 8, (codec << 5) | 15), entries]),
    );
  }
  seed("writer", `${c.id}-leveldb`, concat([Uint8Array.of(0xc0, 0x29, 16, 3), entries]));
}

// ---- database MANIFESTs and WALs: log_reader [mode u8][log number u8][file], version_edit [format u8][record] ----
// The records of a log file (docs/FORMATS.md 6.1): FULL payloads, and FIRST..LAST ones joined.
function logRecords(file) {
  const records = [];
  let pending = null;
  for (let pos = 0; pos + 7 <= file.length;) {
    const left = 32768 - (pos % 32768);
    if (left < 7) {
      pos += left;
      continue;
    }
    const length = file[pos + 4] | (file[pos + 5] << 8);
    const type = file[pos + 6];
    const payload = file.subarray(pos + 7, pos + 7 + length);
    pos += 7 + length;
    if (type === 1) records.push(payload);
    else if (type === 2) pending = [payload];
    else if (type === 3) pending?.push(payload);
    else if (type === 4 && pending) {
      records.push(concat([...pending, payload]));
      pending = null;
    }
  }
  return records;
}

for (const c of manifest("db-manifest").cases) {
  const file = read(c.manifest);
  const rocksdb = c.format === "rocksdb" ? 1 : 0;
  seed("log_reader", c.id, concat([Uint8Array.of(rocksdb, 0), file]));
  // The WAL left open, with its number (the harness takes the low byte).
  if (c.wal)
    seed(
      "log_reader",
      `${c.id}-wal`,
      concat([Uint8Array.of(rocksdb, c.wal.number & 0xff), read(c.wal.path)]),
    );
  logRecords(file).forEach((r, i) =>
    seed("version_edit", `${c.id}-${i}`, concat([Uint8Array.of(rocksdb), r])),
  );
}

// ---- write batches: write_batch [format u8][batch], every batch of the db_wal WALs ----
for (const c of manifest("db-wal").cases) {
  const rocksdb = c.format === "rocksdb" ? 1 : 0;
  for (const wal of c.wal) {
    logRecords(read(c.copied[wal.name])).forEach((r, i) =>
      seed("write_batch", `${c.id}-${wal.number}-${i}`, concat([Uint8Array.of(rocksdb), r])),
    );
  }
}

// ---- WAL replays: wal_replay [mode u8][chunk u8][split u16][probe size u8][probe][logs] ----
// The first WAL of each db_twopc and db_wal_damage case (split into two logs at 64 KiB), fed in 256-byte chunks
// under point-in-time recovery (mode 2 << 1) and LevelDB's (format bit clear), probing "k050".
for (const section of ["db-twopc", "db-wal-damage"]) {
  for (const c of manifest(section).cases) {
    const rocksdb = c.format === "leveldb" ? 0 : 1;
    const name = (c.logs ?? c.files.filter((f) => f.endsWith(".log")))[0];
    const probe = new TextEncoder().encode("k050");
    seed(
      "wal_replay",
      c.id,
      concat([
        Uint8Array.of(rocksdb | (2 << 1), 255, 0xff, 0xff, probe.length),
        probe,
        read(`${c.dir}/${name}`),
      ]),
    );
  }
}

// ---- RocksDB 11's databases (fixtures v11-db): WALs with predecessor records (types 130, 131),
// MANIFESTs with the newer tags. log_reader: each WAL with its number; version_edit: each MANIFEST
// record; wal_replay: the first two live WALs as its two logs, track_and_verify_wals on (bit 7).
const v11db = path.join(fixtures, "v11-db", "manifest.json");
if (existsSync(v11db)) {
  for (const c of JSON.parse(readFileSync(v11db, "utf8")).cases) {
    const file = (name) => new Uint8Array(readFileSync(path.resolve(fixtures, c.dir, name)));
    const wals = c.files.filter((f) => f.endsWith(".log"));
    for (const name of wals) {
      seed(
        "log_reader",
        `v11-${c.id}-${name}`,
        concat([Uint8Array.of(1, parseInt(name, 10) & 0xff), file(name)]),
      );
    }
    const manifestName = c.files.find((f) => f.startsWith("MANIFEST-"));
    logRecords(file(manifestName)).forEach((r, i) =>
      seed("version_edit", `v11-${c.id}-${i}`, concat([Uint8Array.of(1), r])),
    );
    const [first, second] = wals.map(file);
    const split = Math.min(first.length, 0xffff);
    const probe = new TextEncoder().encode("key012");
    seed(
      "wal_replay",
      `v11-${c.id}`,
      concat([
        Uint8Array.of(1 | (2 << 1) | 128, 255),
        u16(split),
        Uint8Array.of(probe.length),
        probe,
        first,
        second ?? new Uint8Array(0),
      ]),
    );
  }
}

// ---- database Gets: db_get [mode u8][WAL length u16][WAL batches: u16 size, batch...][table input] ----
// The db_get section's RocksDB database: its last WAL's batches (as many as fit), and each of its
// tables small enough, with the first 16 probes; on level 0 and on level 1 (mode bit 0).
for (const c of manifest("db-get").cases) {
  if (c.answers === undefined) continue;
  const log = c.files.filter((f) => f.endsWith(".log")).at(-1);
  const batches = [];
  let walBytes = 0;
  for (const r of logRecords(read(`${c.dir}/${log}`))) {
    if (r.length > 0xffff || walBytes + 2 + r.length > 0xffff) break;
    batches.push(u16(r.length), r);
    walBytes += 2 + r.length;
  }
  const wal = concat(batches);
  const probes = probeKeys(readKeys(c.probes.path, 16));
  for (const name of c.files.filter((f) => f.endsWith(".sst"))) {
    const file = read(`${c.dir}/${name}`);
    if (file.length > MAX_TABLE_BYTES) continue;
    for (const level of [0, 1]) {
      seed(
        "db_get",
        `${c.id}-${name}-L${level}`,
        concat([
          Uint8Array.of(2 | level),
          u16(wal.length),
          wal,
          Uint8Array.of(0),
          u16(probes.length),
          probes,
          file,
        ]),
      );
    }
  }
}

// The rocksdb_timestamp section's databases (one table keeping its keys' u64 timestamps, no WAL
// records), read at the newest timestamp and at 300 and 700 (mode bits 2 and up: a 20th of it).
for (const c of manifest("rocksdb-timestamp").cases) {
  if (c.database === undefined) continue;
  const probes = probeKeys(readKeys(c.probes.path, 16));
  const name = c.database.files.find((f) => f.endsWith(".sst"));
  const file = read(`${c.database.dir}/${name}`);
  if (file.length > MAX_TABLE_BYTES) continue;
  for (const at of [0, 300, 700]) {
    seed(
      "db_get",
      `${c.id}-at-${at}`,
      concat([
        Uint8Array.of(2 | ((at / 20) << 2)),
        u16(0),
        Uint8Array.of(0),
        u16(probes.length),
        probes,
        file,
      ]),
    );
  }
}

// ---- blob files: blob_file [mode u8] then, built (mode bit 0), [cut u16][u8 key size][key][u16 value size][value]... ----
// No corpus section holds blob files: seeds built from the keys and values of a few records (the
// harness writes their CRCs), whole and with the footer cut, and one raw header-only file.
{
  const record = (key, value) =>
    concat([Uint8Array.of(key.length), key, Uint8Array.of(value.length & 0xff, value.length >> 8), value]);
  const text = (s) => new TextEncoder().encode(s);
  const records = concat([
    record(text("key-000001"), text("a value")),
    record(text("key-000002"), new Uint8Array(300).fill(0x76)),
    record(new Uint8Array(0), new Uint8Array(0)),
  ]);
  seed("blob_file", "three-records", concat([Uint8Array.of(1, 0, 0), records]));
  seed("blob_file", "footer-cut", concat([Uint8Array.of(1, 20, 0), records]));
  seed("blob_file", "empty", Uint8Array.of(1, 0, 0));
}

for (const [target, list] of seeds) {
  const dir = path.join(out, target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of list) writeFileSync(path.join(dir, name), bytes);
  console.log(`fuzz seeds: ${target}: ${list.length}`);
}
