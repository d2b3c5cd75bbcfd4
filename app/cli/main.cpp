// meshscope-cli entry point: forwards to cli::run, after starting itself again with huge pages
// for the heap when the command builds large geometry (see startWithHugePages).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iostream>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli_commands.h"
#include "huge_pages.h"

namespace {

// Inputs from this size on get huge pages (below it the heap a command takes is a few MiB, and
// starting again would cost more than the page faults it saves).
constexpr off_t kHugePagesFrom = 4 << 20;

// export, convert and pose build the geometry and write it out or pose it: on a 1M-triangle
// FileMesh (32 MB) `export --to glb` took 63 000 page faults and 1.6-1.9 s, with huge pages
// 1 000 and 0.13-0.36 s on the development VM. info, tree and map leave a mesh's arrays in the
// file and take their memory in small steps: they start as they are. True when this process
// should start again with huge pages: such a command and an input of kHugePagesFrom or more.
bool wantsHugePages(int argc, char** argv) {
    int command = 1;
    while (command < argc && argv[command][0] == '-') ++command;
    if (command >= argc) return false;
    const char* c = argv[command];
    if (std::strcmp(c, "export") != 0 && std::strcmp(c, "convert") != 0 &&
        std::strcmp(c, "pose") != 0)
        return false;
    off_t largest = 0;
    for (int i = command + 1; i < argc; ++i) {
        struct stat st;
        if (argv[i][0] != '-' && stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
            largest = std::max(largest, st.st_size);
    }
    return largest >= kHugePagesFrom;
}

void startWithHugePages(int argc, char** argv) {
    if (!wantsHugePages(argc, argv) || !meshscope::launch::addHugePageTunable()) return;
    execv("/proc/self/exe", argv);
    meshscope::launch::restoreTunables();  // no exec (no /proc): go on without
}

}  // namespace

int main(int argc, char** argv) {
    startWithHugePages(argc, argv);
    meshscope::launch::restoreTunables();
#if defined(__GLIBC__)
    // A short-lived process: blocks up to 64 MiB come from the heap, where a freed one is reused
    // by the next, instead of each its own mapping that is handed back when freed and faulted in
    // again page by page for the next (a place's terrain buffers; Binary.rbxl: 2 299 -> 2 104
    // page faults). Larger blocks are still mapped and returned.
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
#endif
    std::ios::sync_with_stdio(false);
    meshscope::cli::setExitAfterRun(true);
    return meshscope::cli::run({argv + 1, argv + argc}, std::cout, std::cerr);
}
