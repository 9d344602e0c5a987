// `sstfilter db dump DIR [--decode indexeddb|localstorage|sessionstorage|auto|NAME] [--json]
// [--blob-dir DIR] [--values stored|read]`: a database's logical contents (db.scan(): each live
// key's newest version, in the database's order), one line per record. Raw by default (keys and values as text where
// printable, else hex); decoded through a record decoder (ts/api/decoders.ts): Chrome's IndexedDB
// as the page reads it (database, object store, key, value), localStorage (origin, key, value),
// sessionStorage (namespace, origin, key, value), or a decoder registered from TypeScript (key,
// record). Text lines escape what a terminal cannot show; --json gives one JSON object per line.
import type { SstFilter } from "../api/api.js";
import type { Database } from "../api/db.js";
import { BUILTIN_DECODERS } from "../api/decoders.js";
import type { BlobFolder } from "../api/indexeddb.js";
import { bytesJson, printableText, recordJson, toHex } from "./format.js";

/** The options of `sstfilter db dump`. */
export interface DbDumpOptions {
  /** A decoder's name, "auto" (detectStore: a Chrome store's decoder, else raw) or null (raw). */
  decode: string | null;
  json: boolean;
  /** IndexedDB: the blob folder, to read blob-wrapped values from. */
  blobs?: BlobFolder;
  /** Raw and your own decoders: the column family to dump (default "default"). */
  columnFamily?: string;
  /** Raw: values as stored (the default) or as RocksDB's iterator reads them (db.scan's values). */
  values?: "stored" | "read";
}

/** Bytes for a text line: printable UTF-8 quoted, else 0x + hex. */
function textBytes(bytes: Uint8Array): string {
  const text = printableText(bytes);
  return text !== null ? JSON.stringify(text) : `0x${toHex(bytes)}`;
}

/**
 * JSON text made safe for a terminal: control, format, private-use, unassigned and separator
 * characters and lone surrogates as \u escapes (JSON.stringify leaves some of them as they are).
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/gu, (c) => {
    const units: string[] = [];
    for (let i = 0; i < c.length; i++) units.push(`\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`);
    return units.join("");
  });
}

const line = (json: boolean, object: Record<string, unknown>, text: string): string =>
  (json ? recordJson(object) : terminalSafe(text)) + "\n";

/** The decoder a dump uses: the one named, a Chrome store's for "auto", or none (raw). */
export async function dumpDecoder(
  sf: SstFilter,
  db: Database,
  decode: string | null,
): Promise<string | null> {
  if (decode === "auto") return sf.detectStore(db);
  if (decode !== null) sf.decoder(decode); // BAD_OPTIONS for an unknown name, before reading
  return decode;
}

/** The dump's lines (each ending in a newline), in the database's order. */
export async function* dbDumpLines(
  sf: SstFilter,
  db: Database,
  opts: DbDumpOptions,
): AsyncGenerator<string, void, undefined> {
  const { json } = opts;
  const scan = {
    ...(opts.columnFamily === undefined ? {} : { columnFamily: opts.columnFamily }),
    ...(opts.values === undefined ? {} : { values: opts.values }),
  };
  const decoder = await dumpDecoder(sf, db, opts.decode);
  if (decoder === null) {
    for await (const r of db.scan(scan)) {
      yield line(
        json,
        { key: bytesJson(r.key), sequence: r.sequence.toString(), type: r.type, value: bytesJson(r.value) },
        `${textBytes(r.key)} => ${textBytes(r.value)}${r.type === "put" ? "" : ` (${r.type})`}`,
      );
    }
    return;
  }
  if (decoder === "indexeddb") {
    const databases = await sf.readIndexedDb(db, opts.blobs === undefined ? {} : { blobs: opts.blobs });
    for (const d of databases) {
      for (const s of d.objectStores) {
        for (const r of s.records) {
          yield line(
            json,
            { database: d.name, objectStore: s.name, key: r.key, value: r.value },
            `${recordJson(d.name)} ${recordJson(s.name)} ${recordJson(r.key)} => ${recordJson(r.value)}`,
          );
        }
      }
    }
    return;
  }
  if (decoder === "localstorage") {
    for (const o of await sf.readLocalStorage(db)) {
      for (const item of o.items) {
        yield line(
          json,
          { origin: o.origin, key: item.key, value: item.value },
          `${o.origin} ${recordJson(item.key)} => ${recordJson(item.value)}`,
        );
      }
    }
    return;
  }
  if (decoder === "sessionstorage") {
    for (const area of await sf.readSessionStorage(db)) {
      for (const item of area.items) {
        yield line(
          json,
          { namespace: area.namespace, origin: area.origin, key: item.key, value: item.value },
          `${area.origin ?? `map ${area.mapId}`} ${recordJson(item.key)} => ${recordJson(item.value)}`,
        );
      }
    }
    return;
  }
  for await (const r of sf.decodedRecords(db, decoder, scan)) {
    yield line(
      json,
      { key: bytesJson(r.key), record: r.record },
      `${textBytes(r.key)} => ${recordJson(r.record)}`,
    );
  }
}

/** The names --decode takes, for the help and its error. */
export const DUMP_DECODE_NAMES = [...BUILTIN_DECODERS, "auto"];
