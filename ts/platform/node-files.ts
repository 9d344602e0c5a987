// Node only: tables opened by path. Imported by the Node entries (node.ts, node-cjs.ts) and never
// by the browser entry, so browser bundles carry no node:fs.
import { readdir, readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import * as path from "node:path";

import { SstFilter } from "../api/api.js";
import type { Database } from "../api/db.js";
import type { DatabaseSource, OpenDatabaseOptions } from "../api/db-types.js";
import type { DatabaseVerifyOptions, DatabaseVerifyReport } from "../api/db-verify.js";
import { SstFilterError } from "../core/errors.js";
import type { IndexedDbDatabase, ReadIndexedDbOptions } from "../api/indexeddb.js";
import { openTableFrom, type AsyncTable } from "../api/table.js";
import type { OpenTableOptions } from "../api/table-types.js";
import { openFileSource } from "./node-file-source.js";
import { compiledCore } from "./node-wasm.js";
import { VerifyWorker, type VerifyWorkerSetup } from "./verify-parallel.js";

/** The library as the Node entries return it: SstFilter plus file access. */
export class NodeSstFilter extends SstFilter {
  /**
   * @internal Where the worker script of parallel verification lies (dist/esm/platform/verify-worker.js);
   * each Node entry sets it, the CommonJS one to the ES module build's.
   */
  static verifyWorker: URL | string | null = null;

  /**
   * @internal What parallel verification's workers run: verifyWorker on this module's compiled
   * core (null before an entry set verifyWorker, or for a core this thread did not compile).
   */
  verifyWorkerSetup(): VerifyWorkerSetup | null {
    const script = NodeSstFilter.verifyWorker;
    const core = compiledCore(this.backend === "wasm-simd128" ? "simd" : "scalar");
    return script === null || core === null ? null : { script, core };
  }

  /** Opens the database in directory `dir` (or, as in browsers, from Files or a DatabaseSource). */
  override async openDatabase(
    dir: string | DatabaseSource | Iterable<Blob & { name: string }>,
    opts: OpenDatabaseOptions = {},
  ): Promise<Database> {
    return super.openDatabase(typeof dir === "string" ? await directorySource(dir, this) : dir, opts);
  }

  /** db.verify of the database in directory `dir` (or Files, a DatabaseSource): see SstFilter.verifyDatabase. */
  override async verifyDatabase(
    dir: string | DatabaseSource | Iterable<Blob & { name: string }>,
    opts: DatabaseVerifyOptions & OpenDatabaseOptions = {},
  ): Promise<DatabaseVerifyReport> {
    return super.verifyDatabase(typeof dir === "string" ? await directorySource(dir, this) : dir, opts);
  }

  /**
   * See SstFilter.readIndexedDb; `blobDir` is the blob folder's path (`<origin>.indexeddb.blob`,
   * beside the `.leveldb` folder), to read blob-wrapped values from.
   */
  override readIndexedDb(
    db: Database,
    opts: ReadIndexedDbOptions & { blobDir?: string } = {},
  ): Promise<IndexedDbDatabase[]> {
    const { blobDir, ...rest } = opts;
    if (blobDir === undefined) return super.readIndexedDb(db, rest);
    if (typeof blobDir !== "string") {
      return Promise.reject(new SstFilterError("BAD_OPTIONS", "blobDir must be a directory path"));
    }
    const blobs = {
      read: async (relative: string) =>
        new Uint8Array(await readFile(path.join(blobDir, ...relative.split("/")))),
    };
    return super.readIndexedDb(db, { ...rest, blobs });
  }

  /**
   * Opens a table file lazily: only footer, metaindex, properties, index and filter are read now,
   * data blocks when keys() walks them. The file stays open until the table is disposed.
   */
  async openTableFile(path: string, opts: OpenTableOptions = {}): Promise<AsyncTable> {
    if (typeof path !== "string") {
      throw new SstFilterError("BAD_OPTIONS", `openTableFile takes a path string, got ${typeof path}`);
    }
    const { source, close } = await openFileSource(path);
    return openTableFrom(this.heap, source, opts, close);
  }
}

/**
 * The files of database directory `dir`, read and opened by path, with worker_threads for db.verify
 * (one per further core) where `sf` can start them (NodeSstFilter.verifyWorkerSetup).
 */
async function directorySource(dir: string, sf: NodeSstFilter): Promise<DatabaseSource> {
  const entries = await readdir(dir, { withFileTypes: true });
  const source: DatabaseSource = {
    names: entries.filter((e) => e.isFile()).map((e) => e.name),
    async read(name) {
      return new Uint8Array(await readFile(path.join(dir, name)));
    },
    open: (name) => openFileSource(path.join(dir, name)),
  };
  const worker = sf.verifyWorkerSetup();
  if (worker !== null) {
    // db.verify: whole tables on worker_threads, one per further core, each kept for several.
    source.threads = {
      count: availableParallelism() - 1,
      start() {
        const thread = new VerifyWorker(worker);
        return {
          verify: (name, onProgress, signal, manifestComparator) =>
            thread.verify(
              {
                file: path.join(dir, name),
                internalKeys: true,
                ...(manifestComparator !== undefined ? { manifestComparator } : {}),
                from: 0,
                to: Number.MAX_SAFE_INTEGER,
                maxReported: 10,
                metaBlocks: true,
              },
              onProgress,
              signal,
            ),
          close: () => thread.close(),
        };
      },
    };
  }
  return source;
}
