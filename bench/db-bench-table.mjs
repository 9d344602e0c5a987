// A single table written by RocksDB 7.8.3's db_bench (Debian's rocksdb-tools), the input of the
// table benches (content, diff): cached under their work folder and keyed by the command that
// wrote it, since a 200 MB table takes a minute to write.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Runs db_bench into a fresh database (`fillrandom,flush`, 16-byte keys, 100-byte values,
 * format_version 5, 10 bits per key, one memtable flushed once: a single table holding every
 * surviving key, FLAGS added) and keeps its one table as WORK/NAME.sst, unless that same command
 * wrote it (its command line is kept beside it in NAME.sst.command). Returns the file and the
 * command; `log` reports a write.
 * @param {string} work @param {string} name @param {string[]} flags @param {(line: string) => void} log
 */
export function dbBenchTable(work, name, flags, log) {
  const command = [
    "db_bench",
    "--benchmarks=fillrandom,flush",
    "--key_size=16",
    "--value_size=100",
    "--format_version=5",
    "--bloom_bits=10",
    "--write_buffer_size=8000000000",
    "--max_write_buffer_number=2",
    "--disable_wal=1",
    "--disable_auto_compactions=1",
    ...flags,
  ];
  const file = path.join(work, `${name}.sst`);
  const stamp = `${file}.command`;
  if (existsSync(file) && existsSync(stamp) && readFileSync(stamp, "utf8") === command.join(" ")) {
    return { file, command: command.join(" ") };
  }
  const db = mkdtempSync(path.join(tmpdir(), "sstfilter-dbbench-"));
  log(`writing ${name}: ${command.join(" ")}`);
  try {
    const run = spawnSync(command[0], [...command.slice(1), `--db=${db}`], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    if (run.status !== 0) throw new Error(`db_bench exited with ${run.status}: ${run.stderr}`);
    const tables = readdirSync(db).filter((f) => f.endsWith(".sst"));
    if (tables.length !== 1) throw new Error(`db_bench left ${tables.length} tables in ${db}`);
    renameSync(path.join(db, tables[0]), file);
  } finally {
    rmSync(db, { recursive: true, force: true });
  }
  writeFileSync(stamp, command.join(" "));
  return { file, command: command.join(" ") };
}
