// Tables RocksDB itself writes for the viewer and the entry tests: one with every kind of record
// (Debian's db_bench from rocksdb-tools 7.8.3 fills keys at random, deletes and merges some, and
// writes range deletions, then flushes once, auto-compaction off, so one table holds them all), one
// with JSON and plain-text values (ldb puts, then a compaction writes the table), and a 36 MB one.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import * as path from "node:path";

/** The one table in `dir`. */
function onlyTable(dir: string, writer: string): string {
  const sst = readdirSync(dir).filter((f) => f.endsWith(".sst"));
  if (sst.length !== 1) throw new Error(`${writer} wrote ${sst.length} tables in ${dir}`);
  return path.join(dir, sst[0]!);
}

/** Writes the table of every record kind into the empty directory `dir`; returns its path. */
export function writeMixedTable(dir: string): string {
  execFileSync("db_bench", [
    "--benchmarks=fillrandom,deleterandom,mergerandom,flush",
    `--db=${dir}`,
    "--num=3000",
    "--key_size=16",
    "--value_size=20",
    "--merge_operator=uint64add",
    "--disable_auto_compactions=1",
    "--writes_per_range_tombstone=20",
    "--max_num_range_tombstones=30",
    "--range_tombstone_width=5",
    "--disable_wal=1",
    "--compression_type=snappy",
  ]);
  return onlyTable(dir, "db_bench");
}

/** Writes 300,000 sequential entries, uncompressed (36 MB), into `dir`; returns the table's path. */
export function writeLargeTable(dir: string): string {
  execFileSync("db_bench", [
    "--benchmarks=fillseq,flush",
    `--db=${dir}`,
    "--num=300000",
    "--key_size=16",
    "--value_size=100",
    "--disable_auto_compactions=1",
    "--disable_wal=1",
    "--compression_type=none",
  ]);
  return onlyTable(dir, "db_bench");
}

/** Values of the JSON table by key: JSON objects and arrays, and text that is not JSON. */
export const JSON_TABLE_VALUES: Record<string, string> = {
  "user:1": '{"name":"Ada","langs":["en","fr"],"age":36}',
  "user:2": "not json {",
  "user:3": '[1,2,{"deep":{"er":true}}]',
};

/** Writes the table of JSON_TABLE_VALUES into the directory `dir` (created); returns its path. */
export function writeJsonTable(dir: string): string {
  for (const [key, value] of Object.entries(JSON_TABLE_VALUES)) {
    execFileSync("ldb", [`--db=${dir}`, "--create_if_missing", "put", key, value]);
  }
  execFileSync("ldb", [`--db=${dir}`, "compact"]);
  return onlyTable(dir, "ldb");
}
