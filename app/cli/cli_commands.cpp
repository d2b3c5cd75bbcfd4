// meshscope-cli: info, map and tree over any format the core decodes.
#include "cli_commands.h"

#include <cstdlib>
#include <memory>
#include <ostream>

#include "export_command.h"
#include "json_report.h"
#include "meshscope/core/decode.h"
#include "pose_command.h"

namespace meshscope::cli {

namespace {

constexpr const char* kUsage =
    "Usage: meshscope-cli COMMAND [OPTIONS] FILE\n"
    "\n"
    "Inspect game-engine asset files: Roblox FileMesh (.mesh 1.00-7.00), Roblox models and\n"
    "places (.rbxm/.rbxl/.rbxmx/.rbxlx), Unigine (.mesh/.mesh_skinned/.skeleton/.smesh/.sanim/\n"
    ".anim), Second Life mesh assets.\n"
    "\n"
    "Commands:\n"
    "  info [--json] FILE   summary: format, version, meshes, LODs, bones, FACS, warnings\n"
    "  map FILE             byte map: one range per line (offset, length, path)\n"
    "  tree [--json] [--depth N] [--no-values] FILE\n"
    "                       node / instance tree with properties; --depth N stops N levels\n"
    "                       below the roots, --no-values leaves properties out (JSON)\n"
    "  pose [--json] [--pose C=W,...] [--bone NAME=rx,ry,rz]... FILE\n"
    "                       posed bones, FACS weights and posed bounds (pose --help)\n"
    "  pose [--json] --animation ANIM [--time SECONDS] RIG\n"
    "                       a Roblox rig or skinned mesh posed by an animation at that time\n"
    "  export --to glb|gltf|obj [--lod N] [--all-lods] [--physics] [--all-services]\n"
    "         [--asset-folder DIR]... [--animation ANIM] FILE OUT\n"
    "                       glTF (LOD N or all, skin, FACS morph targets, model parts) or\n"
    "                       OBJ + MTL, Y-up; --animation: ANIM's animations on FILE's rig\n"
    "                       as glTF animations (export --help)\n"
    "  convert --to 2.00|3.00|4.00|5.00|6.00|7.00 FILE OUT\n"
    "                       rewrite the mesh as that FileMesh version (warns what is dropped)\n"
    "\n"
    "Options:\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Exit status: 0 success, 1 the file could not be read, 2 usage error, 3 nothing to\n"
    "export (export: the file holds no mesh, skeleton or visible part).\n";

struct Parsed {
    std::string command;
    bool json = false;
    int depth = -1;        // --depth N; -1 for no limit
    bool values = true;    // --no-values clears it
    std::string badValue;  // an option whose value is missing or malformed
    std::vector<std::string> files;
    std::string unknownOption;
};

Parsed parse(const std::vector<std::string>& args) {
    Parsed p;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            p.json = true;
        else if (a == "--no-values")
            p.values = false;
        else if (a == "--depth") {
            const std::string v = i + 1 < args.size() ? args[++i] : std::string();
            char* end = nullptr;
            const long d = v.empty() ? -1 : std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || d < 0 || d > 1000000) {
                if (p.badValue.empty()) p.badValue = "--depth " + v;
            } else {
                p.depth = int(d);
            }
        } else if (a.size() > 1 && a[0] == '-') {
            if (p.unknownOption.empty()) p.unknownOption = a;
        } else if (p.command.empty())
            p.command = a;
        else
            p.files.push_back(a);
    }
    return p;
}

bool decodeOrReport(const std::string& file, DecodeResult& result, std::ostream& err,
                    const DecodeOptions& options = {}) {
    result = decodeFile(file, options);
    if (result.ok()) return true;
    err << file << ": " << result.error->toString() << "\n";
    return false;
}

void printTree(const Asset& a, int node, int depth, int maxDepth, std::ostream& out) {
    // Depth-limited printing; deep trees are shown to 256 levels.
    out << std::string(std::size_t(std::min(depth, 256)) * 2, ' ') << a.kind(node);
    if (!a.name(node).empty()) out << " \"" << a.name(node) << "\"";
    out << "\n";
    if (depth > 256 || (maxDepth >= 0 && depth >= maxDepth)) return;
    for (int c : a.children(node))
        if (c >= 0 && std::size_t(c) < a.nodes.size() && a.nodes[c].parent == node)
            printTree(a, c, depth + 1, maxDepth, out);
}

bool gExitAfterRun = false;
// The decoded asset left to the process's exit (setExitAfterRun): reachable from here.
DecodeResult* gKeptResult = nullptr;

}  // namespace

void setExitAfterRun(bool on) {
    gExitAfterRun = on;
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    for (const auto& a : args) {
        if (a == "-h" || a == "--help") {
            out << kUsage;
            return 0;
        }
        if (a == "-V" || a == "--version") {
            out << "meshscope-cli " << version() << "\n";
            return 0;
        }
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].starts_with("-")) continue;
        if (args[i] == "export" || args[i] == "convert") {
            std::vector<std::string> rest(args.begin(), args.begin() + std::ptrdiff_t(i));
            rest.insert(rest.end(), args.begin() + std::ptrdiff_t(i) + 1, args.end());
            return args[i] == "export" ? runExport(rest, out, err) : runConvert(rest, out, err);
        }
        if (args[i] != "pose") break;
        std::vector<std::string> rest(args.begin(), args.begin() + std::ptrdiff_t(i));
        rest.insert(rest.end(), args.begin() + std::ptrdiff_t(i) + 1, args.end());
        return runPose(rest, out, err);
    }
    const Parsed p = parse(args);
    if (!p.unknownOption.empty()) {
        err << "meshscope-cli: unknown option " << p.unknownOption << "\n" << kUsage;
        return 2;
    }
    if (!p.badValue.empty()) {
        err << "meshscope-cli: " << p.badValue << ": expected a depth of 0 or more\n" << kUsage;
        return 2;
    }
    if (p.command.empty()) {
        err << kUsage;
        return 2;
    }
    if (p.command != "info" && p.command != "map" && p.command != "tree") {
        err << "meshscope-cli: unknown command \"" << p.command << "\"\n" << kUsage;
        return 2;
    }
    if (p.files.size() != 1) {
        err << "meshscope-cli: " << p.command << " takes exactly one FILE\n";
        return 2;
    }
    const std::string& file = p.files.front();
    auto kept = std::make_unique<DecodeResult>();
    DecodeResult& result = *kept;
    DecodeOptions options;
    options.byteMap = p.command == "map";  // only `map` prints it
    // None of the three prints a vertex or an index: a FileMesh's arrays stay in the file.
    options.loadGeometry = false;
    if (!decodeOrReport(file, result, err, options)) return 1;
    const Asset& asset = result.asset;
    if (p.command == "info") {
        if (p.json)
            out << dumpJson(infoJson(asset)) << "\n";
        else
            out << infoText(asset, file);
    } else if (p.command == "map") {
        out << mapText(asset);
    } else {
        if (p.json) {
            writeTreeJson(out, asset, {p.depth, p.values});
            out << "\n";
        } else {
            for (int r : asset.roots()) printTree(asset, r, 0, p.depth, out);
        }
    }
    if (gExitAfterRun) {
        delete gKeptResult;  // a second run() in the same process (never from main)
        gKeptResult = kept.release();
    }
    return 0;
}

}  // namespace meshscope::cli
