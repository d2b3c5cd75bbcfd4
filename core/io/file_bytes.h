// A file's bytes, read-only, for decoding: a regular file is mapped (mmap, no copy and no
// zero-filled buffer), anything else (a pipe, a character device, a /proc file whose size says 0)
// is read with read() into a buffer that grows without being cleared first.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "meshscope/core/asset.h"

namespace meshscope {

class FileBytes {
public:
    FileBytes() = default;
    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;
    FileBytes(FileBytes&& other) noexcept;
    FileBytes& operator=(FileBytes&& other) noexcept;
    ~FileBytes();

    // Opens and maps (or reads) `path`. On failure returns false with `error` set to a sentence
    // that names the path and the cause; `code` is "io" or "out-of-memory".
    bool open(const std::string& path, std::string& code, std::string& error);

    std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
    // True when the bytes are a mapping of the file (false: read into memory).
    bool mapped() const { return map_ != nullptr; }

private:
    void release();

    void* map_ = nullptr;  // the mapping, when mapped
    std::size_t mapSize_ = 0;
    UninitializedBytes buffer_;  // the bytes read, when not mapped
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace meshscope
