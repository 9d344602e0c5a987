// A database written by RocksDB 7.8.3's db_bench (Debian's rocksdb-tools), the input of the
// database benches: cached under their work folder and keyed by the command that wrote it, since
// the larger ones take minutes to write; and the flags of those two benches share.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";

/** The keys and values of the benches' databases: 16-byte keys, 100-byte values, a fixed seed. */
export const KEYS_AND_VALUES = ["--key_size=16", "--value_size=100", "--seed=29"];

/**
 * levels-200k (db-get-bench.mjs, remote-db-bench.mjs): fillrandom of 200,000 keys, 2 MiB
 * memtables, 1.5 MiB files, a 4 MiB level 1, no compression (rocksdb-native's prebuilt RocksDB
 * reads it): ~16 tables on levels 0-2 and the last writes in the WAL.
 */
export const LEVELS_200K_FLAGS = [
  "--benchmarks=fillrandom",
  "--num=200000",
  ...KEYS_AND_VALUES,
  "--write_buffer_size=2097152",
  "--target_file_size_base=1572864",
  "--max_bytes_for_level_base=4194304",
  "--level0_file_num_compaction_trigger=4",
  "--compression_type=none",
];

/**
 * Runs `db_bench FLAGS --db=WORK/NAME` unless that same command wrote WORK/NAME (its command line is
 * kept beside it in NAME.command); returns the folder and the command. `log` reports a write.
 * @param {string} work @param {string} name @param {string[]} flags @param {(line: string) => void} log
 */
export function dbBenchDatabase(work, name, flags, log) {
  const command = ["db_bench", ...flags].join(" ");
  const dir = path.join(work, name);
  const stamp = `${dir}.command`;
  if (existsSync(dir) && existsSync(stamp) && readFileSync(stamp, "utf8") === command) {
    return { dir, command };
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(stamp, { force: true });
  log(`writing ${name}: ${command}`);
  const run = spawnSync("db_bench", [...flags, `--db=${path.resolve(dir)}`], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (run.status !== 0) throw new Error(`db_bench exited with ${run.status}: ${run.stderr}`);
  writeFileSync(stamp, command);
  return { dir, command };
}
