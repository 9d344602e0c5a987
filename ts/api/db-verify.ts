// db.verify: every live file of a database checked end to end, as `sstfilter db verify` does:
// each table as `sstfilter verify` checks one (ts/api/table-verify.ts: every block's checksum, every
// key against the filter), the MANIFEST and each live WAL record by record through the core's log
// reader (docs/FORMATS.md 6.1; a torn tail is what a crash leaves and RocksDB's recovery reads up
// to, so it is reported, not an error), each WAL's write batches as recovery decodes them (6.4),
// each blob file's header, records and footer (6.7). Tables are verified several at a time where
// the source (Node's directories: worker_threads) or the caller (the viewer: Web Workers) offers
// threads.
import type { WasmHeap } from "../core/heap.js";
import type { OpenTableOptions } from "./table-types.js";
import { verifyTable, type VerifyProgress, type VerifyReport } from "./table-verify.js";
import { detectDatabaseFormat, openSourceTable } from "./db-source.js";
import type {
  ColumnFamily,
  DatabaseFormat,
  DatabaseSource,
  OpenDatabaseOptions,
  TableVerifyThread,
  TableVerifyThreads,
} from "./db-types.js";
import { inFile, messageWithoutOffset, SstFilterError, type SstFilterErrorCode } from "../core/errors.js";
import { liveWalNames, readWriteAheadLog } from "./wal.js";
import {
  blobFileName,
  CURRENT_FILE,
  parseDatabaseFileName,
  walNumber,
  type DatabaseFileName,
} from "./db-file-names.js";

/** How far db.verify is: bytes verified of all live files' bytes. */
export interface DatabaseVerifyProgress {
  /**
   * Bytes of the files verified so far (a table's share by its data blocks checked), and of all
   * files to verify.
   */
  bytesDone: number;
  bytesTotal: number;
  filesDone: number;
  filesTotal: number;
}

/** db.verify's options: progress, cancellation, tables verified at once and their threads. */
export interface DatabaseVerifyOptions {
  /** Called as files and tables' data blocks are checked, and once at the end. */
  onProgress?: (progress: DatabaseVerifyProgress) => void;
  /** Stops every thread; verify then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Files verified at once, this thread included. Default: 1 + the threads `workers` (or the
   * database's source) offers; 1 verifies everything here.
   */
  jobs?: number;
  /** Threads for tables besides this one; default the source's (Node: worker_threads), else none. */
  workers?: TableVerifyThreads;
}

/** "current" only for a CURRENT file that cannot be read (sf.verifyDatabase); opening checks it. */
export type DatabaseFileKind = "current" | "manifest" | "wal" | "table" | "blob";

/** How a log (the MANIFEST, a WAL) ended: "torn" and "old-record" are not errors. */
export interface LogEndReport {
  kind: "clean" | "torn" | "old-record";
  offset: number;
  what: string;
}

/** db.verify's verdict on one live file: ok or the typed error, with what was checked. */
export interface DatabaseFileReport {
  name: string;
  kind: DatabaseFileKind;
  /** The file's size. */
  bytes: number;
  status: "ok" | "error";
  /** Why the file is bad (naming the file and, where known, the byte offset); null when not. */
  error: SstFilterError | null;
  /** Tables: the verification's report (null when the table did not open or had the wrong size). */
  table: VerifyReport | null;
  /** Logs: the records read and how the log ended (null when a record was bad). */
  log: { records: number; end: LogEndReport } | null;
  /** Blob files: the blobs read and their bytes with record headers and keys (null when bad). */
  blob: { count: bigint; bytes: bigint } | null;
}

/**
 * Whether recovery opens the database, as the library's DB::Open would with the database's
 * recovery settings (docs/FORMATS.md 6.4). "ok"; "refused": recovery fails the open though each
 * file may be good on its own (a WAL chain missing a log under track_and_verify_wals, tables of
 * writes beyond where a log stops, a mode that refuses damage), `error` says why; "unchecked": the
 * logs cannot be replayed here (UNSUPPORTED: a compressed WAL, a WRITE_PREPARED TransactionDB's),
 * `error` says why.
 */
export interface RecoveryReport {
  status: "ok" | "refused" | "unchecked";
  error: SstFilterError | null;
}

/** db.verify's report: one entry per live file, and totals. */
export interface DatabaseVerifyReport {
  /** Every verified file is good, and recovery does not refuse the database. */
  ok: boolean;
  /**
   * The MANIFEST first, then the live WALs by number, the tables (column family by column family,
   * level by level), the blob files.
   */
  files: DatabaseFileReport[];
  /** The files' sizes added up. */
  bytesTotal: number;
  bad: number;
  /** Threads used, this one included. */
  jobs: number;
  /**
   * Where the file list comes from: "manifest", the live files; "directory", every table and log
   * present, because CURRENT or the MANIFEST could not be read (sf.verifyDatabase; that file is
   * reported first, with its error).
   */
  filesFrom: "manifest" | "directory";
  /** The logs replayed as recovery replays them; null when the live files are unknown ("directory"). */
  recovery: RecoveryReport | null;
}

// The content errors a file can have; any other error (an abort, a dispose, I/O) propagates.
const FILE_ERRORS = new Set<SstFilterErrorCode>(["TRUNCATED", "CORRUPT", "CHECKSUM_MISMATCH", "UNSUPPORTED"]);

interface PlannedFile {
  report: DatabaseFileReport;
  /** The log's number (recyclable records carry it); tables and blobs: 0n. */
  number: bigint;
  /** The size the MANIFEST records (tables), checked against the file's. */
  recordedSize: number | null;
  /** The blobs and bytes the MANIFEST records (blob files), checked against the file's. */
  recordedBlobs: { count: bigint; bytes: bigint } | null;
  /** The column family the MANIFEST lists a blob file under (its header must name it); else null. */
  columnFamilyId: number | null;
}

/** A verify report's error (whose message has the offset) as an SstFilterError naming the file. */
function fileError(
  name: string,
  error: { code: SstFilterErrorCode; message: string; offset: number | undefined },
): SstFilterError {
  return new SstFilterError(
    error.code,
    messageWithoutOffset(error.message, error.offset),
    error.offset,
    name,
  );
}

function planned(
  name: string,
  kind: DatabaseFileKind,
  number = 0n,
  recordedSize: number | null = null,
): PlannedFile {
  return {
    report: { name, kind, bytes: 0, status: "ok", error: null, table: null, log: null, blob: null },
    number,
    recordedSize,
    recordedBlobs: null,
    columnFamilyId: null,
  };
}

/**
 * What db.verify reads of its Database (db.ts, which calls verifyDatabase and so is not imported
 * here): the files the MANIFEST names live, and how each table is opened.
 */
export interface VerifiedDatabase {
  readonly format: DatabaseFormat;
  readonly manifest: string;
  readonly columnFamilies: readonly ColumnFamily[];
  readonly prevLogNumber: bigint;
  readonly fileNames: readonly string[];
  /** How the table `name` is opened to be verified: its column family's comparator and key shape. */
  tableOpenOptions(name: string): OpenTableOptions;
  /** Replays the live logs as recovery does, keeping nothing; rejects as the open would fail. */
  checkRecovery(): Promise<void>;
}

/** The files db.verify checks, in report order. */
function plan(db: VerifiedDatabase): PlannedFile[] {
  const files = [planned(db.manifest, "manifest", parseDatabaseFileName(db.manifest)?.number)];
  const logs = liveWalNames(
    db.fileNames,
    db.columnFamilies.map((cf) => cf.logNumber),
    db.prevLogNumber,
  );
  for (const name of logs) files.push(planned(name, "wal", walNumber(name)!));
  for (const cf of db.columnFamilies) {
    for (const level of cf.levels) {
      for (const f of level.files) files.push(planned(f.name, "table", 0n, f.size));
    }
  }
  for (const cf of db.columnFamilies) {
    for (const blob of cf.blobFiles) {
      const file = planned(blobFileName(blob.number), "blob");
      file.recordedBlobs = { count: blob.totalBlobCount, bytes: blob.totalBlobBytes };
      file.columnFamilyId = cf.id;
      files.push(file);
    }
  }
  return files;
}

/** Every table and log file present, for a database whose MANIFEST cannot be read. */
function planFromNames(names: readonly string[], unreadable: SstFilterError): PlannedFile[] {
  const name = unreadable.file ?? CURRENT_FILE;
  const bad = planned(name, name === CURRENT_FILE ? "current" : "manifest");
  bad.report.status = "error";
  bad.report.error = unreadable;
  const files = [bad];
  const parsed = names
    .map((name) => ({ name, file: parseDatabaseFileName(name) }))
    .filter((n): n is { name: string; file: DatabaseFileName } => n.file !== null)
    .sort((a, b) => (a.file.number < b.file.number ? -1 : a.file.number > b.file.number ? 1 : 0));
  for (const n of parsed) if (n.file.kind === "wal") files.push(planned(n.name, "wal", n.file.number));
  for (const n of parsed) if (n.file.kind === "table") files.push(planned(n.name, "table"));
  for (const n of parsed) if (n.file.kind === "blob") files.push(planned(n.name, "blob"));
  return files;
}

/** A file's size: from a ranged open where the source has one (no read), else its bytes. */
async function sizeOf(source: DatabaseSource, name: string): Promise<number> {
  if (source.open === undefined) return (await source.read(name)).length;
  const opened = await source.open(name);
  opened.close();
  return opened.source.size;
}

/** The table report's findings as the file's error: the failing block, or the filter's false negatives. */
function tableError(name: string, report: VerifyReport): SstFilterError | null {
  if (report.error !== null) return fileError(name, report.error);
  if (report.falseNegatives === 0) return null;
  const first = report.falseNegativeSamples[0];
  return new SstFilterError(
    "CORRUPT",
    `the filter rules out ${report.falseNegatives} key(s) the table holds`,
    first?.dataBlock[0],
    name,
  );
}

function checkOptions(opts: DatabaseVerifyOptions): void {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "verify options must be an object");
  }
  if (opts.jobs !== undefined && (!Number.isSafeInteger(opts.jobs) || opts.jobs < 1)) {
    throw new SstFilterError("BAD_OPTIONS", `jobs must be a whole number >= 1, got ${String(opts.jobs)}`);
  }
}

/** @internal Database.verify: see DatabaseVerifyOptions. */
export async function verifyDatabase(
  db: VerifiedDatabase,
  heap: WasmHeap,
  source: DatabaseSource,
  opts: DatabaseVerifyOptions = {},
): Promise<DatabaseVerifyReport> {
  checkOptions(opts);
  const report = await verifyFiles(heap, source, db.format, plan(db), "manifest", opts, (name) =>
    db.tableOpenOptions(name),
  );
  opts.signal?.throwIfAborted();
  report.recovery = await recoveryReport(db);
  report.ok &&= report.recovery.status !== "refused";
  return report;
}

/** Whether recovery opens `db`: its content errors refuse the open, UNSUPPORTED leaves it unchecked. */
async function recoveryReport(db: VerifiedDatabase): Promise<RecoveryReport> {
  try {
    await db.checkRecovery();
    return { status: "ok", error: null };
  } catch (error) {
    if (!(error instanceof SstFilterError) || !FILE_ERRORS.has(error.code)) throw error;
    return { status: error.code === "UNSUPPORTED" ? "unchecked" : "refused", error };
  }
}

/**
 * @internal sf.verifyDatabase: db.verify of the database `source` holds, or, where CURRENT or the
 * MANIFEST cannot be read (a content error; missing files and I/O errors still reject), that file's
 * error and every table and log present verified. `open` is openDatabase over `source`, handed in
 * by sf.verifyDatabase (db.ts imports this module for db.verify, so this one cannot import it).
 */
export async function verifySourceDatabase(
  heap: WasmHeap,
  source: DatabaseSource,
  open: (opts: OpenDatabaseOptions) => Promise<VerifiedDatabase>,
  opts: DatabaseVerifyOptions & OpenDatabaseOptions = {},
): Promise<DatabaseVerifyReport> {
  checkOptions(opts);
  let db: VerifiedDatabase;
  try {
    db = await open(opts.format === undefined ? {} : { format: opts.format });
  } catch (error) {
    if (!(error instanceof SstFilterError) || !FILE_ERRORS.has(error.code)) throw error;
    const format = opts.format ?? detectDatabaseFormat(source.names);
    return verifyFiles(heap, source, format, planFromNames(source.names, error), "directory", opts);
  }
  return verifyDatabase(db, heap, source, opts);
}

/** Verifies `files` of `source` (see DatabaseVerifyOptions); those already failed are reported as they are. */
async function verifyFiles(
  heap: WasmHeap,
  source: DatabaseSource,
  format: DatabaseFormat,
  files: PlannedFile[],
  filesFrom: DatabaseVerifyReport["filesFrom"],
  opts: DatabaseVerifyOptions,
  tableOptions: (name: string) => OpenTableOptions = () => ({}),
): Promise<DatabaseVerifyReport> {
  const workers = opts.workers ?? source.threads;
  const jobs = opts.jobs ?? 1 + (workers?.count ?? 0);
  opts.signal?.throwIfAborted();
  const present = new Set(source.names);
  for (const f of files) {
    if (present.has(f.report.name)) f.report.bytes = await sizeOf(source, f.report.name);
    else if (f.report.error === null) {
      f.report.status = "error";
      f.report.error = new SstFilterError("TRUNCATED", "the file is missing", 0, f.report.name);
    }
  }
  const bytesTotal = files.reduce((n, f) => n + f.report.bytes, 0);
  const done = new Map<PlannedFile, number>();
  let filesDone = 0;
  const progress = (): void => {
    let bytesDone = 0;
    for (const n of done.values()) bytesDone += n;
    opts.onProgress?.({ bytesDone, bytesTotal, filesDone, filesTotal: files.length });
  };
  const finished = (f: PlannedFile): void => {
    done.set(f, f.report.bytes);
    filesDone++;
    progress();
  };

  // One run of a table, here or on another thread: progress as its share of the file.
  const onTableProgress = (f: PlannedFile) => (p: VerifyProgress) => {
    done.set(f, p.bytesTotal > 0 ? Math.floor((f.report.bytes * p.bytesDone) / p.bytesTotal) : 0);
    progress();
  };
  const recordTable = (f: PlannedFile, report: VerifyReport): void => {
    f.report.table = report;
    f.report.error = tableError(f.report.name, report);
  };
  const verifyTableHere = async (f: PlannedFile, signal: AbortSignal): Promise<void> => {
    const table = await openSourceTable(heap, source, f.report.name, tableOptions(f.report.name));
    try {
      recordTable(f, await verifyTable(table, { signal, onProgress: onTableProgress(f) }));
    } finally {
      table.dispose();
    }
  };
  const verifyLog = async (f: PlannedFile): Promise<void> => {
    const bytes = await source.read(f.report.name);
    if (f.report.kind === "wal") {
      // Recovery decodes every batch: a count that disagrees with the records is "WriteBatch has
      // wrong count" there (rocksdb db/write_batch.cc), not only a bad fragment.
      const wal = readWriteAheadLog(heap, bytes, { format, name: f.report.name });
      // LevelDB's recovery reads past damage; the file is damaged all the same.
      const damage = wal.error ?? wal.dropped[0]?.error ?? null;
      if (damage !== null) f.report.error = damage;
      else f.report.log = { records: wal.batches.length, end: wal.end as LogEndReport };
      return;
    }
    const result = heap.module.checkLog(heap.put(bytes), bytes.length, format, f.number);
    if (result === null) f.report.error = heap.lastError(f.report.name);
    else f.report.log = { records: result.records, end: result.end };
  };

  const verifyBlob = async (f: PlannedFile): Promise<void> => {
    const bytes = await source.read(f.report.name);
    const result = heap.module.checkBlobFile(heap.put(bytes), bytes.length);
    if (result === null) {
      f.report.error = heap.lastError(f.report.name);
      return;
    }
    f.report.blob = { count: result.blobCount, bytes: result.blobBytes };
    // BlobFileReader::ReadHeader refuses a file of another column family and a TTL file (stacked
    // BlobDB's), which integrated BlobDB never writes (rocksdb db/blob/blob_file_reader.cc).
    const misfit = result.hasTtl
      ? "it is a TTL blob file, which RocksDB's integrated blob files never are"
      : f.columnFamilyId !== null && result.columnFamilyId !== f.columnFamilyId
        ? `its header names column family ${result.columnFamilyId}, the MANIFEST lists it under ${f.columnFamilyId}`
        : null;
    if (misfit !== null) {
      f.report.error = new SstFilterError("CORRUPT", misfit, 0, f.report.name);
      return;
    }
    const recorded = f.recordedBlobs;
    if (
      recorded !== null &&
      (recorded.count !== f.report.blob.count || recorded.bytes !== f.report.blob.bytes)
    ) {
      f.report.error = new SstFilterError(
        "CORRUPT",
        `the file holds ${f.report.blob.count} blobs of ${f.report.blob.bytes} bytes, ` +
          `the MANIFEST records ${recorded.count} of ${recorded.bytes}`,
        undefined,
        f.report.name,
      );
    }
  };

  // Runs one file, turning its content errors into its report's error.
  const run = async (
    f: PlannedFile,
    elsewhere: TableVerifyThread | null,
    signal: AbortSignal,
  ): Promise<void> => {
    try {
      if (f.recordedSize !== null && f.report.bytes !== f.recordedSize) {
        // RocksDB refuses to open such a database ("Sst file size mismatch"); LevelDB reads past it.
        const shorter = f.report.bytes < f.recordedSize;
        f.report.error = new SstFilterError(
          shorter ? "TRUNCATED" : "CORRUPT",
          `the file has ${f.report.bytes} bytes, the MANIFEST records ${f.recordedSize}`,
          Math.min(f.report.bytes, f.recordedSize),
          f.report.name,
        );
      } else if (f.report.kind === "blob") await verifyBlob(f);
      else if (f.report.kind !== "table") await verifyLog(f);
      else {
        // A comparator of the caller's is a function of this thread: its tables are verified here.
        const { comparator, manifestComparator } = tableOptions(f.report.name);
        if (elsewhere === null || comparator !== undefined) await verifyTableHere(f, signal);
        else {
          recordTable(
            f,
            await elsewhere.verify(f.report.name, onTableProgress(f), signal, manifestComparator),
          );
        }
      }
    } catch (error) {
      if (!(error instanceof SstFilterError) || !FILE_ERRORS.has(error.code)) throw error;
      f.report.error = inFile(error, f.report.name) as SstFilterError;
    }
    if (f.report.error !== null) f.report.status = "error";
    finished(f);
  };

  // This thread takes the logs first (small, and only it reads them), then tables like the others;
  // tables go largest first so that no thread is left with a big one at the end.
  const queue = files
    .filter((f) => f.report.status === "ok")
    .sort(
      (a, b) =>
        Number(a.report.kind === "table") - Number(b.report.kind === "table") ||
        b.report.bytes - a.report.bytes,
    );
  const stopAll = new AbortController();
  const onAbort = (): void => stopAll.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  // A runner takes the next file it can run until none is left; a further thread starts with its
  // first table and stops with the runner.
  const runner = async (threads: TableVerifyThreads | null): Promise<void> => {
    let thread: TableVerifyThread | null = null;
    try {
      for (;;) {
        stopAll.signal.throwIfAborted();
        const next = queue.findIndex((f) => threads === null || f.report.kind === "table");
        if (next < 0) return;
        thread ??= threads?.start() ?? null;
        await run(queue.splice(next, 1)[0]!, thread, stopAll.signal);
      }
    } finally {
      thread?.close();
    }
  };
  const threads = workers === undefined ? 1 : jobs;
  try {
    await Promise.all([
      runner(null),
      ...Array.from({ length: threads - 1 }, () => runner(workers ?? null)),
    ]).catch((error: unknown) => {
      stopAll.abort(error);
      throw error;
    });
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
  }
  for (const f of files) if (f.report.status === "error" && !done.has(f)) finished(f);
  const reports = files.map((f) => f.report);
  return {
    ok: reports.every((r) => r.status !== "error"),
    files: reports,
    bytesTotal,
    bad: reports.filter((r) => r.status === "error").length,
    jobs: threads,
    filesFrom,
    recovery: null,
  };
}
