// Reading a file for decoding: regular files are mapped, pipes are read; decodeFile gives what
// decodeBytes gives on the same bytes.
#include "io/file_bytes.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "meshscope/core/decode.h"
#include "meshscope/core/roblox_model_writer.h"
#include "support/test_support.h"

namespace meshscope {
namespace {

Bytes modelBytes() {
    const auto w = writeRobloxModel(makeRobloxTypesModel());
    EXPECT_TRUE(w.ok());
    return w.bytes;
}

TEST(FileBytes, RegularFileIsMappedWithItsBytes) {
    const Bytes bytes = modelBytes();
    const auto path = test::tempDir("file-bytes-map") / "types.rbxm";
    test::writeFile(path, bytes);
    FileBytes f;
    std::string code, error;
    ASSERT_TRUE(f.open(path.string(), code, error)) << error;
    EXPECT_TRUE(f.mapped());
    ASSERT_EQ(f.bytes().size(), bytes.size());
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), f.bytes().begin()));
    // Moved: the mapping goes with it.
    FileBytes g = std::move(f);
    EXPECT_TRUE(f.bytes().empty());
    EXPECT_EQ(g.bytes().size(), bytes.size());

    const DecodeResult viaFile = decodeFile(path.string());
    const DecodeResult viaBytes = decodeBytes(bytes, {.fileName = "types.rbxm"});
    ASSERT_TRUE(viaFile.ok()) << viaFile.error->toString();
    EXPECT_EQ(viaFile.asset.nodes.size(), viaBytes.asset.nodes.size());
    EXPECT_EQ(viaFile.asset.sharedStrings, viaBytes.asset.sharedStrings);
    EXPECT_EQ(viaFile.asset.byteMap.ranges().size(), viaBytes.asset.byteMap.ranges().size());
}

// A file whose size is a whole number of pages ends exactly at a page boundary of the mapping:
// a decoder reading one byte too far would fault here.
TEST(FileBytes, PageSizedFileDecodes) {
    Bytes bytes = modelBytes();
    const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
    const std::size_t size = (bytes.size() + page - 1) / page * page;
    bytes.resize(size, 0);  // trailing bytes after END: a warning, not a failure
    const auto path = test::tempDir("file-bytes-page") / "paged.rbxm";
    test::writeFile(path, bytes);
    const DecodeResult r = decodeFile(path.string());
    EXPECT_TRUE(r.ok()) << r.error->toString();
    EXPECT_EQ(r.asset.fileSize, size);
}

TEST(FileBytes, PipeIsRead) {
    const Bytes bytes = modelBytes();
    const auto fifo = test::tempDir("file-bytes-fifo") / "pipe";
    std::remove(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] {
        FILE* w = std::fopen(fifo.c_str(), "wb");
        if (!w) return;
        // In small pieces, so the reader sees several short reads.
        for (std::size_t at = 0; at < bytes.size(); at += 1000)
            std::fwrite(bytes.data() + at, 1, std::min<std::size_t>(1000, bytes.size() - at), w);
        std::fclose(w);
    });
    FileBytes f;
    std::string code, error;
    const bool opened = f.open(fifo.string(), code, error);
    writer.join();
    ASSERT_TRUE(opened) << error;
    EXPECT_FALSE(f.mapped());
    ASSERT_EQ(f.bytes().size(), bytes.size());
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), f.bytes().begin()));
    std::remove(fifo.c_str());
}

TEST(FileBytes, FailuresNameThePath) {
    const auto dir = test::tempDir("file-bytes-fail");
    FileBytes f;
    std::string code, error;
    EXPECT_FALSE(f.open((dir / "missing.rbxm").string(), code, error));
    EXPECT_EQ(code, "io");
    EXPECT_NE(error.find("missing.rbxm"), std::string::npos);
    EXPECT_FALSE(f.open(dir.string(), code, error));  // a folder
    EXPECT_NE(error.find(dir.string()), std::string::npos);
    const DecodeResult r = decodeFile((dir / "missing.rbxm").string());
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->code, "io");

    const auto empty = dir / "empty.rbxm";
    test::writeFile(empty, {});
    ASSERT_TRUE(f.open(empty.string(), code, error)) << error;
    EXPECT_TRUE(f.bytes().empty());
}

}  // namespace
}  // namespace meshscope
