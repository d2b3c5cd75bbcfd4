// meshscope-cli commands, callable in-process (the tests do) as well as from main().
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace meshscope::cli {

// Exit status: 0 success, 1 the file could not be read or decoded, 2 usage error.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace meshscope::cli
