// What every entry point (Node ESM, Node CommonJS, browsers) exports besides its own `init`.
export { SstFilter } from "./api.js";
export type {
  Backend,
  BuildManyOptions,
  BuildOptions,
  FilterFormat,
  KernelFamily,
  KernelInfo,
  LevelDbDataBlock,
  OpenFilterOptions,
} from "./api.js";
export { SstFilterError } from "../core/errors.js";
export type { SstFilterErrorCode } from "../core/errors.js";
export type { LibraryFormat } from "../core/library-format.js";
export { Filter, LevelDbFilterBlock } from "./filters.js";
export type { FilterDetails, FilterKind } from "./filters.js";
export { bitDensity, estimateFalsePositiveRate } from "./filter-stats.js";
// verifyTableSplit and defaultVerifyJobs: what `sstfilter verify --jobs` and the viewer's Web Workers
// build on to share a table's data blocks between threads of their own.
export { defaultVerifyJobs, verifyTable, verifyTableSplit } from "./table-verify.js";
export { sampleAbsentKeys, summarizeTableFilter } from "./filter-report.js";
export { drawAbsentKeys } from "./absent-keys.js";
export type { FilterPart, FilterSummary, SummarizeOptions } from "./filter-report.js";
export {
  ADVICE_POLICIES,
  adviceSeries,
  adviseFilterSizes,
  filterAdvice,
  wholeKeyAndPrefixKeys,
} from "./filter-advice.js";
export type {
  FilterAdvice,
  FilterAdviceOptions,
  FilterAdviceRow,
  FilterAdviceSet,
  KeySetOptions,
} from "./filter-advice.js";
export type {
  FalseNegative,
  RangeVerifyThread,
  SplitVerifyOptions,
  VerifyOptions,
  VerifyProgress,
  VerifyReport,
} from "./table-verify.js";
export { BLOOM_HASH_SEED } from "./hash.js";
export type { Hashes } from "./hash.js";
export type { Key, KeyBatch } from "../core/keys.js";
export { simd128Supported } from "./init.js";
export { AsyncTable, Table } from "./table.js";
export { VOLATILE_PROPERTIES } from "./table-diff.js";
export type { MergedDiff } from "./merged-diff.js";
export type {
  ColumnFamiliesDiff,
  ColumnFamilyDiff,
  DatabaseDiff,
  DatabaseDiffIgnore,
  DatabaseDiffProgress,
  DiffDatabasesOptions,
  LiveFile,
  LiveFileChange,
  LiveFilesDiff,
  RecordChange,
  RecordsDiff,
} from "./database-diff.js";
export type {
  DiffBlock,
  DiffIgnore,
  DiffProgress,
  DiffTablesOptions,
  DiffValue,
  EntriesDiff,
  EntryChange,
  FieldDifference,
  PhysicalDiff,
  PropertyChange,
  RangeDeletionChange,
  RangeDeletionsDiff,
  TableDiff,
} from "./table-diff.js";
export { TableWriter } from "./table-writer.js";
export type { NodeWritableLike, TableSink, WriteOptions } from "./table-writer.js";
export { compareBytes } from "./entries.js";
export type { Comparator, ComparatorOption, CompareFunction } from "./comparators.js";
export type { Entry, EntryOptions, EntryType, RangeDeletion } from "./entries.js";
export type { TableRegion, TableRegionKind } from "./layout.js";
export type { ByteSource } from "../core/byte-sources.js";
export { httpSource } from "./http-source.js";
export type { HttpFetch, HttpSource, HttpSourceOptions, HttpSourceStats } from "./http-source.js";
export type { HttpDatabaseOptions, HttpDatabaseSource } from "./http-database-source.js";
export type {
  DataBlockKeys,
  TableKeyBatch,
  BlockRange,
  FilterCheckBatch,
  LookupExplanation,
  LookupRoute,
  OpenTableOptions,
  ScanTextOptions,
  TableFilterInfo,
  TableFooter,
  TableFormat,
  TableKeyOrder,
  TablePropertyValue,
  TableReadOptions,
} from "./table-types.js";
export type { BlobIndex, EmbeddedBlobStats, WideColumn } from "./values.js";
export { Database } from "./db.js";
export { detectDatabaseFormat } from "./db-source.js";
export { parseDatabaseFileName } from "./db-file-names.js";
export type { DatabaseFileName, DatabaseFileNameKind } from "./db-file-names.js";
export type { DatabaseRecord, DatabaseScanOptions } from "./db-scan.js";
export { BUILTIN_DECODERS } from "./decoders.js";
export type {
  DecodedRecord,
  DecodedRecordsOptions,
  DecoderOption,
  LocalStorageOrigin,
  RecordDecoder,
  SessionStorageArea,
  StoreKind,
} from "./decoders.js";
export { blobPath, compareIdbKeys } from "./indexeddb.js";
export type {
  BlobFolder,
  IndexedDbDatabase,
  IndexedDbIndex,
  IndexedDbIndexEntry,
  IndexedDbObjectStore,
  IndexedDbRecord,
  ReadIndexedDbOptions,
  TaggedJson,
} from "./indexeddb.js";
export type {
  ColumnFamily,
  DatabaseBlobFile,
  DatabaseFile,
  DatabaseFormat,
  DatabaseLevel,
  DatabaseSource,
  ManifestEnd,
  WalRecoverySettings,
  OpenedFile,
  OpenDatabaseOptions,
} from "./db-types.js";
export type {
  ReadWriteAheadLogOptions,
  WalBatch,
  WalDrop,
  WalEnd,
  WalFile,
  WalMarker,
  WalMarkerKind,
  WalPredecessor,
  WalRecord,
  WalRecordKind,
} from "./wal.js";
export type { ColumnFamilyOptionsSection, DatabaseOptions } from "./options-file.js";
export type { DatabaseTableOptions } from "./db-table-options.js";
export type {
  DatabaseFileKind,
  DatabaseFileReport,
  DatabaseVerifyOptions,
  DatabaseVerifyProgress,
  DatabaseVerifyReport,
  LogEndReport,
  RecoveryReport,
} from "./db-verify.js";
export type { TableVerifyThread, TableVerifyThreads } from "./db-types.js";
export type { InitOptions } from "./init.js";
export type { DatabaseGetOptions, GetExplanation, GetOutcome, GetResult, RouteStep } from "./db-get.js";
export type {
  MemtableLog,
  PreparedTransaction,
  RecoveredLog,
  ReplayStop,
  WalRecovery,
  WalRecoveryMode,
} from "./wal-recovery.js";
