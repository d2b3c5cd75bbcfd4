// Transparent huge pages for the large arrays a decoder is about to fill: a 1M-triangle mesh
// writes about 30 MB of vertex and index arrays, which otherwise come in as 7 500 separate 4 KiB
// page faults (each a trip into the kernel that allocates, charges and clears one page: about
// half the CPU time of `meshscope-cli info` on such a file). Advised memory faults in 2 MiB at a
// time where the kernel allows it (Linux, transparent_hugepage "madvise" or "always").
#pragma once

#include <cstddef>
#include <vector>

namespace meshscope {

// Advises the whole 2 MiB-aligned pages inside [p, p + bytes) for huge pages, when the block is
// large enough to hold one (smaller blocks and other systems: nothing happens). Only a hint: the
// memory reads and writes as before, whatever the kernel decides.
void adviseHugePages(const void* p, std::size_t bytes);

// The same for a vector's reserved storage (call it after reserve(), before the writes).
template <typename T, typename A>
void adviseHugePages(const std::vector<T, A>& v) {
    adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace meshscope
