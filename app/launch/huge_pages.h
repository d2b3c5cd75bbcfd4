// Transparent huge pages for a program's heap, through glibc's malloc tunable
// glibc.malloc.hugetlb=1 (malloc then madvise(MADV_HUGEPAGE)s the memory it maps).
//
// Opening a large asset takes a few hundred megabytes of fresh heap; taken 4 KiB at a time, each
// page is a page fault, and on virtual machines a page fault is expensive (about 10 µs on the
// development VM: a 1M-triangle open-to-screenshot spent half of its CPU time in the kernel).
// Tunables are read once, when a process starts, so the setting has to be in the environment the
// program starts with: the viewer's launcher sets it and execs the viewer; meshscope-cli execs
// itself again for the commands that build large geometry. The started program calls
// restoreTunables() first, so that what it starts inherits the user's environment. A user's own
// glibc.malloc.hugetlb value is kept, and where the system has transparent huge pages off
// (/sys/kernel/mm/transparent_hugepage/enabled = never) nothing changes. See docs/performance.md.
//
// Header only and libc only: the launcher runs before any library of the viewer is loaded.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace meshscope::launch {

inline constexpr const char* kHugePageTunable = "glibc.malloc.hugetlb";
// Set by addHugePageTunable for restoreTunables: the marker, and the value before (absent when
// GLIBC_TUNABLES was unset).
inline constexpr const char* kMarkerVariable = "MESHSCOPE_LAUNCHER_TUNABLES";
inline constexpr const char* kPreviousVariable = "MESHSCOPE_PREVIOUS_GLIBC_TUNABLES";

// Adds glibc.malloc.hugetlb=1 to GLIBC_TUNABLES, after the user's other tunables, and records
// how to undo it. False, and nothing changed, when GLIBC_TUNABLES already names that tunable (the
// user's choice, or a program already started with it) or memory is short.
inline bool addHugePageTunable() {
    const char* previous = std::getenv("GLIBC_TUNABLES");
    if (previous && std::strstr(previous, kHugePageTunable)) return false;
    const bool join = previous && *previous;
    const std::size_t length =
        (join ? std::strlen(previous) + 1 : 0) + std::strlen(kHugePageTunable) + 3;
    char* tunables = static_cast<char*>(std::malloc(length));
    if (!tunables) return false;
    std::snprintf(tunables, length, "%s%s%s=1", join ? previous : "", join ? ":" : "",
                  kHugePageTunable);
    if (previous)
        setenv(kPreviousVariable, previous, 1);
    else
        unsetenv(kPreviousVariable);
    setenv(kMarkerVariable, "1", 1);
    setenv("GLIBC_TUNABLES", tunables, 1);
    std::free(tunables);
    return true;
}

// Undoes addHugePageTunable in the program it started (glibc has read the tunables by now):
// GLIBC_TUNABLES as it was, the markers gone. Nothing without the marker.
inline void restoreTunables() {
    if (!std::getenv(kMarkerVariable)) return;
    if (const char* previous = std::getenv(kPreviousVariable))
        setenv("GLIBC_TUNABLES", previous, 1);
    else
        unsetenv("GLIBC_TUNABLES");
    unsetenv(kPreviousVariable);
    unsetenv(kMarkerVariable);
}

}  // namespace meshscope::launch
