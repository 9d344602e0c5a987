// Section "db_live_files": what `ldb list_live_files_metadata` (Debian's rocksdb-tools 7.8.3)
// prints for the databases of section db_get, which must have been written first: per column
// family, each level's live table files, then the live blob files. ldb runs on a copy (it opens
// the database and may write to the folder), from the scratch folder with --db=db, so every path
// it prints starts with "db/".
#include <cstdlib>

#include "library_status.h"
#include "sections.h"

namespace corpus {

nlohmann::json DbLiveFilesSection(const CorpusRoot& root) {
  namespace fs = std::filesystem;
  const fs::path scratch = fs::absolute(root.Scratch("db_live_files"));
  const nlohmann::json get = nlohmann::json::parse(ReadFile(root.Abs("db-get/manifest.json")));
  nlohmann::json cases = nlohmann::json::array();
  for (const nlohmann::json& c : get["cases"]) {
    const std::string id = c["id"];
    const fs::path work = scratch / id;
    fs::create_directories(work);
    fs::copy(root.Abs(c["dir"]), work / "db", fs::copy_options::recursive);
    const fs::path out = work / "ldb.out";
    const std::string command = "cd " + work.string() +
                                " && ldb --db=db list_live_files_metadata >" + out.string() +
                                " 2>&1";
    if (std::system(command.c_str()) != 0) Fail("failed: " + command);
    const std::string text = "db-live-files/" + id + ".txt";
    root.CopyFile(text, out);
    cases.push_back({{"id", id}, {"dir", c["dir"]}, {"ldb_db", "db"}, {"text", text}});
  }
  return root.FinishSection("db-live-files", "db_live_files", cases);
}

}  // namespace corpus
