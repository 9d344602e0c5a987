// Table files: LevelDB .ldb and RocksDB block-based .sst (docs/FORMATS.md 3), read without doing
// I/O, each concept in its header: table_io.h (the resumable-read protocol and block handles),
// table_reader.h (opening a table, its filter's answers, reading one block), table_cursor.h
// (walking its entries, range deletions), table_layout.h (what each byte range holds). This header
// includes them all.
#pragma once

#include "sstfilter/table_cursor.h"
#include "sstfilter/table_io.h"
#include "sstfilter/table_layout.h"
#include "sstfilter/table_reader.h"
