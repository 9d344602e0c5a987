// A database written by RocksDB 7.8.3's db_bench (Debian's rocksdb-tools), the input of the
// database benches: cached under their work folder and keyed by the command that wrote it, since
// the larger ones take minutes to write.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";

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
