// A table RocksDB itself writes with every kind of record the viewer and the entry tests show:
// Debian's db_bench (rocksdb-tools 7.8.3) fills keys at random, deletes and merges some, and writes
// range deletions, then flushes once (auto-compaction off, so one table holds them all).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import * as path from "node:path";

/** Writes the table into the empty directory `dir` and returns its path. */
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
  const sst = readdirSync(dir).filter((f) => f.endsWith(".sst"));
  if (sst.length !== 1) throw new Error(`db_bench wrote ${sst.length} tables in ${dir}`);
  return path.join(dir, sst[0]!);
}
