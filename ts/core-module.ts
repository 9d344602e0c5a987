// The shape of the Embind module built from wasm/bindings.cc. Only this package calls it.

export interface EmbindHandle {
  delete(): void;
  isDeleted(): boolean;
}

export interface FilterInfoRaw {
  kind: string;
  numProbes: number;
  dataBytes: number;
  blockBytes: number;
  ribbonSeed: number;
  ribbonBlocks: number;
}

export interface FilterHandle extends EmbindHandle {
  kind(): string;
  info(): FilterInfoRaw;
  checkProbeSupport(): boolean;
  mayMatch(key: number, size: number): boolean;
  mayMatchBatch(data: number, dataSize: number, offsets: number, count: number, out: number): boolean;
}

export interface FilterBlockHandle extends EmbindHandle {
  keyMayMatch(blockOffset: number, key: number, size: number): boolean;
  numFilters(): number;
}

export interface CoreModule {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(ptr: number): void;

  lastErrorCode(): string;
  lastErrorMessage(): string;
  lastErrorOffset(): number;
  liveHandles(): number;

  leveldbHash32(ptr: number, size: number, seed: number): number;
  rocksdbHash32(ptr: number, size: number, seed: number): number;
  xxph3Hash64(ptr: number, size: number, seed: bigint): bigint;
  xxh3Hash64(ptr: number, size: number, seed: bigint): bigint;
  xxh64(ptr: number, size: number, seed: bigint): bigint;
  xxh32(ptr: number, size: number, seed: number): number;
  crc32c(ptr: number, size: number): number;

  buildFilter(
    format: number,
    bitsPerKey: number,
    data: number,
    dataSize: number,
    offsets: number,
    count: number,
  ): Uint8Array | null;
  openFilter(family: number, ptr: number, size: number): FilterHandle;

  buildLevelDbFilterBlock(
    bitsPerKey: number,
    data: number,
    dataSize: number,
    offsets: number,
    count: number,
    blockOffsets: number,
    keyCounts: number,
    numBlocks: number,
  ): Uint8Array | null;
  openLevelDbFilterBlock(ptr: number, size: number): FilterBlockHandle;
}

/** What Emscripten's MODULARIZE factory accepts here (see INCOMING_MODULE_JS_API in CMakeLists). */
export interface ModuleOverrides {
  wasmBinary?: Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
}

export type CoreModuleFactory = (overrides: ModuleOverrides) => Promise<CoreModule>;
