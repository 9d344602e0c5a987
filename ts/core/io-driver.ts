// The I/O driver: runs an operation of the core's resumable protocol (wasm/table_bindings.cc) to
// its end. The core says which file range it needs next (advance, needOffset, needLength, and the
// range it will want after it, needAheadLength); the driver copies those bytes into the buffer the
// core provides (supplyBuffer) and says how many it gave (supplied), from bytes in memory
// (runSync) or from a ByteSource (runAsync, which reads the announced range ahead while the core
// works). Checksums and decompression are the core's.
import type { IoHandle } from "./core-module.js";
import type { ByteSource } from "./byte-sources.js";
import { throwComparatorFault } from "./comparator-faults.js";
import { SstFilterError } from "./errors.js";
import type { WasmHeap } from "./heap.js";

/** A read the core asks for, and the length of the one it expects next (from its end on; 0: none). */
type ReadRange = { offset: number; length: number; ahead: number };

/** Advances `op` until it needs file bytes (their range) or nothing (null). */
function pump(heap: WasmHeap, op: IoHandle): ReadRange | null {
  const need = op.advance();
  throwComparatorFault();
  const needs = heap.constants.ioNeeds;
  if (need === needs.nothing) return null;
  if (need === needs.bytes) {
    return { offset: op.needOffset(), length: op.needLength(), ahead: op.needAheadLength() };
  }
  throw heap.lastError();
}

/** @internal Runs `op` to its end, reading what it needs from `bytes`, the whole file. */
export function runSync(heap: WasmHeap, op: IoHandle, bytes: Uint8Array): void {
  for (let r = pump(heap, op); r !== null; r = pump(heap, op)) {
    // Shorter than asked where the file is: supplied() reports the short read.
    const piece = bytes.subarray(r.offset, r.offset + r.length);
    const ptr = op.supplyBuffer() >>> 0;
    heap.bytes.set(piece, ptr); // heap.bytes after supplyBuffer(), which may have grown the memory
    if (!op.supplied(piece.length)) throw heap.lastError();
  }
}

// Ranges above this are read from a source piece by piece, each piece copied into the core's buffer
// as it arrives: a large filter never sits in JavaScript memory besides the core's copy. The core's
// largest read-ahead (kMaxReadahead, cpp/table/block_fetcher.h) fits one piece; larger pieces only
// cost memory (each of an operation's two buffers is this size).
const READ_PIECE_BYTES = 1 << 20;

// The buffers sources with readInto read into, one per read in flight: a read holds its buffer from
// the moment it starts until its bytes are copied into the core's buffer, then hands it back here
// for the next read of any operation. A buffer per operation instead (two, with the read ahead) made
// a walk over many tables allocate 2 MiB off the JavaScript heap per table, and V8 answered that
// external memory with a full collection every few tables: a third of a walk's CPU time on the
// 16 tables of bench/db-get-bench.mjs --walks. A fresh buffer's untouched pages cost no memory.
const spareBuffers: Uint8Array[] = [];
// Enough for two walks, each with a read and a read ahead in flight; a spare beyond is dropped.
const SPARE_BUFFERS = 4;

/** Bytes read from a source, in `buffer` (a spare to hand back once they are copied) with readInto. */
interface Piece {
  bytes: Uint8Array;
  buffer: Uint8Array | null;
}

/** Hands `piece`'s buffer back for the next read: its bytes are no longer needed. */
function handBack(piece: Piece): void {
  if (piece.buffer !== null && spareBuffers.length < SPARE_BUFFERS) spareBuffers.push(piece.buffer);
}

/** Copies `piece` (or its first `length` bytes) to the core's memory at `ptr`, then hands it back. */
function copyPiece(heap: WasmHeap, piece: Piece, ptr: number, length = piece.bytes.length): void {
  heap.bytes.set(length < piece.bytes.length ? piece.bytes.subarray(0, length) : piece.bytes, ptr);
  handBack(piece);
}

/** Up to `length` bytes of `source` at `offset` (fewer at its end). */
async function readPiece(source: ByteSource, offset: number, length: number): Promise<Piece> {
  if (source.readInto === undefined) {
    const bytes = await source.read(offset, length);
    if (!(bytes instanceof Uint8Array)) {
      throw new SstFilterError("BAD_OPTIONS", "ByteSource.read must resolve to a Uint8Array", offset);
    }
    return { bytes: bytes.length > length ? bytes.subarray(0, length) : bytes, buffer: null };
  }
  // A read that fails keeps its buffer: the source may still be writing into it.
  const buffer = spareBuffers.pop() ?? new Uint8Array(READ_PIECE_BYTES);
  const read = await source.readInto(buffer.subarray(0, length), offset);
  if (!Number.isSafeInteger(read) || read < 0 || read > length) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `ByteSource.readInto must resolve to the number of bytes read (0 to ${length}), got ${read}`,
      offset,
    );
  }
  return { bytes: buffer.subarray(0, read), buffer };
}

/**
 * A read started before the core asked for it: the one its previous read announced, of `source`
 * (an operation that reads several files, a database's Get, moves from one source to the next).
 */
interface ReadAhead {
  source: ByteSource;
  offset: number;
  piece: Promise<Piece>;
}
const readAheads = new WeakMap<IoHandle, ReadAhead>();

/** Copies what the read ahead brought for `r` to `ptr`: the bytes copied (0 if it read elsewhere). */
async function takeReadAhead(
  heap: WasmHeap,
  op: IoHandle,
  source: ByteSource,
  ptr: number,
  r: ReadRange,
): Promise<number> {
  const ahead = readAheads.get(op);
  if (ahead === undefined) return 0;
  readAheads.delete(op);
  if (ahead.source !== source || ahead.offset !== r.offset) {
    // Not what the core wants after all: dropped once read, its buffer handed back unused.
    const unused = await ahead.piece.catch(() => null);
    if (unused !== null) handBack(unused);
    return 0;
  }
  const piece = await ahead.piece;
  const n = Math.min(piece.bytes.length, r.length);
  copyPiece(heap, piece, ptr, n);
  return n;
}

/**
 * Reads `r` from `source` into the core's buffer at `ptr` (the bytes read), then starts reading the
 * range it announced, which runs while the core works on this one.
 */
async function readInto(
  heap: WasmHeap,
  op: IoHandle,
  source: ByteSource,
  ptr: number,
  r: ReadRange,
): Promise<number> {
  let got = await takeReadAhead(heap, op, source, ptr, r);
  if (r.length - got > READ_PIECE_BYTES) source.expect?.(r.offset + got, r.length - got);
  while (got < r.length) {
    const want = Math.min(READ_PIECE_BYTES, r.length - got);
    const piece = await readPiece(source, r.offset + got, want);
    // heap.bytes afresh after every await (copyPiece): memory may have grown; the buffer at ptr stays.
    copyPiece(heap, piece, ptr + got);
    got += piece.bytes.length;
    if (piece.bytes.length < want) break; // a short read: supplied() reports it
  }
  if (got === r.length && r.ahead > 0 && r.ahead <= READ_PIECE_BYTES) {
    const offset = r.offset + r.length;
    const piece = readPiece(source, offset, r.ahead);
    piece.catch(() => undefined); // its error counts only if the core asks for these bytes
    readAheads.set(op, { source, offset, piece });
  }
  return got;
}

/** @internal Runs `op` to its end, reading what it needs from `source` (ts/api/db-get.ts drives a Get so). */
export async function runAsync(heap: WasmHeap, op: IoHandle, source: ByteSource): Promise<void> {
  for (let r = pump(heap, op); r !== null; r = pump(heap, op)) {
    // The buffer stays where it is while the pieces arrive: nothing else runs on this operation.
    const ptr = op.supplyBuffer() >>> 0;
    const got = await readInto(heap, op, source, ptr, r);
    if (!op.supplied(got)) throw heap.lastError();
  }
}
