// `sstfilter verify FILE [--jobs N]`: every block's checksum, every key against the filter.
import { stat } from "node:fs/promises";
import { availableParallelism } from "node:os";

import { defaultVerifyJobs, earlyVerifyWorkers } from "../../api/table-verify.js";
import {
  SstFilterError,
  type AsyncTable,
  type NodeSstFilter,
  type SstFilterErrorCode,
  type VerifyReport,
} from "../../platform/node.js";
import { VerifyWorker, verifyTableFile, type VerifyWorkerSetup } from "../../platform/verify-parallel.js";
import { blocksCheckedWhenOpening, bytesJson, count, verifyReportLines, verifyVerdict } from "../format.js";
import { progressBar } from "../progress.js";
import {
  EXIT_INPUT,
  EXIT_NEGATIVE,
  inputError,
  isUrl,
  onePath,
  openTable,
  showKey,
  HEADER_HELP,
  TABLE_OPTIONS,
  URL_OPTIONS,
  usage,
  USER_KEYS_HELP,
  type Command,
  type Parsed,
} from "./shared.js";

const CORRUPTION = new Set<SstFilterErrorCode>(["TRUNCATED", "CORRUPT", "CHECKSUM_MISMATCH"]);

/** An error as --json shows it (db verify's shape): the offset apart, null when unknown. */
const errorJson = (e: { code: string; message: string; offset: number | undefined }): unknown => ({
  code: e.code,
  message: e.message,
  offset: e.offset ?? null,
});

/** The report as --json prints it; keys as text when printable UTF-8, else { hex }. */
function reportJson(file: string, report: VerifyReport, opened: string[]): string {
  const out = {
    file,
    verdict: verifyVerdict(report),
    ok: report.ok,
    dataBlocks: report.dataBlocks,
    keys: report.keys,
    checkedWhenOpening: opened,
    metaBlocks: report.metaBlocks,
    error: report.error === null ? null : errorJson(report.error),
    filterSkipped: report.filterSkipped,
    falseNegatives: report.falseNegatives,
    falseNegativeSamples: report.falseNegativeSamples.map((fn) => ({
      key: bytesJson(fn.key),
      dataBlock: fn.dataBlock,
    })),
  };
  return JSON.stringify(out, null, 2) + "\n";
}

async function verify(sf: NodeSstFilter, args: Parsed): Promise<number> {
  const file = onePath(args, "verify");
  const jobsArg = args.values.jobs;
  const chosenJobs = jobsArg === undefined ? undefined : Number(jobsArg);
  if (chosenJobs !== undefined && (!Number.isSafeInteger(chosenJobs) || chosenJobs < 1))
    throw usage(`--jobs must be a whole number >= 1, got ${jobsArg}`);
  // The workers open the table by path (verify-worker.ts): a URL is verified on this thread.
  if (isUrl(file)) {
    if (chosenJobs !== undefined && chosenJobs > 1) throw usage("a URL is verified on one thread (--jobs 1)");
    return verifyOpened(sf, args, file, () => 1, sf.verifyWorkerSetup()!, []);
  }
  // The entry this tool loads the core with (node.ts) compiled it and set the worker's script.
  const setup = sf.verifyWorkerSetup()!;
  const cores = availableParallelism();
  // Workers start while this thread opens the table, which their start-up then overlaps.
  const fileBytes = await stat(file).then(
    (s) => s.size,
    () => 0, // the open below reports what is wrong with the file
  );
  const early = Array.from(
    { length: chosenJobs === undefined ? earlyVerifyWorkers(fileBytes, cores) : chosenJobs - 1 },
    () => new VerifyWorker(setup),
  );
  try {
    // How many threads: as asked, else as defaultVerifyJobs decides once the table is open.
    const jobs = (table: AsyncTable): number => chosenJobs ?? defaultVerifyJobs(table, cores);
    return await verifyOpened(sf, args, file, jobs, setup, early);
  } finally {
    for (const worker of early) worker.close();
  }
}

async function verifyOpened(
  sf: NodeSstFilter,
  args: Parsed,
  file: string,
  jobs: (table: AsyncTable) => number,
  worker: VerifyWorkerSetup,
  started: VerifyWorker[],
): Promise<number> {
  let table: AsyncTable;
  try {
    table = await openTable(sf, file, args);
  } catch (error) {
    // A file that does not even open is corrupt, unless it could not be read or is unsupported.
    if (error instanceof SstFilterError && CORRUPTION.has(error.code)) {
      process.stdout.write(
        args.values.json === true
          ? JSON.stringify({ file, verdict: "CORRUPT", ok: false, error: errorJson(error) }, null, 2) + "\n"
          : `${file}: CORRUPT\n  ${error.code}: ${error.message}\n`,
      );
      return EXIT_NEGATIVE;
    }
    throw inputError(file, error);
  }
  const bar = progressBar();
  try {
    const report = await verifyTableFile(table, file, {
      jobs: jobs(table),
      internalKeys: args.values["user-keys"] !== true,
      worker,
      started,
      onProgress: (p) =>
        bar.update(
          p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1,
          `${count(p.dataBlocks)} blocks, ${count(p.keys)} keys`,
        ),
    });
    bar.clear();
    const verdict = verifyVerdict(report);
    const opened = blocksCheckedWhenOpening(table);
    if (args.values.json === true) {
      process.stdout.write(reportJson(file, report, opened));
    } else {
      const lines = verifyReportLines(report, {
        opened,
        keyText: showKey,
        // A user-keys table read with internal keys is the usual cause; with --user-keys, not.
        ...(args.values["user-keys"] === true
          ? {}
          : { tagErrorHint: "(if the file holds user keys without tags, try --user-keys)" }),
      });
      process.stdout.write(`${file}: ${verdict}\n${lines.map((l) => `  ${l}\n`).join("")}`);
    }
    return verdict === "ok" ? 0 : verdict === "UNSUPPORTED" ? EXIT_INPUT : EXIT_NEGATIVE;
  } catch (error) {
    bar.clear();
    throw inputError(file, error);
  } finally {
    table.dispose();
  }
}

/** `sstfilter verify`. */
export const verifyCommand: Command = {
  summary: "check every block checksum and every key against the filter",
  help: `Usage: sstfilter verify <file> [--json] [--user-keys] [--jobs N]

Reads every block of the file, checking its checksum and decoding it, and probes every key
against the file's filter: a key the filter rules out means a corrupt filter. Shows a progress
bar on standard error when it runs long. Exit code 0 when the file is sound, 1 when it is
corrupt, 3 when it holds blocks this reader cannot decode (XPRESS, custom codecs).

  --json           the report as JSON: file, verdict (ok, CORRUPT, UNSUPPORTED), ok, dataBlocks,
                   keys, checkedWhenOpening, metaBlocks, error ({ code, message, offset } or null),
                   filterSkipped, falseNegatives, falseNegativeSamples ({ key, dataBlock }); keys
                   as text when printable UTF-8, else { hex }. A file that does not open: file,
                   verdict, ok and error only
  --jobs N         threads to share the data blocks between (this machine has
                   ${availableParallelism()} cores). Each holds the table's index and filter, so memory grows
                   with N. Default: one thread per core while each has at least 64 MiB of
                   data blocks and the further threads together hold under 64 MiB more
                   (a large table's index and filter alone exceed that: one thread); a URL
                   is verified on one thread.
${USER_KEYS_HELP}
${HEADER_HELP}`,
  options: { ...TABLE_OPTIONS, ...URL_OPTIONS, jobs: { type: "string" }, json: { type: "boolean" } },
  run: verify,
};
