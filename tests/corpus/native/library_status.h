// Status checks for the libraries the generator drives: a call that fails fails the whole run.
#pragma once

#include <leveldb/status.h>
#include <rocksdb/status.h>

#include <string>

#include "corpus_io.h"

namespace corpus {

inline void Check(const rocksdb::Status& s, const std::string& what) {
  if (!s.ok()) Fail(what + ": " + s.ToString());
}

inline void Check(const leveldb::Status& s, const std::string& what) {
  if (!s.ok()) Fail(what + ": " + s.ToString());
}

}  // namespace corpus
