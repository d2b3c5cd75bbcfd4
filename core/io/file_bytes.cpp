// Reads a file for decoding (see file_bytes.h).
#include "io/file_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>

namespace meshscope {

namespace {

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::string reason(const char* what, const std::string& path, int err) {
    return std::string(what) + " " + path + ": " + std::strerror(err);
}

}  // namespace

FileBytes::FileBytes(FileBytes&& other) noexcept {
    *this = std::move(other);
}

FileBytes& FileBytes::operator=(FileBytes&& other) noexcept {
    if (this != &other) {
        release();
        map_ = std::exchange(other.map_, nullptr);
        mapSize_ = std::exchange(other.mapSize_, 0);
        buffer_ = std::move(other.buffer_);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        if (!map_) data_ = buffer_.data();
    }
    return *this;
}

FileBytes::~FileBytes() {
    release();
}

void FileBytes::release() {
    if (map_) ::munmap(map_, mapSize_);
    map_ = nullptr;
    mapSize_ = 0;
    buffer_ = {};
    data_ = nullptr;
    size_ = 0;
}

bool FileBytes::open(const std::string& path, std::string& code, std::string& error) {
    release();
    code = "io";
    Fd f;
    // Read-only: the input is never written.
    do f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    while (f.fd < 0 && errno == EINTR);
    if (f.fd < 0) {
        error = reason("cannot open", path, errno);
        return false;
    }
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) {
        error = reason("cannot read", path, errno);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        error = reason("cannot read", path, EISDIR);
        return false;
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        const auto size = static_cast<std::size_t>(st.st_size);
        // MAP_POPULATE: the pages are mapped in one call instead of one fault each (a file of
        // 32 MB is 8 192 pages). A decoder reads every byte of its file at least once.
        void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, f.fd, 0);
        if (p != MAP_FAILED) {
            ::madvise(p, size, MADV_SEQUENTIAL);
            map_ = p;
            mapSize_ = size;
            data_ = static_cast<const std::uint8_t*>(p);
            size_ = size;
            return true;
        }
        // A file system without mmap: read it instead.
    }
    // Pipes, devices, files whose size is not known ahead: read() until the end, the buffer
    // grown (not cleared) ahead of each read.
    std::size_t have = 0;
    std::size_t want = S_ISREG(st.st_mode) && st.st_size > 0 ? std::size_t(st.st_size) + 1 : 65536;
    try {
        for (;;) {
            if (buffer_.size() < have + 1) buffer_.resize(std::max(want, have + 65536));
            const ssize_t n = ::read(f.fd, buffer_.data() + have, buffer_.size() - have);
            if (n < 0) {
                if (errno == EINTR) continue;
                error = reason("cannot read", path, errno);
                buffer_ = {};
                return false;
            }
            if (n == 0) break;
            have += std::size_t(n);
            if (have == buffer_.size()) want = buffer_.size() * 2;
        }
        buffer_.resize(have);
    } catch (const std::bad_alloc&) {
        code = "out-of-memory";
        error = "file too large to load: " + path;
        buffer_ = {};
        return false;
    } catch (const std::length_error&) {
        code = "out-of-memory";
        error = "file too large to load: " + path;
        buffer_ = {};
        return false;
    }
    data_ = buffer_.data();
    size_ = have;
    return true;
}

}  // namespace meshscope
