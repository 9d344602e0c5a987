// The whole databases of tests/corpus/fixtures/v11-db/ (databases.cc): RocksDB 11.8.1's WALs with
// predecessor records and its MANIFESTs with the newer tags, and its answer per Get.
#pragma once

#include <filesystem>

// Writes the databases, their probes and manifest.json into `out_dir`, working in `scratch`.
void WriteDatabases(const std::filesystem::path& out_dir, const std::filesystem::path& scratch);
