// A database where it lies, under a base URL (issue 32): a DatabaseSource whose files are read with
// ranged requests (http-source.ts). HTTP lists no directory, so unless the caller names the files
// (an index.json's list, an S3 listing), they are found from the database itself, as its own open
// would find what it reads (docs/FORMATS.md 6), and nothing else is asked for:
// 1. CURRENT, read whole, names the MANIFEST; IDENTITY is probed beside it (RocksDB writes one,
//    LevelDB none: the format, as detectDatabaseFormat reads it from a folder's names).
// 2. The MANIFEST, read whole, gives the live tables and blob files by number: each is probed, a
//    LevelDB table as ".ldb" then ".sst" (db-file-names.ts tableFileNames).
// 3. WALs: every number from the oldest log recovery reads (the smallest column family log number,
//    the previous log number, the min log number to keep of a two-phase-commit database) up to
//    the MANIFEST's next file number, less the numbers of the files above, is probed as "<n>.log".
// 4. Past that bound: the files made after the MANIFEST's last edit take the next numbers (a WAL
//    of a memtable switched since; RocksDB's OPTIONS file, which DB::Open writes after the
//    MANIFEST, taking two numbers: its temporary file's and its own, rocksdb db/db_impl/db_impl.cc
//    WriteOptionsFile, RenameTempFileToOptionsFile). So numbers from the bound upwards are probed
//    as "<n>.log" and (RocksDB) "OPTIONS-<n>" until AFTER_BOUND_GAP numbers in a row have neither.
// 5. RocksDB's newest OPTIONS file, when none is past the bound: the numbers below it down to the
//    MANIFEST's own, highest first, PROBES_AT_ONCE at a time, until one is found. Older OPTIONS
//    files are not looked for: only the newest is read (options-file.ts newestOptionsFile).
// A database written with max_manifest_file_size rolled its MANIFEST after its OPTIONS file may
// seem to have none; pass `files` then.
// A probe is one GET of the file's first byte (httpFileExists); CURRENT and the MANIFEST are kept
// from discovery, so openDatabase does not ask for them again.
import { SstFilterError } from "../core/errors.js";
import type { WasmHeap } from "../core/heap.js";
import { checkLibraryFormat, type LibraryFormat } from "../core/library-format.js";
import {
  blobFileName,
  CURRENT_FILE,
  IDENTITY_FILE,
  optionsFileName,
  parseDatabaseFileName,
  tableFileNames,
  walFileName,
} from "./db-file-names.js";
import type { DatabaseSource, ManifestState } from "./db-types.js";
import {
  checkUrl,
  httpFileExists,
  httpSource,
  type HttpFetch,
  type HttpSourceOptions,
} from "./http-source.js";

/** How httpDatabaseSource reaches the database: httpSource's options, and optionally its files. */
export interface HttpDatabaseOptions extends HttpSourceOptions {
  /**
   * The database's file names (plain names, e.g. from an index.json or an S3 listing): when given,
   * they are the database's files and nothing is probed.
   */
  files?: readonly string[];
  /** The library that wrote it, as OpenDatabaseOptions.format; default: IDENTITY's presence. */
  format?: LibraryFormat;
}

/** A database's files under a base URL, read with ranged requests. */
export interface HttpDatabaseSource extends DatabaseSource {
  /** The base URL, ending in "/": a file's URL is the base with its name appended. */
  readonly baseUrl: string;
  /** Requests sent so far (probes, reads, retries), for all the database's files. */
  readonly stats: { requests: number };
}

// Probes in flight at once: enough to hide a round trip's latency, few enough for any server.
const PROBES_AT_ONCE = 16;

// The most file numbers discovery probes for WALs (step 3) or for the OPTIONS file (step 5): a
// MANIFEST whose oldest live log or own number lies further below its next file number (an odd
// or hostile one) would otherwise cost a request per number. Beyond it the caller names the files.
const MAX_PROBED_NUMBERS = 4096;

/** Refuses a discovery step that would probe more than MAX_PROBED_NUMBERS numbers. */
function checkProbeSpan(from: bigint, to: bigint, what: string): void {
  if (to - from > BigInt(MAX_PROBED_NUMBERS)) {
    throw new SstFilterError(
      "RESOURCE_LIMIT",
      `finding the ${what} would probe ${to - from} file numbers (${from} to ${to}), more than ` +
        `${MAX_PROBED_NUMBERS}: pass the database's file names (files) instead`,
    );
  }
}

/** `base` with a "/" ending its path, so that a file's name is appended to it. */
function directoryUrl(base: URL | string): URL {
  const url = new URL(checkUrl(base));
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** Runs `probe` on every item, at most PROBES_AT_ONCE at a time; the answers in the items' order. */
async function probeAll<T>(
  items: readonly T[],
  probe: (item: T) => Promise<string | null>,
): Promise<(string | null)[]> {
  const out: (string | null)[] = new Array<string | null>(items.length).fill(null);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await probe(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBES_AT_ONCE, items.length) }, worker));
  return out;
}

/** The oldest WAL recovery reads (wal.ts liveWalNames, and 2PC's min log number to keep). */
function oldestLiveWal(state: ManifestState): bigint | null {
  const candidates = [
    ...state.columnFamilies.map((cf) => cf.logNumber),
    ...[state.prevLogNumber, state.minLogNumberToKeep].filter((n) => n !== 0n),
  ];
  return candidates.length === 0 ? null : candidates.reduce((a, b) => (b < a ? b : a));
}

/**
 * A DatabaseSource over the database whose files lie under `baseUrl` (http or https; its query,
 * a container-wide signature say, goes with every file), its file names `opts.files` or found as
 * this module's head describes. Files are read with httpSource: whole files with one request (two
 * past 512 KiB), tables lazily.
 */
export async function httpDatabaseSource(
  heap: WasmHeap,
  baseUrl: URL | string,
  opts: HttpDatabaseOptions = {},
): Promise<HttpDatabaseSource> {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "HTTP database options must be an object");
  }
  const { files, format, ...http } = opts;
  const base = directoryUrl(baseUrl);
  const stats = { requests: 0 };
  const send = http.fetch ?? globalThis.fetch;
  const counted: HttpFetch | undefined =
    typeof send === "function"
      ? (url, init) => {
          stats.requests++;
          return send(url, init);
        }
      : undefined;
  const reach: HttpSourceOptions = counted === undefined ? http : { ...http, fetch: counted };
  const fileUrl = (name: string): string => {
    const url = new URL(base);
    url.pathname += encodeURIComponent(name);
    return url.href;
  };
  const exists = (name: string): Promise<boolean> => httpFileExists(fileUrl(name), reach);
  // CURRENT and the MANIFEST as discovery read them: later reads (openDatabase's, a Get's) are
  // answered from here, not asked for again.
  const kept = new Map<string, Uint8Array>();
  const readWhole = async (name: string): Promise<Uint8Array> => {
    const source = await httpSource(fileUrl(name), reach);
    try {
      return await source.read(0, source.size);
    } finally {
      source.close();
    }
  };
  /** `name` read whole; null where it is not there (asked again only when the read failed). */
  const readIfThere = async (name: string): Promise<Uint8Array | null> => {
    try {
      const bytes = await readWhole(name);
      kept.set(name, bytes);
      return bytes;
    } catch (error) {
      if (await exists(name)) throw error;
      return null;
    }
  };

  let names: string[];
  if (files !== undefined) {
    if (!Array.isArray(files) || files.some((f) => typeof f !== "string" || f === "" || f.includes("/"))) {
      throw new SstFilterError("BAD_OPTIONS", "files must be a list of file names (no folders)");
    }
    names = [...files];
  } else {
    if (format !== undefined) checkLibraryFormat(format);
    const [current, identity] = await Promise.all([readIfThere(CURRENT_FILE), exists(IDENTITY_FILE)]);
    names = [...(current === null ? [] : [CURRENT_FILE]), ...(identity ? [IDENTITY_FILE] : [])];
    const manifest =
      current === null ? null : heap.module.parseCurrentFile(heap.put(current), current.length);
    if (current !== null && manifest === null) throw heap.lastError(CURRENT_FILE);
    const manifestBytes = manifest === null ? null : await readIfThere(manifest);
    // A folder without CURRENT or without the MANIFEST it names: openDatabase says which.
    if (manifest !== null && manifestBytes !== null) {
      names.push(manifest);
      const library = format ?? (identity ? "rocksdb" : "leveldb");
      names.push(...(await liveFileNames(heap, manifest, manifestBytes, library, exists)));
    }
  }
  return {
    baseUrl: base.href,
    stats,
    names,
    read: async (name) => kept.get(name) ?? readWhole(name),
    async open(name) {
      const source = await httpSource(fileUrl(name), reach);
      return { source, close: () => source.close() };
    },
  };
}

/** The names of the MANIFEST's live files found under the base URL, steps 2 to 4 of the head. */
async function liveFileNames(
  heap: WasmHeap,
  manifest: string,
  bytes: Uint8Array,
  format: LibraryFormat,
  exists: (name: string) => Promise<boolean>,
): Promise<string[]> {
  const state = heap.module.readManifest(heap.put(bytes), bytes.length, format, new Set()) as ManifestState;
  if (state === null) throw heap.lastError(manifest);
  const manifestNumber = parseDatabaseFileName(manifest)?.number ?? 0n;
  const taken = new Set<bigint>([manifestNumber]);
  // Each probe: the names a file may have, the first one there.
  const probes: string[][] = [];
  for (const family of state.columnFamilies) {
    for (const file of family.levels.flatMap((l) => l.files)) {
      taken.add(file.number);
      probes.push(tableFileNames(file.number, format));
    }
    for (const blob of family.blobFiles) {
      taken.add(blob.number);
      probes.push([blobFileName(blob.number)]);
    }
  }
  const oldestWal = oldestLiveWal(state);
  if (oldestWal !== null) checkProbeSpan(oldestWal, state.nextFileNumber, "WALs");
  for (let n = oldestWal ?? state.nextFileNumber; n < state.nextFileNumber; n++) {
    if (!taken.has(n)) probes.push([walFileName(n)]);
  }
  const firstThere = async (candidates: readonly string[]): Promise<string | null> => {
    for (const name of candidates) if (await exists(name)) return name;
    return null;
  };
  const [found, afterBound] = await Promise.all([
    probeAll(probes, firstThere),
    filesAfterBound(state.nextFileNumber, format, exists),
  ]);
  const options =
    afterBound.some((name) => parseDatabaseFileName(name)?.kind === "options") || format !== "rocksdb"
      ? null
      : await newestOptionsBelow(state.nextFileNumber, manifestNumber, taken, exists);
  return [...found, ...afterBound, options].filter((name): name is string => name !== null);
}

// Numbers in a row without a file that end the probes past the MANIFEST's bound: an OPTIONS
// file's temporary number, and room for one more left unused.
const AFTER_BOUND_GAP = 3;

/** The WALs and OPTIONS files numbered from `bound` upwards (step 4 of the head). */
async function filesAfterBound(
  bound: bigint,
  format: LibraryFormat,
  exists: (name: string) => Promise<boolean>,
): Promise<string[]> {
  const out: string[] = [];
  for (let n = bound, gap = 0; gap < AFTER_BOUND_GAP; n++) {
    const names = format === "rocksdb" ? [walFileName(n), optionsFileName(n)] : [walFileName(n)];
    const answers = await Promise.all(names.map(exists));
    out.push(...names.filter((_, i) => answers[i]));
    gap = answers.includes(true) ? 0 : gap + 1;
  }
  return out;
}

/** The newest OPTIONS file numbered below `bound` and above the MANIFEST's number (step 5). */
async function newestOptionsBelow(
  bound: bigint,
  manifestNumber: bigint,
  taken: ReadonlySet<bigint>,
  exists: (name: string) => Promise<boolean>,
): Promise<string | null> {
  checkProbeSpan(manifestNumber, bound, "OPTIONS file");
  const numbers: bigint[] = [];
  for (let n = bound - 1n; n > manifestNumber; n--) if (!taken.has(n)) numbers.push(n);
  for (let i = 0; i < numbers.length; i += PROBES_AT_ONCE) {
    const names = numbers.slice(i, i + PROBES_AT_ONCE).map(optionsFileName);
    const answers = await Promise.all(names.map(exists));
    const newest = names.find((_, j) => answers[j]);
    if (newest !== undefined) return newest;
  }
  return null;
}
