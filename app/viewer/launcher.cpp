// meshscope: starts the viewer (meshscope-viewer, beside this program) with transparent huge
// pages for its heap.
//
// Opening a large asset touches a few hundred megabytes of fresh heap: the file, the decoded
// arrays, the packed vertex buffers, and above all the driver's copies and a software
// rasterizer's (llvmpipe's) vertex and triangle bins. Taking that memory 4 KiB at a time costs a
// page fault each, and on virtual machines a page fault is expensive: a 1M-triangle FileMesh took
// 75 000 faults and half of its CPU time in the kernel, from open to written screenshot.
// glibc's malloc asks for transparent huge pages (madvise(MADV_HUGEPAGE) on the memory it maps)
// when the tunable glibc.malloc.hugetlb=1 is set, but tunables are read once, when the process
// starts, so this launcher sets it and replaces itself with the viewer: 11 000 faults, 0.94 s
// instead of 1.49 s on that mesh (docs/performance.md). Nothing changes where the system turns
// huge pages off (/sys/kernel/mm/transparent_hugepage/enabled = never) or where the user already
// chose a glibc.malloc.hugetlb value.
//
// The viewer puts GLIBC_TUNABLES back as it found it (restoreLauncherEnvironment, viewer_app.h)
// so that programs it starts do not inherit the setting. Plain C++, no Qt: it runs before the
// viewer's libraries are loaded and costs about a millisecond.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";
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
    const char* previous = std::getenv("GLIBC_TUNABLES");
    if (!previous || !std::strstr(previous, kTunable)) {
        // What to restore: the previous value, or nothing when there was none.
        const std::size_t length = (previous ? std::strlen(previous) + 1 : 0) + 32;
        char* tunables = static_cast<char*>(std::malloc(length));
        if (tunables) {
            std::snprintf(tunables, length, "%s%s%s=1", previous && *previous ? previous : "",
                          previous && *previous ? ":" : "", kTunable);
            if (previous)
                setenv("MESHSCOPE_PREVIOUS_GLIBC_TUNABLES", previous, 1);
            else
                unsetenv("MESHSCOPE_PREVIOUS_GLIBC_TUNABLES");
            setenv("MESHSCOPE_LAUNCHER_TUNABLES", "1", 1);
            setenv("GLIBC_TUNABLES", tunables, 1);
        }
    }
    execv(viewer, argv);
    std::fprintf(stderr, "meshscope: cannot start %s: %s\n", viewer, std::strerror(errno));
    return 127;
}
