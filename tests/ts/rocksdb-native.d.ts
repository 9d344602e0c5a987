// The part of rocksdb-native (which ships no types) that peers.test.ts uses.
declare module "rocksdb-native" {
  interface WriteBatch {
    put(key: Uint8Array, value: Uint8Array): void;
    flush(): Promise<void>;
  }
  class BloomFilterPolicy {
    constructor(bitsPerKey: number);
  }
  class RibbonFilterPolicy {
    constructor(bloomEquivalentBitsPerKey: number, bloomBeforeLevel?: number);
  }
  interface RocksDBOptions {
    enableStatistics?: boolean;
    tableFormatVersion?: number;
    tableBlockSize?: number;
    filterPolicy?: BloomFilterPolicy | RibbonFilterPolicy | null;
  }
  class RocksDB {
    static BloomFilterPolicy: typeof BloomFilterPolicy;
    static RibbonFilterPolicy: typeof RibbonFilterPolicy;
    constructor(path: string, options?: RocksDBOptions);
    ready(): Promise<void>;
    get(key: Uint8Array): Promise<Buffer | null>;
    write(options?: { autoDestroy?: boolean }): WriteBatch;
    flush(): Promise<void>;
    getProperty(name: string): Promise<unknown>;
    close(): Promise<void>;
  }
  export = RocksDB;
}
