// The tags of VersionEdit records (docs/FORMATS.md 6.2), shared by the decoder (version_edit.cc)
// and the encoder (manifest_writer.cc).
#pragma once

#include <cstdint>

namespace sstfilter::version_edit {

// Tags (rocksdb db/version_edit.h Tag; LevelDB's are the first ten).
enum Tag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactCursor = 5,  // LevelDB's compaction pointer
  kDeletedFile = 6,
  kNewFile = 7,
  // 8: large value references, long gone from both
  kPrevLogNumber = 9,
  kMinLogNumberToKeep = 10,
  kNewFile2 = 100,
  kNewFile3 = 102,
  kNewFile4 = 103,
  kColumnFamily = 200,
  kColumnFamilyAdd = 201,
  kColumnFamilyDrop = 202,
  kMaxColumnFamily = 203,
  kInAtomicGroup = 300,
  kBlobFileAddition = 400,
  kBlobFileGarbage = 401,
  kTagSafeIgnoreMask = 1 << 13,
  kDbId = kTagSafeIgnoreMask + 1,
  kBlobFileAdditionDeprecated,
  kBlobFileGarbageDeprecated,
  kWalAddition,
  kWalDeletion,
  kFullHistoryTsLow,
  kWalAddition2,
  kWalDeletion2,
  kPersistUserDefinedTimestamps,
  kSubcompactionProgress,
  kLastCompactedManifestFileSize,
};

// kNewFile4's custom fields (rocksdb db/version_edit.h NewFileCustomTag).
enum NewFileCustomTag : uint32_t {
  kTerminate = 1,
  kNeedCompaction = 2,
  kMinLogNumberToKeepHack = 3,
  kOldestBlobFileNumber = 4,
  kOldestAncesterTime = 5,
  kFileCreationTime = 6,
  kFileChecksum = 7,
  kFileChecksumFuncName = 8,
  kTemperature = 9,
  kMinTimestamp = 10,
  kMaxTimestamp = 11,
  kUniqueId = 12,
  kEpochNumber = 13,
  kCompensatedRangeDeletionSize = 14,
  kTailSize = 15,
  kUserDefinedTimestampsPersisted = 16,
  kFileOpenMetadata = 17,
  kCustomTagNonSafeIgnoreMask = 1 << 6,
  kPathId = kCustomTagNonSafeIgnoreMask + 1,
};

}  // namespace sstfilter::version_edit
