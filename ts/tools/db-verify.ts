// `sstfilter db verify DIR [--jobs N] [--json]`: db.verify over a database directory (the MANIFEST,
// the live WALs, every live table on up to N threads), each bad file listed with its error.
import type {
  DatabaseFileReport,
  DatabaseFormat,
  DatabaseSource,
  DatabaseVerifyReport,
  NodeSstFilter,
  SstFilterError,
} from "../platform/node.js";
import { byteSize, count, plural } from "./format.js";
import { progressBar } from "./progress.js";

/** The options of `sstfilter db verify`. */
export interface DbVerifyOptions {
  /** Threads (default: one per core). */
  jobs: number | undefined;
  /** Default: as openDatabase detects it. */
  format: DatabaseFormat | undefined;
  json: boolean;
}

/** A torn or recycled log's end, as a note on a good file. */
function logEndNote(r: DatabaseFileReport): string | null {
  if (r.log === null || r.log.end.kind === "clean") return null;
  const kind = r.log.end.kind === "torn" ? "torn tail" : "a recycled log's old record";
  return `${kind} at byte ${r.log.end.offset} (${r.log.end.what}); the records before it were read`;
}

function fileLine(r: DatabaseFileReport): string {
  const head = `${r.name} (${r.kind}, ${byteSize(r.bytes)})`;
  if (r.error !== null) return `${head}: ${r.error.code}: ${r.error.message.replace(`${r.name}: `, "")}`;
  return `${head}: ok, ${logEndNote(r)}`;
}

/** A file's or recovery's error in --json: code, message and byte offset (null when unknown). */
const errorJson = (e: SstFilterError): { code: string; message: string; offset: number | null } => ({
  code: e.code,
  message: e.message,
  offset: e.offset ?? null,
});

function reportJson(dir: string, report: DatabaseVerifyReport, seconds: number): unknown {
  return {
    dir,
    ok: report.ok,
    filesFrom: report.filesFrom,
    bytesTotal: report.bytesTotal,
    bad: report.bad,
    jobs: report.jobs,
    seconds,
    recovery:
      report.recovery === null
        ? null
        : {
            status: report.recovery.status,
            error: report.recovery.error === null ? null : errorJson(report.recovery.error),
          },
    files: report.files.map((r) => ({
      name: r.name,
      kind: r.kind,
      bytes: r.bytes,
      status: r.status,
      error: r.error === null ? null : errorJson(r.error),
      ...(r.table === null
        ? {}
        : { dataBlocks: r.table.dataBlocks, keys: r.table.keys, falseNegatives: r.table.falseNegatives }),
      ...(r.log === null ? {} : { records: r.log.records, end: r.log.end }),
      ...(r.blob === null ? {} : { blobs: String(r.blob.count), blobBytes: String(r.blob.bytes) }),
    })),
  };
}

/**
 * Verifies the database in `dir` (read from `from`: the folder, or the files under a URL) and
 * prints the outcome; exit code 0 all good, 1 a bad file (CURRENT or the MANIFEST among them: then
 * every table and log present is verified) or a database recovery refuses to open.
 */
export async function dbVerify(
  sf: NodeSstFilter,
  dir: string,
  opts: DbVerifyOptions,
  from: string | DatabaseSource = dir,
): Promise<number> {
  const bar = progressBar();
  const started = performance.now();
  let report: DatabaseVerifyReport;
  try {
    report = await sf.verifyDatabase(from, {
      ...(opts.jobs === undefined ? {} : { jobs: opts.jobs }),
      ...(opts.format === undefined ? {} : { format: opts.format }),
      onProgress: (p) =>
        bar.update(
          p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1,
          `${count(p.filesDone)} of ${plural(p.filesTotal, "file")}`,
        ),
    });
  } finally {
    bar.clear();
  }
  const seconds = (performance.now() - started) / 1000;
  if (opts.json) {
    process.stdout.write(JSON.stringify(reportJson(dir, report, seconds), null, 2) + "\n");
  } else {
    const filesOf = (kind: DatabaseFileReport["kind"]): number =>
      report.files.filter((r) => r.kind === kind).length;
    const lines = [
      `${plural(filesOf("table"), "table")}, ${plural(filesOf("wal"), "WAL")}, the MANIFEST` +
        (filesOf("blob") > 0 ? `, ${plural(filesOf("blob"), "blob file")}` : "") +
        `: ${byteSize(report.bytesTotal)} verified in ${seconds.toFixed(1)} s on ${plural(report.jobs, "thread")}`,
    ];
    // Bad files and logs with a torn tail; good files go without saying.
    for (const r of report.files) {
      if (r.status !== "ok" || logEndNote(r) !== null) lines.push(fileLine(r));
    }
    if (report.filesFrom === "directory") {
      lines.push("the live files are unknown: every table and log file present was verified");
    }
    const recovery = report.recovery;
    if (recovery !== null && recovery.status !== "ok") {
      const what = recovery.status === "refused" ? "recovery refuses the database" : "recovery not checked";
      lines.push(`${what}: ${recovery.error!.code}: ${recovery.error!.message}`);
    }
    lines.push(report.bad === 0 ? "every file is good" : plural(report.bad, "bad file"));
    process.stdout.write(`${dir}: ${report.ok ? "ok" : "CORRUPT"}\n${lines.map((l) => `  ${l}\n`).join("")}`);
  }
  return report.ok ? 0 : 1;
}
