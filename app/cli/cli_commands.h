// meshscope-cli commands, callable in-process (the tests do) as well as from main().
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace meshscope::cli {

// Exit status: 0 success, 1 the file could not be read or decoded, 2 usage error.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// For main() only, whose process ends right after run(): info, map and tree leave the decoded
// asset to the exit, which hands the process's memory back at once, instead of freeing it block
// by block (a place's thousands of columns). It stays reachable (LeakSanitizer reports nothing).
// Tests, which call run() again and again, leave it off.
void setExitAfterRun(bool on);

}  // namespace meshscope::cli
