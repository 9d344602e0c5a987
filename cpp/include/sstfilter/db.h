// Whole databases' files, each format in its header: db_format.h (which library wrote them), log.h
// (the log record format, 6.1), manifest.h (VersionEdits, the MANIFEST's state, CURRENT: 6.2, 6.3),
// write_batch.h (write batches and write-ahead logs, 6.4), blob_file.h (6.7). This header includes
// them all. Nothing here touches a file system: everything reads bytes the caller holds.
#pragma once

#include "sstfilter/blob_file.h"
#include "sstfilter/db_format.h"
#include "sstfilter/log.h"
#include "sstfilter/manifest.h"
#include "sstfilter/write_batch.h"
