// meshscope: starts the viewer (meshscope-viewer, beside this program) with transparent huge
// pages for its heap (huge_pages.h: glibc reads its malloc tunables only when a process starts,
// so they are set here and the viewer replaces this process). On the development VM a
// 1M-triangle FileMesh went from 75 000 page faults and 1.49 s to 11 000 and 0.94 s, open to
// written screenshot (docs/performance.md). The viewer puts GLIBC_TUNABLES back as it found it
// (prepareEnvironment). Plain C++ over libc, no Qt: about a millisecond.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "huge_pages.h"

namespace {

constexpr const char* kViewerName = "meshscope-viewer";

// The viewer's path: this program's folder (from /proc/self/exe, links resolved; else argv[0])
// joined with kViewerName. False when there is no folder to take or the path is too long.
bool viewerPath(const char* argv0, char (&out)[PATH_MAX]) {
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
    } else if (argv0 && std::strchr(argv0, '/') && std::strlen(argv0) < sizeof self) {
        std::strcpy(self, argv0);
    } else {
        return false;
    }
    char* slash = std::strrchr(self, '/');
    if (!slash) return false;
    slash[1] = '\0';
    const int written = std::snprintf(out, sizeof out, "%s%s", self, kViewerName);
    return written > 0 && std::size_t(written) < sizeof out;
}

}  // namespace

int main(int, char** argv) {
    char viewer[PATH_MAX];
    if (!viewerPath(argv[0], viewer)) {
        std::fprintf(stderr, "meshscope: cannot find its own folder to start %s\n", kViewerName);
        return 127;
    }
    meshscope::launch::addHugePageTunable();
    execv(viewer, argv);
    std::fprintf(stderr, "meshscope: cannot start %s: %s\n", viewer, std::strerror(errno));
    return 127;
}
