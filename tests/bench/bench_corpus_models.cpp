// Every real Roblox model and place under the shared corpus (.rbxm .rbxl .rbxmx .rbxlx), decoded
// from memory, beside the bare cost of its bytes: for a binary file, inflating its chunks (LZ4 or
// ZSTD into one reused buffer, as bench_roblox_model's decompress-only loop); for an XML file,
// parsing it with pugixml alone into a DOM (the library the decoder reads XML with; "scan", one
// memchr pass for '<', is printed beside it as the least any reader must do, and "walk", the
// parse and then the least walk any decoder of that DOM makes, see pugiWalk). The ratio compares
// the decode without terrain meshing (DecodeOptions::robloxTerrain off), which is decoding; a
// place with Terrain also gets its decode time with the terrain meshed, in its own column. One
// line a file, sorted worst ratio first, so an outlier is seen at the top. Times are the fastest of
// several runs of a warm process (the file read once, before timing), in wall time and in process
// CPU time (worker threads included; far steadier than wall time on a loaded machine), the
// columns of a file timed in turns (one run of each a round) so that a slow spell of the machine
// falls on all of them. The last line gives the ratios of sums for binary and XML files apart. The
// decode builds the byte map, as the viewer's does; "no-map cpu" is the same decode without it
// (DecodeOptions::byteMap off, as meshscope-cli info and tree ask). "copy cpu" is a copy of the
// decoded Asset (no map), made and freed: the least that holding the result costs, with no byte
// read or checked; "floor" is (bare + copy) / bare, the least ratio any decode into that Asset can
// reach, since it must inflate the bytes and write at least what the copy writes.
//
// Two more floors, of other kinds: "least" (binary files) is the least any decoder into a tree
// of typed columns does — the chunks framed and inflated into memory kept with the result, each
// INST chunk's referents, each PROP chunk's class, name and type recorded, PRNT's links — and
// nothing else (leastTree); "libxml2" and "expat" (XML files) are the least walk of pugiWalk
// made through the two other XML readers Debian has, which read without a DOM (events), when the
// build found them. The last line gives each as a ratio of sums over the same bare work.
//
//   bench_corpus_models [CORPUS_DIR] [--min-ms N] [--only TEXT]
// The corpus is CORPUS_DIR, else $MESHSCOPE_CORPUS, else ../shared/corpus (from the working
// directory or up to two levels above it). --only keeps the files whose path holds TEXT.
//
// Instructions rather than time (steadier; this machine's perf has no hardware counters): each
// timed step is a function of its own that callgrind can count, called 3 times a file with
// --min-ms 0, e.g.
//   valgrind --tool=callgrind --toggle-collect='*inflateChunksOnly*' bench_corpus_models
//     CORPUS --only all-instances-415/binary.rbxl --min-ms 0
// and the same with '*decodeWithoutMap*'; divide each total by 3.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <vector>

#if MESHSCOPE_BENCH_LIBXML2
#include <libxml/parser.h>
#endif
#if MESHSCOPE_BENCH_EXPAT
#include <expat.h>
#endif

#include "io/decimal.h"
#include "io/decode_context.h"
#include "io/decompress.h"
#include "meshscope/core/decode.h"

using namespace meshscope;
namespace fs = std::filesystem;

namespace {

volatile std::size_t sink = 0;

std::optional<fs::path> corpusDir(const char* given) {
    if (given) return fs::path(given);
    if (const char* env = std::getenv("MESHSCOPE_CORPUS"); env && *env) return fs::path(env);
    for (const char* rel : {"../shared/corpus", "../../shared/corpus", "../../../shared/corpus"})
        if (fs::is_directory(rel)) return fs::path(rel);
    return std::nullopt;
}

bool isBinaryModel(const Bytes& b) {
    return b.size() >= 32 && std::memcmp(b.data(), "<roblox!", 8) == 0;
}

// The chunk whose header is at `at` in a binary model, or nothing when its header or body does not
// fit in the file (the walks below end there).
struct ChunkAt {
    const std::uint8_t* name;
    std::uint32_t compressed, uncompressed;  // compressed 0: the body is raw
    ByteSpan body;
    std::size_t bodyOffset;
    bool isEnd() const { return std::memcmp(name, "END", 3) == 0; }
    bool is(const char (&word)[5]) const { return std::memcmp(name, word, 4) == 0; }
    std::size_t next() const { return bodyOffset + body.size(); }
};
inline std::optional<ChunkAt> chunkAt(const Bytes& file, std::size_t at) {
    if (at > file.size() || file.size() - at < 16) return std::nullopt;
    ChunkAt c;
    c.name = file.data() + at;
    std::memcpy(&c.compressed, file.data() + at + 4, 4);
    std::memcpy(&c.uncompressed, file.data() + at + 8, 4);
    const std::size_t length = c.compressed ? c.compressed : c.uncompressed;
    if (length > file.size() - at - 16) return std::nullopt;
    c.bodyOffset = at + 16;
    c.body = ByteSpan(file.data() + c.bodyOffset, length);
    return c;
}

// Inflates every compressed chunk of a binary model (framing checked; a chunk that does not fit
// ends the walk). Returns the bytes inflated.
[[gnu::noinline]] std::size_t inflateChunksOnly(const Bytes& file) {
    Asset scratch;
    DecodeOptions options;
    DecodeContext ctx(file, options, scratch);
    InflateBuffer buffer;
    std::size_t total = 0;
    try {
        for (std::size_t at = 32;;) {
            const auto c = chunkAt(file, at);
            if (!c) break;
            if (c->compressed) {
                const std::uint32_t u = c->uncompressed;
                const ByteSpan out = looksLikeZstd(c->body)
                                         ? buffer.zstd(ctx, c->body, u, c->bodyOffset)
                                         : buffer.lz4Block(ctx, c->body, u, c->bodyOffset);
                total += out.size();
            } else {
                total += c->uncompressed;
            }
            if (c->isEnd()) break;
            at = c->next();
        }
    } catch (const DecodeFailure&) {
    }
    return total;
}

// pugixml's parse of the document into a DOM (a copy of the bytes, as load_buffer makes).
[[gnu::noinline]] std::size_t pugiOnly(const Bytes& file) {
    pugi::xml_document doc;
    const pugi::xml_parse_result r =
        doc.load_buffer(file.data(), file.size(),
                        pugi::parse_default | pugi::parse_ws_pcdata_single, pugi::encoding_utf8);
    return r ? std::size_t(1) : std::size_t(0);
}

// pugixml's parse, then the least walk any decoder of its DOM makes: every element visited, its
// name and first attribute read (what a property's tag and name are), and its text converted when
// it reads as a number (most of a place's or an animation's text). Each step is a call into the
// library and a node the parse wrote a while ago: on real files this walk alone costs about half
// the parse again, so no decode through a DOM comes near the parse's own time.
// An element's text as the least walk reads it: converted when it reads as a number (the same
// work through every XML reader timed here).
inline double numberIn(std::string_view text) {
    float f = 0;
    if (!text.empty() && (text[0] == '-' || unsigned(text[0] - '0') < 10))
        decimalFromChars(text.data(), text.data() + text.size(), f);
    return f;
}

[[gnu::noinline]] std::size_t pugiWalk(const Bytes& file) {
    pugi::xml_document doc;
    if (!doc.load_buffer(file.data(), file.size(),
                         pugi::parse_default | pugi::parse_ws_pcdata_single, pugi::encoding_utf8))
        return 0;
    std::size_t n = 0;
    double sum = 0;
    std::vector<pugi::xml_node> stack{doc};
    while (!stack.empty()) {
        const pugi::xml_node parent = stack.back();
        stack.pop_back();
        for (pugi::xml_node c = parent.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            n += std::uint8_t(c.name()[0]) + std::uint8_t(c.first_attribute().value()[0]);
            sum += numberIn(c.child_value());
            if (c.first_child()) stack.push_back(c);
        }
    }
    return n + (sum != 0);
}

// The least a decoder that keeps a binary model's tree and its values does: frame the chunks,
// inflate each into memory kept with the result (one block for all, not cleared first), read each
// INST chunk's class and referents, each PROP chunk's class, property name and type (a record a
// column, its values left as the chunk's bytes), and PRNT's links into a parent a node. No name
// read, no check beyond bounds, no byte map, nothing derived (parts, rigs, unions): the floor of
// any decode into a tree of typed columns, for comparison with the bare inflation.
struct LeastColumn {
    std::uint32_t classId;
    std::string_view name;
    std::uint8_t type;
    ByteSpan values;
};
struct LeastClass {
    std::string_view name;
    std::uint32_t first, count;
};
// n int32s stored as 4 byte planes (big-endian bytes), zigzag-coded differences: the values.
void leastReferents(const std::uint8_t* p, std::size_t n, std::vector<std::int32_t>& out) {
    std::int32_t acc = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t v = std::uint32_t(p[i]) << 24 | std::uint32_t(p[n + i]) << 16 |
                                std::uint32_t(p[2 * n + i]) << 8 | p[3 * n + i];
        acc += std::int32_t((v >> 1) ^ (0u - (v & 1)));
        out.push_back(acc);
    }
}
[[gnu::noinline]] std::size_t leastTree(const Bytes& file) {
    Asset scratch;
    DecodeOptions options;
    DecodeContext ctx(file, options, scratch);
    std::vector<LeastColumn> columns;
    std::vector<LeastClass> classes;
    std::vector<std::int32_t> refs, parentRefs, nodeOfRef, parent;
    InflateBuffer zstdBuffer;
    std::size_t nodes = 0;
    try {
        // Framing: the kept block's size (what the chunks inflate to).
        std::size_t total = 0;
        for (std::size_t at = 32;;) {
            const auto c = chunkAt(file, at);
            if (!c) break;
            total += c->compressed ? c->uncompressed : 0;
            if (c->isEnd()) break;
            at = c->next();
        }
        if (total > (std::size_t(1) << 31)) return 0;  // not a corpus file's
        const std::unique_ptr<std::uint8_t[]> kept(
            new std::uint8_t[std::max<std::size_t>(total, 1)]);
        std::size_t used = 0;
        for (std::size_t at = 32;;) {
            const auto c = chunkAt(file, at);
            if (!c) break;
            ByteSpan data = c->body;
            if (const std::uint32_t u = c->uncompressed; c->compressed) {
                if (looksLikeZstd(c->body)) {
                    const ByteSpan z = zstdBuffer.zstd(ctx, c->body, u, c->bodyOffset);
                    std::memcpy(kept.get() + used, z.data(), z.size());
                } else {
                    InflateBuffer::checkLz4Block(ctx, c->body, u, c->bodyOffset);
                    InflateBuffer::lz4BlockInto(ctx, c->body, u, c->bodyOffset, kept.get() + used);
                }
                data = ByteSpan(kept.get() + used, u);
                used += u;
            }
            const std::uint8_t* p = data.data();
            const std::size_t n = data.size();
            auto u32 = [&](std::size_t o) {
                std::uint32_t v = 0;
                if (o + 4 <= n) std::memcpy(&v, p + o, 4);
                return v;
            };
            if (c->is("INST") && n >= 9) {
                const std::uint32_t id = u32(0), nameLength = u32(4);
                if (nameLength <= n - 8 && n - 8 - nameLength >= 5) {
                    const std::size_t o = 8 + nameLength;
                    const std::uint32_t count = u32(o + 1);
                    if (id < (1u << 20) && std::uint64_t(count) * 4 <= n - o - 5) {
                        if (id >= classes.size()) classes.resize(std::size_t(id) + 1);
                        classes[id] = {{reinterpret_cast<const char*>(p + 8), nameLength},
                                       std::uint32_t(nodes),
                                       count};
                        refs.clear();
                        leastReferents(p + o + 5, count, refs);
                        for (std::uint32_t i = 0; i < count; ++i) {
                            const std::int32_t r = refs[i];
                            if (r < 0 || r > (1 << 24)) continue;
                            if (std::size_t(r) >= nodeOfRef.size())
                                nodeOfRef.resize(std::size_t(r) + 1, -1);
                            nodeOfRef[std::size_t(r)] = std::int32_t(nodes + i);
                        }
                        nodes += count;
                    }
                }
            } else if (c->is("PROP") && n >= 8) {
                const std::uint32_t id = u32(0), nameLength = u32(4);
                if (nameLength < n - 8)
                    columns.push_back({id,
                                       {reinterpret_cast<const char*>(p + 8), nameLength},
                                       p[8 + nameLength],
                                       ByteSpan(p + 9 + nameLength, n - 9 - nameLength)});
            } else if (c->is("PRNT") && n >= 5) {
                const std::uint32_t links = u32(1);
                if (std::uint64_t(links) * 8 <= n - 5) {
                    refs.clear();
                    parentRefs.clear();
                    leastReferents(p + 5, links, refs);
                    leastReferents(p + 5 + 4 * std::size_t(links), links, parentRefs);
                    parent.assign(nodes, -1);
                    auto node = [&](std::int32_t r) {
                        return r >= 0 && std::size_t(r) < nodeOfRef.size()
                                   ? nodeOfRef[std::size_t(r)]
                                   : -1;
                    };
                    for (std::uint32_t i = 0; i < links; ++i)
                        if (const std::int32_t child = node(refs[i]); child >= 0)
                            parent[std::size_t(child)] = node(parentRefs[i]);
                }
            }
            if (c->isEnd()) break;
            at = c->next();
        }
    } catch (const DecodeFailure&) {
    }
    return nodes + columns.size() + classes.size() + parent.size();
}

// pugixml's parse and the least walk, as pugiWalk makes them, through the two other XML readers
// Debian has, which read without a DOM (events for start tags, text and end tags): the same
// element names, first attributes and numbers read. Built when their headers are found.
struct SaxState {
    std::string text;  // the current element's text, up to its first child or its end
    std::size_t n = 0;
    double sum = 0;
    void start(const char* name, const char* firstValue) {
        n += std::uint8_t(name[0]) + (firstValue ? std::uint8_t(firstValue[0]) : 0);
        text.clear();
    }
    void end() {
        sum += numberIn(text);
        text.clear();
    }
};
#if MESHSCOPE_BENCH_LIBXML2
[[gnu::noinline]] std::size_t libxml2Walk(const Bytes& file) {
    xmlSAXHandler h{};
    h.initialized = XML_SAX2_MAGIC;
    h.startElementNs = [](void* s, const xmlChar* name, const xmlChar*, const xmlChar*, int,
                          const xmlChar**, int attributes, int, const xmlChar** a) {
        // a: name, prefix, URI, value, end for each attribute
        static_cast<SaxState*>(s)->start(
            reinterpret_cast<const char*>(name),
            attributes ? reinterpret_cast<const char*>(a[3]) : nullptr);
    };
    h.endElementNs = [](void* s, const xmlChar*, const xmlChar*, const xmlChar*) {
        static_cast<SaxState*>(s)->end();
    };
    h.serror = [](void*, xmlErrorPtr) {};  // malformed test files: nothing printed
    h.characters = [](void* s, const xmlChar* c, int length) {
        static_cast<SaxState*>(s)->text.append(reinterpret_cast<const char*>(c),
                                               std::size_t(length));
    };
    SaxState state;
    const int status = xmlSAXUserParseMemory(&h, &state, reinterpret_cast<const char*>(file.data()),
                                             int(std::min<std::size_t>(file.size(), INT32_MAX)));
    return state.n + (state.sum != 0) + (status == 0);
}
#endif
#if MESHSCOPE_BENCH_EXPAT
[[gnu::noinline]] std::size_t expatWalk(const Bytes& file) {
    const XML_Parser parser = XML_ParserCreate("UTF-8");
    SaxState state;
    XML_SetUserData(parser, &state);
    XML_SetElementHandler(
        parser,
        [](void* s, const XML_Char* name, const XML_Char** a) {
            static_cast<SaxState*>(s)->start(name, a[0] ? a[1] : nullptr);
        },
        [](void* s, const XML_Char*) { static_cast<SaxState*>(s)->end(); });
    XML_SetCharacterDataHandler(parser, [](void* s, const XML_Char* c, int length) {
        static_cast<SaxState*>(s)->text.append(c, std::size_t(length));
    });
    const auto status = XML_Parse(parser, reinterpret_cast<const char*>(file.data()),
                                  int(std::min<std::size_t>(file.size(), INT32_MAX)), 1);
    XML_ParserFree(parser);
    return state.n + (state.sum != 0) + (status == XML_STATUS_OK);
}
#endif

// One pass over the bytes: what reading an XML document costs at least.
std::size_t scanOnly(const Bytes& file) {
    std::size_t n = 0;
    const std::uint8_t* p = file.data();
    const std::uint8_t* end = p + file.size();
    while (p < end) {
        const void* q = std::memchr(p, '<', std::size_t(end - p));
        if (!q) break;
        ++n;
        p = static_cast<const std::uint8_t*>(q) + 1;
    }
    return n;
}

// The decodes timed, by name for callgrind (see the top).
[[gnu::noinline]] std::size_t decodeWithMap(const Bytes& bytes, const DecodeOptions& options) {
    return decodeBytes(bytes, options).asset.nodes.size();
}
[[gnu::noinline]] std::size_t decodeWithoutMap(const Bytes& bytes, DecodeOptions options) {
    options.byteMap = false;  // what meshscope-cli info and tree ask for (and not the same code
                              // as decodeWithMap, which the compiler would fold into one)
    return decodeBytes(bytes, options).asset.nodes.size();
}

// A copy of a decoded Asset, made and freed: what holding the result costs at least, with no
// byte read (every decoder builds at least this much).
[[gnu::noinline]] std::size_t assetCopyOnly(const Asset& decoded) {
    const Asset copy = decoded;
    return copy.nodes.size();
}

double cpuNow() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

struct Time {
    double wall = 1e30, cpu = 1e30;  // the fastest run of each (process CPU: worker threads too)
};

// The fastest run of each of fs, run in turns (one of each a round, at least 3 rounds, and rounds
// until each has had minSeconds): a slow spell of the machine then falls on all of them alike,
// rather than on whichever was being timed, and the ratios between them hold.
std::vector<Time> fastestInTurns(const std::vector<std::function<void()>>& fs, double minSeconds) {
    std::vector<Time> best(fs.size());
    std::vector<double> spent(fs.size(), 0.0);
    for (int round = 0; round < 1000; ++round) {
        if (round >= 3 &&
            std::all_of(spent.begin(), spent.end(), [&](double s) { return s >= minSeconds; }))
            break;
        for (std::size_t k = 0; k < fs.size(); ++k) {
            const double c0 = cpuNow();
            const auto t0 = std::chrono::steady_clock::now();
            fs[k]();
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            best[k].cpu = std::min(best[k].cpu, cpuNow() - c0);
            best[k].wall = std::min(best[k].wall, s);
            spent[k] += s;
        }
    }
    return best;
}

struct Row {
    std::string path;
    std::size_t size = 0;
    bool binary = false;
    Time decode, bare, scan, walk, withTerrain, noMap, copy, least, libxml2, expat;
    bool terrain = false;  // the default decode meshes terrain: withTerrain is timed
    std::size_t nodes = 0;
    bool ok = true;
    double ratio() const { return bare.wall > 0 ? decode.wall / bare.wall : 0; }
    double cpuRatio() const { return bare.cpu > 0 ? decode.cpu / bare.cpu : 0; }
    // The least ratio any decode into an Asset can have, in CPU time: the bare work plus a copy
    // of the decoded Asset (its allocations and writes, with no byte read or checked).
    double floor() const { return bare.cpu > 0 ? (bare.cpu + copy.cpu) / bare.cpu : 0; }
};

}  // namespace

int main(int argc, char** argv) {
    const char* given = nullptr;
    const char* only = nullptr;
    double minSeconds = 0.05;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--min-ms") == 0 && i + 1 < argc)
            minSeconds = std::atof(argv[++i]) / 1e3;
        else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else
            given = argv[i];
    }
    const auto corpus = corpusDir(given);
    if (!corpus || !fs::is_directory(*corpus)) {
        std::fprintf(stderr, "no corpus (give CORPUS_DIR or set MESHSCOPE_CORPUS)\n");
        return 1;
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(*corpus)) {
        if (!e.is_regular_file()) continue;
        std::string ext = e.path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
        if ((ext == ".rbxm" || ext == ".rbxl" || ext == ".rbxmx" || ext == ".rbxlx") &&
            (!only || e.path().string().find(only) != std::string::npos))
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<Row> rows;
    double decodeTotal = 0, bareTotal = 0, decodeCpu = 0, bareCpu = 0, noMapCpu = 0, copyCpu = 0;
    double binaryDecode = 0, binaryBare = 0, xmlDecode = 0, xmlBare = 0, xmlWalk = 0;  // CPU
    double binaryLeast = 0, xmlLibxml2 = 0, xmlExpat = 0;                              // CPU
    for (const fs::path& path : files) {
        std::ifstream in(path, std::ios::binary);
        const Bytes bytes{std::istreambuf_iterator<char>(in), {}};
        Row row;
        row.path = fs::relative(path, *corpus).string();
        row.size = bytes.size();
        row.binary = isBinaryModel(bytes);
        const std::string name = path.filename().string();
        DecodeOptions noTerrain;
        noTerrain.fileName = name;
        noTerrain.robloxTerrain = false;
        DecodeOptions defaults;
        defaults.fileName = name;
        DecodeOptions noMap = noTerrain;  // what meshscope-cli info and tree ask for
        noMap.byteMap = false;
        {
            const DecodeResult r = decodeBytes(bytes, noTerrain);
            row.ok = r.ok();
            row.nodes = r.asset.nodes.size();
            row.terrain = decodeBytes(bytes, defaults).asset.meshes.size() > r.asset.meshes.size();
        }
        // Every column of the file timed in turns (fastestInTurns), the decodes first.
        const DecodeResult kept = decodeBytes(bytes, noMap);  // what the copy copies
        std::vector<std::function<void()>> steps = {
            [&] { sink = sink + decodeWithMap(bytes, noTerrain); },
            [&] { sink = sink + decodeWithoutMap(bytes, noMap); },
            [&] { sink = sink + assetCopyOnly(kept.asset); },
            [&] { sink = sink + (row.binary ? inflateChunksOnly(bytes) : pugiOnly(bytes)); }};
        std::size_t libxml2Step = 0, expatStep = 0;
        if (row.binary) {
            steps.push_back([&] { sink = sink + leastTree(bytes); });
        } else {
            steps.push_back([&] { sink = sink + scanOnly(bytes); });
            steps.push_back([&] { sink = sink + pugiWalk(bytes); });
#if MESHSCOPE_BENCH_LIBXML2
            libxml2Step = steps.size();
            steps.push_back([&] { sink = sink + libxml2Walk(bytes); });
#endif
#if MESHSCOPE_BENCH_EXPAT
            expatStep = steps.size();
            steps.push_back([&] { sink = sink + expatWalk(bytes); });
#endif
        }
        if (row.terrain)
            steps.push_back([&] {
                const DecodeResult r = decodeBytes(bytes, defaults);
                sink = sink + r.asset.nodes.size();
            });
        const std::vector<Time> t = fastestInTurns(steps, minSeconds);
        row.decode = t[0];
        row.noMap = t[1];
        row.copy = t[2];
        row.bare = t[3];
        if (row.binary) {
            row.least = t[4];
        } else {
            row.scan = t[4];
            row.walk = t[5];
            if (libxml2Step) row.libxml2 = t[libxml2Step];
            if (expatStep) row.expat = t[expatStep];
        }
        if (row.terrain) row.withTerrain = t.back();
        decodeTotal += row.decode.wall;
        bareTotal += row.bare.wall;
        (row.binary ? binaryDecode : xmlDecode) += row.decode.cpu;
        (row.binary ? binaryBare : xmlBare) += row.bare.cpu;
        if (row.binary) binaryLeast += row.least.cpu;
        if (!row.binary) {
            xmlWalk += row.walk.cpu;
            xmlLibxml2 += libxml2Step ? row.libxml2.cpu : 0;
            xmlExpat += expatStep ? row.expat.cpu : 0;
        }
        decodeCpu += row.decode.cpu;
        bareCpu += row.bare.cpu;
        noMapCpu += row.noMap.cpu;
        copyCpu += row.copy.cpu;
        rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end(),
              [](const Row& a, const Row& b) { return a.ratio() > b.ratio(); });
    std::printf(
        "%8s %11s %11s %9s %10s %10s %10s %10s %10s %8s %-6s %10s %10s %10s %10s %10s %11s "
        "%s\n",
        "ratio", "decode ms", "bare ms", "cpu ratio", "decode cpu", "no-map cpu", "copy cpu",
        "floor", "bytes", "nodes", "bare", "scan ms", "walk ms", "least ms", "libxml2 ms",
        "expat ms", "+terrain ms", "file (worst first)");
    for (const Row& r : rows) {
        char scan[32] = "-", walk[32] = "-", terrain[32] = "-", least[32] = "-", libxml2[32] = "-",
             expat[32] = "-";
        if (!r.binary) std::snprintf(scan, sizeof scan, "%.3f", r.scan.wall * 1e3);
        if (!r.binary) std::snprintf(walk, sizeof walk, "%.3f", r.walk.wall * 1e3);
        if (r.binary) std::snprintf(least, sizeof least, "%.3f", r.least.wall * 1e3);
        if (!r.binary && r.libxml2.wall < 1e29)
            std::snprintf(libxml2, sizeof libxml2, "%.3f", r.libxml2.wall * 1e3);
        if (!r.binary && r.expat.wall < 1e29)
            std::snprintf(expat, sizeof expat, "%.3f", r.expat.wall * 1e3);
        if (r.terrain) std::snprintf(terrain, sizeof terrain, "%.3f", r.withTerrain.wall * 1e3);
        std::printf(
            "%8.2f %11.3f %11.3f %9.2f %10.3f %10.3f %10.3f %10.2f %10zu %8zu %-6s %10s %10s "
            "%10s %10s %10s %11s %s%s\n",
            r.ratio(), r.decode.wall * 1e3, r.bare.wall * 1e3, r.cpuRatio(), r.decode.cpu * 1e3,
            r.noMap.cpu * 1e3, r.copy.cpu * 1e3, r.floor(), r.size, r.nodes,
            r.binary ? "chunks" : "pugixml", scan, walk, least, libxml2, expat, terrain,
            r.path.c_str(), r.ok ? "" : "  (decode error)");
    }
    std::printf(
        "%zu files: decode %.2f ms in all, bare %.2f ms in all, ratio of sums %.2f (CPU: %.2f ms "
        "vs %.2f ms, %.2f; without the byte map %.2f ms, %.2f; floor %.2f)\n",
        rows.size(), decodeTotal * 1e3, bareTotal * 1e3,
        bareTotal > 0 ? decodeTotal / bareTotal : 0.0, decodeCpu * 1e3, bareCpu * 1e3,
        bareCpu > 0 ? decodeCpu / bareCpu : 0.0, noMapCpu * 1e3,
        bareCpu > 0 ? noMapCpu / bareCpu : 0.0, bareCpu > 0 ? (bareCpu + copyCpu) / bareCpu : 0.0);
    std::printf(
        "CPU, binary files: decode %.2f ms vs bare %.2f ms, %.2f; XML files: decode %.2f ms vs "
        "pugixml's parse %.2f ms, %.2f, and vs the parse and the least walk %.2f ms, %.2f\n",
        binaryDecode * 1e3, binaryBare * 1e3, binaryBare > 0 ? binaryDecode / binaryBare : 0.0,
        xmlDecode * 1e3, xmlBare * 1e3, xmlBare > 0 ? xmlDecode / xmlBare : 0.0, xmlWalk * 1e3,
        xmlWalk > 0 ? xmlDecode / xmlWalk : 0.0);
    // The floors beside the goal of 2x the bare work: the least tree of the binary files, and the
    // least walk through each XML reader, as ratios of the same bare work.
    std::printf(
        "CPU, the least work over the bare: binary files' least tree %.2f ms, %.2f; XML "
        "files' least walk through pugixml's DOM %.2f",
        binaryLeast * 1e3, binaryBare > 0 ? binaryLeast / binaryBare : 0.0,
        xmlBare > 0 ? xmlWalk / xmlBare : 0.0);
#if MESHSCOPE_BENCH_LIBXML2
    std::printf(", libxml2's SAX2 %.2f", xmlBare > 0 ? xmlLibxml2 / xmlBare : 0.0);
#endif
#if MESHSCOPE_BENCH_EXPAT
    std::printf(", expat's %.2f", xmlBare > 0 ? xmlExpat / xmlBare : 0.0);
#endif
    std::printf("\n");
    return 0;
}
