// Checks a whole table file, as `sstfilter verify` and the viewer do: every block's checksum (the
// blocks opening read, every meta block, every index partition and data block) and every key
// against the table's filter (a key the filter rules out is a false negative: a corrupt filter).
// verifyTableSplit shares the data blocks between threads; the threads themselves are the
// runtime's (Node's worker_threads in verify-parallel.ts, Web Workers in the viewer).
import { SstFilterError, type SstFilterErrorCode } from "../core/errors.js";
import type { AsyncTable, Table } from "./table.js";
import type { BlockRange, FilterCheckBatch } from "./table-types.js";

/** How far verifyTable is: data blocks and bytes read so far of the total. */
export interface VerifyProgress {
  /** Bytes of data blocks checked so far, and in all (the data blocks lie at the file's start). */
  bytesDone: number;
  bytesTotal: number;
  dataBlocks: number;
  keys: number;
}

/** verifyTable's options: progress, cancellation, how many faults to list, the blocks to verify, the meta blocks. */
export interface VerifyOptions {
  /**
   * Called as data blocks are checked (after each batch of them, about 1 MiB of keys), and once
   * more at the end if the last did not reach 100%.
   */
  onProgress?: (progress: VerifyProgress) => void;
  /** Stops the walk between two batches of blocks; verifyTable then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** How many false negatives to report with their keys (all are counted). Default 10. */
  maxReported?: number;
  /**
   * Only the data blocks at offsets [from, to) (default: all), for verifications that share a
   * table between threads (mergeVerifyReports puts their reports together).
   */
  range?: BlockRange;
  /** Whether the meta blocks opening did not read are read and checked too. Default true. */
  metaBlocks?: boolean;
}

/** A key the table holds that its filter rules out, and the data block it is in. */
export interface FalseNegative {
  key: Uint8Array;
  /** [offset, size] of the data block holding the key. */
  dataBlock: [number, number];
}

/** verifyTable's report: whether every checksum matched and every key passed the filter, with counts. */
export interface VerifyReport {
  /** No checksum mismatch, no undecodable block, no false negative. */
  ok: boolean;
  dataBlocks: number;
  /** Entries walked (versions of one user key each count). */
  keys: number;
  /** Meta blocks read and checked by name (the properties block is checked when opening). */
  metaBlocks: string[];
  /** Why keys were not probed (a filter this library cannot probe), or null when they were. */
  filterSkipped: string | null;
  /** Keys the filter says are definitely not in the file although they are. */
  falseNegatives: number;
  falseNegativeSamples: FalseNegative[];
  /** LevelDB: entries per filter of the filter block (per 2 KiB of data-block offsets); else null. */
  keysPerLevelDbFilter: number[] | null;
  /** The first block that failed to read or decode: the walk stops there. */
  error: { code: SstFilterErrorCode; message: string; offset: number | undefined } | null;
}

// The data range one LevelDB filter covers (kFilterBase, 1 << 11, in table/filter_block.cc).
const LEVELDB_FILTER_RANGE = 2048;

// Blocks opening already checked, with RocksDB's own exception for the properties block of an
// ingested file whose global sequence number was rewritten in place (its stored checksum is stale).
const CHECKED_WHEN_OPENING = new Set(["rocksdb.properties", "rocksdb.stats"]);

/** Where the data blocks end: every other block follows them, in LevelDB and RocksDB files. */
export function dataEnd(table: Table | AsyncTable): number {
  // RocksDB records it (the data blocks with their trailers); filter partitions may follow them.
  const recorded = table.properties["rocksdb.data.size"];
  if (typeof recorded === "number") return recorded;
  const offsets = Object.values(table.metaindex).map(([offset]) => offset);
  offsets.push(table.footer.metaindexHandle[0], table.footer.indexHandle[0]);
  return Math.min(...offsets);
}

/**
 * Reads every block of `table` and probes every key against its filter. Resolves with a report
 * (a failing block ends the walk and is reported); rejects only for a table used after dispose(),
 * an abort, or errors of the byte source itself.
 */
export async function verifyTable(
  table: Table | AsyncTable,
  opts: VerifyOptions = {},
): Promise<VerifyReport> {
  const maxReported = opts.maxReported ?? 10;
  const leveldb = table.format === "leveldb";
  const report: VerifyReport = {
    ok: true,
    dataBlocks: 0,
    keys: 0,
    metaBlocks: [],
    filterSkipped: table.filter === null ? "the table has no filter" : null,
    falseNegatives: 0,
    falseNegativeSamples: [],
    keysPerLevelDbFilter: leveldb ? [] : null,
    error: null,
  };
  const end = dataEnd(table);
  const from = Math.min(opts.range?.from ?? 0, end);
  const bytesTotal = Math.max(from, Math.min(opts.range?.to ?? end, end)) - from;
  let reported = 0;
  const progress = (bytesDone: number): void => {
    reported = bytesDone;
    opts.onProgress?.({ bytesDone, bytesTotal, dataBlocks: report.dataBlocks, keys: report.keys });
  };
  const onBatch = (batch: FilterCheckBatch): void => {
    const { blocks } = batch;
    const counts = report.keysPerLevelDbFilter;
    for (let b = 0, first = 0; b < blocks.length; first = blocks[b + 2]!, b += 3) {
      report.dataBlocks++;
      if (counts === null) continue;
      const filter = Math.floor(blocks[b]! / LEVELDB_FILTER_RANGE);
      while (counts.length <= filter) counts.push(0);
      counts[filter]! += blocks[b + 2]! - first;
    }
    report.keys += batch.keys;
    // A custom policy's filter or an unknown comparator: the blocks can still be checked.
    if (batch.unprobed !== null) report.filterSkipped = batch.unprobed;
    let block = 0;
    for (const { index, key } of batch.ruledOut) {
      report.falseNegatives++;
      if (report.falseNegativeSamples.length >= maxReported) continue;
      while (blocks[block + 2]! <= index) block += 3;
      report.falseNegativeSamples.push({ key, dataBlock: [blocks[block]!, blocks[block + 1]!] });
    }
    const last = blocks.length - 3;
    if (last >= 0) progress(Math.min(bytesTotal, blocks[last]! + blocks[last + 1]! + 5 - from));
  };
  try {
    for (const [name, [offset, size]] of Object.entries(table.metaindex)) {
      // Opening verified these, and the filter with every partition.
      if (opts.metaBlocks === false) break;
      if (CHECKED_WHEN_OPENING.has(name) || name === table.filter?.metaBlock) continue;
      opts.signal?.throwIfAborted();
      await table.readBlock(offset, size);
      report.metaBlocks.push(name);
    }
    const probe = report.filterSkipped === null;
    for await (const batch of table.verifyBatches(opts.range, probe)) {
      opts.signal?.throwIfAborted();
      onBatch(batch);
    }
    // Whatever follows the last data block in the data area still counts as done.
    if (reported < bytesTotal) progress(bytesTotal);
  } catch (error) {
    // Errors of the file's contents are findings; anything else (abort, dispose, I/O) propagates.
    if (!(error instanceof SstFilterError) || error.code === "DISPOSED" || error.code === "BAD_OPTIONS") {
      throw error;
    }
    report.error = { code: error.code, message: error.message, offset: error.offset };
  }
  report.ok = report.error === null && report.falseNegatives === 0;
  return report;
}

/**
 * The report one walk would have made, from the reports of verifications of consecutive block
 * ranges in range order (the first carrying the meta blocks): counts add up and samples are kept
 * in file order up to `maxReported`, as far as the first range that failed (one walk stops there).
 */
export function mergeVerifyReports(ranges: VerifyReport[], maxReported = 10): VerifyReport {
  const failed = ranges.findIndex((r) => r.error !== null);
  const reports = failed < 0 ? ranges : ranges.slice(0, failed + 1);
  const merged: VerifyReport = {
    ok: true,
    dataBlocks: 0,
    keys: 0,
    metaBlocks: reports.flatMap((r) => r.metaBlocks),
    filterSkipped: reports.find((r) => r.filterSkipped !== null)?.filterSkipped ?? null,
    falseNegatives: 0,
    falseNegativeSamples: [],
    keysPerLevelDbFilter: reports[0]?.keysPerLevelDbFilter ? [] : null,
    error: reports.find((r) => r.error !== null)?.error ?? null,
  };
  for (const r of reports) {
    merged.dataBlocks += r.dataBlocks;
    merged.keys += r.keys;
    merged.falseNegatives += r.falseNegatives;
    for (const sample of r.falseNegativeSamples) {
      if (merged.falseNegativeSamples.length < maxReported) merged.falseNegativeSamples.push(sample);
    }
    r.keysPerLevelDbFilter?.forEach((n, i) => {
      const counts = merged.keysPerLevelDbFilter!;
      while (counts.length <= i) counts.push(0);
      counts[i]! += n;
    });
  }
  merged.ok = merged.error === null && merged.falseNegatives === 0;
  return merged;
}

/**
 * Another thread verifying ranges of the table's data blocks one after another: it opens the file
 * once and skips the meta blocks. Its start-up (a worker, the module, the open table) is paid once.
 */
export interface RangeVerifyThread {
  /**
   * Verifies the data blocks at offsets [range.from, range.to) there: resolves with that range's
   * report (progress as it goes), rejects as verifyTable would, and stops the thread when `signal`
   * aborts.
   */
  verify(
    range: Required<BlockRange>,
    onProgress: (progress: VerifyProgress) => void,
    signal: AbortSignal | undefined,
  ): Promise<VerifyReport>;
  /** Stops the thread (a range it is verifying rejects). */
  close(): void;
}

/** How one table's verification is shared between threads: verifyTable's options with the number of threads. */
export interface SplitVerifyOptions extends Pick<VerifyOptions, "onProgress" | "maxReported" | "signal"> {
  /** Threads to use, this one included (1: verifyTable alone). */
  jobs: number;
}

// The smallest range a thread takes, as a share of the data blocks per thread. A range walk first
// skips the index entries before its start (8-11 ms for the 95,777 of the 222 MB benchmark table,
// measured on a loaded 2-core machine), so many small ranges cost more than they balance; the last
// ones being this small bounds how long one thread can still walk after the others finished.
const SMALLEST_RANGE_PER_THREAD = 1 / 16;

/**
 * verifyTable over `table`, its data blocks shared out by offset in consecutive ranges that this
 * thread and `jobs - 1` threads of `startThread` take in file order as each becomes free: each
 * takes its share of what is left (1 / jobs), so the ranges shrink towards the end and a thread
 * that starts late (a worker pays its start-up while this thread already walks) or walks slower
 * takes less. This thread takes the first range, with the meta blocks. The report is the one a
 * single walk would have made (mergeVerifyReports): no range after the first failing one is
 * started; progress is summed over the ranges.
 */
export async function verifyTableSplit(
  table: Table | AsyncTable,
  startThread: () => RangeVerifyThread,
  opts: SplitVerifyOptions,
): Promise<VerifyReport> {
  const jobs = Math.max(1, Math.floor(opts.jobs));
  const maxReported = opts.maxReported ?? 10;
  if (jobs === 1) return verifyTable(table, opts);
  const end = dataEnd(table);
  const smallest = Math.max(1, Math.round((end * SMALLEST_RANGE_PER_THREAD) / jobs));
  const ranges: Required<BlockRange>[] = [];
  const reports: VerifyReport[] = [];
  // The first range whose walk stopped at a failing block: one walk would have ended there.
  let failed = Infinity;
  // The next range, or null when none is left; the first is taken even without data blocks.
  const claim = (): number | null => {
    const from = ranges.at(-1)?.to ?? 0;
    if ((ranges.length > 0 && from >= end) || ranges.length > failed) return null;
    const to = Math.min(end, from + Math.max(smallest, Math.ceil((end - from) / jobs)));
    return ranges.push({ from, to }) - 1;
  };
  // Progress: the sums over each range's latest, kept up as one range's changes.
  const latest: VerifyProgress[] = [];
  const sum = { bytesDone: 0, bytesTotal: end, dataBlocks: 0, keys: 0 };
  const onProgress = (i: number, p: VerifyProgress): void => {
    const before = latest[i];
    latest[i] = p;
    sum.bytesDone += p.bytesDone - (before?.bytesDone ?? 0);
    sum.dataBlocks += p.dataBlocks - (before?.dataBlocks ?? 0);
    sum.keys += p.keys - (before?.keys ?? 0);
    opts.onProgress?.({ ...sum });
  };
  const take = async (
    verify: (i: number, onProgress: (p: VerifyProgress) => void) => Promise<VerifyReport>,
  ): Promise<void> => {
    for (let i = claim(); i !== null; i = claim()) {
      const report = await verify(i, (p) => onProgress(i, p));
      reports[i] = report;
      if (report.error !== null) failed = Math.min(failed, i);
    }
  };
  // One range failing to run (an I/O error, an abort) stops the others' threads too.
  const stopAll = new AbortController();
  const onAbort = (): void => stopAll.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  const threads: RangeVerifyThread[] = [];
  try {
    // This thread first, so that it takes range 0 (the meta blocks) before any other starts.
    const here = take((i, onRangeProgress) =>
      verifyTable(table, {
        range: ranges[i]!,
        metaBlocks: i === 0,
        maxReported,
        signal: stopAll.signal,
        onProgress: onRangeProgress,
      }),
    );
    const elsewhere = Array.from({ length: jobs - 1 }, () => {
      const thread = startThread();
      threads.push(thread);
      return take((i, onRangeProgress) => thread.verify(ranges[i]!, onRangeProgress, stopAll.signal));
    });
    await Promise.all([here, ...elsewhere]).catch((error: unknown) => {
      stopAll.abort(error);
      throw error;
    });
    // Every range before the first failing one was taken, and so finished.
    return mergeVerifyReports(reports.slice(0, failed + 1), maxReported);
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    for (const thread of threads) thread.close();
  }
}

// What a further verify thread costs beyond the table's index and filter, which it opens again: a
// worker with its own JavaScript heap and the module (about 30 MB of resident memory, measured for
// a Node worker thread on Node 20).
const WORKER_BASELINE_BYTES = 32 << 20;
// The most further threads may add to a verification's memory by default, and the least data each
// thread must have to pay for its start-up (tens of milliseconds).
const DEFAULT_EXTRA_MEMORY_BYTES = 64 << 20;
const DEFAULT_MIN_DATA_PER_THREAD = 64 << 20;

/**
 * The threads a verification uses unless told (`sstfilter verify`, the viewer): one per core, while
 * each has at least 64 MiB of data blocks and the further threads together stay under 64 MiB of
 * memory (each holds its own copy of the table's index and filter). A 2 GB table's index and
 * filter alone exceed that, so verifying one stays on one thread and within its bounded memory.
 */
export function defaultVerifyJobs(table: Table | AsyncTable, cores: number): number {
  const index = table.properties["rocksdb.index.size"];
  const indexBytes = typeof index === "number" ? index : table.footer.indexHandle[1];
  const perThread = WORKER_BASELINE_BYTES + indexBytes + (table.filter?.sizeBytes ?? 0);
  const byMemory = 1 + Math.floor(DEFAULT_EXTRA_MEMORY_BYTES / perThread);
  const byData = Math.max(1, Math.floor(dataEnd(table) / DEFAULT_MIN_DATA_PER_THREAD));
  return Math.max(1, Math.min(cores, byMemory, byData));
}

// The largest file whose verification starts workers before the table is open. Beyond it the index
// and filter of a table usually leave defaultVerifyJobs no memory for another thread (3% of the
// file in the benchmark tables), and a worker started for nothing would add to the peak memory.
const EARLY_WORKERS_MAX_FILE_BYTES = 1 << 30;

/**
 * How many further threads to start for a table file of `fileBytes` before it is open, so that their
 * start-up (tens of milliseconds) overlaps the opening: those defaultVerifyJobs would allow by the
 * data alone (the file's size bounds the data's), for files up to 1 GiB. Once the table is open,
 * defaultVerifyJobs decides; the workers it does not use are closed.
 */
export function earlyVerifyWorkers(fileBytes: number, cores: number): number {
  if (fileBytes > EARLY_WORKERS_MAX_FILE_BYTES) return 0;
  return Math.max(0, Math.min(cores, Math.floor(fileBytes / DEFAULT_MIN_DATA_PER_THREAD)) - 1);
}
