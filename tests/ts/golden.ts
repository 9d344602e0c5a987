// Reading the shared golden corpus (../shared/golden, format in its README.md).
import { readFileSync, existsSync } from "node:fs";
import * as path from "node:path";

export const GOLDEN_DIR = path.resolve(
  process.env.SSTFILTER_GOLDEN_DIR ?? path.join(__dirname, "..", "..", "..", "shared", "golden"),
);

if (!existsSync(path.join(GOLDEN_DIR, "manifest.json"))) {
  throw new Error(`golden corpus not found at ${GOLDEN_DIR} (set SSTFILTER_GOLDEN_DIR)`);
}

export function goldenPath(relative: string): string {
  return path.join(GOLDEN_DIR, relative);
}

export function readBytes(relative: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(goldenPath(relative)));
}

export function readJson<T>(relative: string): T {
  return JSON.parse(readFileSync(goldenPath(relative), "utf8")) as T;
}

/** A .keys file: u32 little-endian length, then that many bytes, repeated. */
export function readKeys(relative: string): Uint8Array[] {
  const data = readBytes(relative);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const keys: Uint8Array[] = [];
  for (let pos = 0; pos < data.length;) {
    const n = view.getUint32(pos, true);
    pos += 4;
    keys.push(data.subarray(pos, pos + n));
    pos += n;
  }
  return keys;
}

export function readU32s(relative: string): Uint32Array {
  const data = readBytes(relative);
  const out = new Uint32Array(data.length / 4);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(4 * i, true);
  return out;
}

export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** First index where two byte arrays differ, for failure messages. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

function varint(data: Uint8Array, at: { pos: number }): number {
  let result = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = data[at.pos++]!;
    result += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return result;
  }
}

/** Entries of an uncompressed table block (test oracle for golden files only). */
export function blockEntries(block: Uint8Array): { key: Uint8Array; value: Uint8Array }[] {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const restarts = view.getUint32(block.length - 4, true);
  const end = block.length - 4 * (restarts + 1);
  const entries: { key: Uint8Array; value: Uint8Array }[] = [];
  let key = new Uint8Array(0);
  for (const at = { pos: 0 }; at.pos < end;) {
    const shared = varint(block, at);
    const nonShared = varint(block, at);
    const valueSize = varint(block, at);
    const next = new Uint8Array(shared + nonShared);
    next.set(key.subarray(0, shared));
    next.set(block.subarray(at.pos, at.pos + nonShared), shared);
    key = next;
    at.pos += nonShared;
    entries.push({ key, value: block.subarray(at.pos, at.pos + valueSize) });
    at.pos += valueSize;
  }
  return entries;
}

/** A block handle: varint64 offset, varint64 size. */
export function blockHandle(value: Uint8Array): { offset: number; size: number } {
  const at = { pos: 0 };
  const offset = varint(value, at);
  return { offset, size: varint(value, at) };
}
