// meshscope-cli export and convert: glTF / OBJ export and FileMesh version conversion through
// core (meshscope/core/export.h). Warnings (what was dropped or repaired) go to stderr, one per
// line; the summary goes to stdout.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace meshscope::cli {

// `export --to glb|gltf|obj [--lod N] FILE OUT`; `args` follow the word "export".
// Exit status as cli::run: 0, 1 (file unreadable or nothing exported), 2 (usage, or OUT would
// overwrite FILE).
int runExport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `convert --to VERSION FILE OUT` with VERSION one of 2.00 3.00 3.01 4.00 4.01 5.00 6.00 7.00;
// `args` follow the word "convert". Exit status as runExport.
int runConvert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace meshscope::cli
