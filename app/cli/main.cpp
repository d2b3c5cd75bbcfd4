// meshscope-cli entry point: forwards to cli::run.
#include <iostream>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli_commands.h"

int main(int argc, char** argv) {
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
