// meshscope-cli export / convert (see export_command.h): argument parsing, the guard against
// overwriting the input, and the report. The work itself is core's.
#include "export_command.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include "meshscope/core/decode.h"
#include "meshscope/core/export.h"
#include "meshscope/core/roblox_animation.h"

namespace meshscope::cli {

namespace {

constexpr const char* kExportUsage =
    "Usage: meshscope-cli export --to glb|gltf|obj [--lod N] [--all-lods] [--physics]\n"
    "       [--all-services] [--asset-folder DIR]... [--animation ANIM] FILE OUT\n"
    "  Writes LOD N (default 0) of every mesh, Y-up; glTF also the skeleton as a skin, FACS\n"
    "  controls as morph targets and a model's parts as nodes; OBJ (+ .mtl) the meshes and parts.\n"
    "  --all-lods  glTF: the other levels too, as MSFT_lod alternates of the chosen one\n"
    "  --physics   physics meshes and hulls too (glTF: under a hidden \"physics\" node)\n"
    "  --all-services  a place's parts outside Workspace too (ReplicatedStorage, ...); by\n"
    "              default only what Roblox Studio draws\n"
    "  --asset-folder DIR  where a CSG union's AssetId is looked up (unions whose blob is in\n"
    "              the file need none); repeatable\n"
    "  --animation ANIM  glTF: also the animations of ANIM, played on FILE's rig or skeleton:\n"
    "              a Roblox KeyframeSequence or CurveAnimation (.rbxm/.rbxmx) baked on FILE's\n"
    "              Roblox rig at 30 fps, or Unigine .sanim / .anim / .smesh frames on the\n"
    "              skeleton naming their bones; joints match by name, tracks naming none are\n"
    "              counted in a warning\n"
    "  Exit status: 0 written, 1 input unreadable or output not written, 2 usage,\n"
    "  3 nothing to export (no mesh, skeleton or visible part).\n";
constexpr const char* kConvertUsage =
    "Usage: meshscope-cli convert --to 2.00|3.00|4.00|5.00|6.00|7.00 FILE OUT\n"
    "  Rewrites the file's mesh as that FileMesh version (also 3.01, 4.01); each feature the\n"
    "  version cannot hold is dropped with a warning.\n";

struct Args {
    std::optional<std::string> to;
    std::optional<std::string> lod;
    std::optional<std::string> animation;
    std::vector<std::string> assetFolders;
    bool allLods = false;
    bool allServices = false;
    bool physics = false;
    bool help = false;
    std::vector<std::string> positional;
    std::string error;
};

Args parseArgs(const std::vector<std::string>& args, bool allowLod) {
    Args a;
    for (std::size_t i = 0; i < args.size() && a.error.empty(); ++i) {
        const std::string& s = args[i];
        auto value = [&](const std::string& name, std::optional<std::string>& slot) {
            if (s == name) {
                if (i + 1 >= args.size())
                    a.error = name + " needs a value";
                else
                    slot = args[++i];
                return true;
            }
            if (s.starts_with(name + "=")) {
                slot = s.substr(name.size() + 1);
                return true;
            }
            return false;
        };
        if (s == "--help" || s == "-h") {
            a.help = true;
            return a;
        }
        if (value("--to", a.to)) continue;
        if (allowLod && value("--lod", a.lod)) continue;
        if (allowLod && value("--animation", a.animation)) continue;
        if (std::optional<std::string> folder; allowLod && value("--asset-folder", folder)) {
            if (folder) a.assetFolders.push_back(*folder);
            continue;
        }
        if (allowLod && s == "--all-lods") {
            a.allLods = true;
            continue;
        }
        if (allowLod && s == "--physics") {
            a.physics = true;
            continue;
        }
        if (allowLod && s == "--all-services") {
            a.allServices = true;
            continue;
        }
        if (s.size() > 1 && s[0] == '-')
            a.error = "unknown option " + s;
        else
            a.positional.push_back(s);
    }
    if (a.error.empty() && !a.to) a.error = "--to is required";
    if (a.error.empty() && a.positional.size() != 2) a.error = "FILE and OUT are required";
    return a;
}

bool samePath(const std::string& a, const std::string& b) {
    std::error_code ec;
    if (std::filesystem::equivalent(a, b, ec)) return true;
    const auto ca = std::filesystem::weakly_canonical(a, ec);
    if (ec) return a == b;
    const auto cb = std::filesystem::weakly_canonical(b, ec);
    if (ec) return a == b;
    return ca == cb;
}

// The input file is never written: refuse any output that is the input.
bool overwritesInput(const std::string& input, const std::vector<std::string>& outputs,
                     std::ostream& err, const char* command) {
    for (const auto& o : outputs)
        if (samePath(input, o)) {
            err << "meshscope-cli " << command << ": " << o
                << " is the input file; choose another OUT\n";
            return true;
        }
    return false;
}

bool decode(const std::string& file, DecodeResult& result, std::ostream& err) {
    result = decodeFile(file);
    if (result.ok()) return true;
    err << file << ": " << result.error->toString() << "\n";
    return false;
}

}  // namespace

int runExport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const Args a = parseArgs(args, true);
    if (a.help) {
        out << kExportUsage;
        return 0;
    }
    if (!a.error.empty()) {
        err << "meshscope-cli export: " << a.error << "\n" << kExportUsage;
        return 2;
    }
    ExportOptions options;
    const auto format = parseExportFormat(*a.to);
    if (!format) {
        err << "meshscope-cli export: unknown format \"" << *a.to << "\" (glb, gltf or obj)\n";
        return 2;
    }
    options.format = *format;
    options.assetFolders = a.assetFolders;
    if (a.lod) {
        int lod = -1;
        const auto& t = *a.lod;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), lod);
        if (t.empty() || ec != std::errc() || end != t.data() + t.size() || lod < 0) {
            err << "meshscope-cli export: --lod takes a level number >= 0, not \"" << t << "\"\n";
            return 2;
        }
        options.lod = lod;
    }
    options.allLods = a.allLods;
    options.physics = a.physics;
    options.allServices = a.allServices;
    if (a.animation && options.format == ExportFormat::Obj) {
        err << "meshscope-cli export: --animation needs --to glb or gltf (OBJ holds no "
               "animation)\n";
        return 2;
    }
    const std::string& file = a.positional[0];
    const std::string& target = a.positional[1];
    if (overwritesInput(file, exportFilePaths(target, options.format), err, "export")) return 2;
    DecodeResult result;
    if (!decode(file, result, err)) return 1;
    if (a.animation) {
        DecodeResult anim;
        if (!decode(*a.animation, anim, err)) return 1;
        const AnimationTransfer t = addAnimationsFrom(result.asset, anim.asset);
        for (const auto& w : t.warnings) err << "warning: " << *a.animation << ": " << w << "\n";
        if (!t.ok()) {
            err << "meshscope-cli export: " << *a.animation << ": " << t.error << "\n";
            return 1;
        }
    }
    const ExportResult r = exportAsset(result.asset, target, options);
    for (const auto& w : r.warnings) err << "warning: " << w << "\n";
    if (!r.ok()) {
        err << "meshscope-cli export: " << *r.error << "\n";
        return r.nothingToExport ? 3 : 1;
    }
    const ExportStats& s = r.stats;
    out << "wrote";
    for (const auto& f : r.files) out << " " << f;
    out << "\n  " << s.meshes << " meshes, " << s.vertices << " vertices, " << s.triangles
        << " triangles";
    if (s.lines) out << ", " << s.lines << " line segments";
    if (s.points) out << ", " << s.points << " points";
    if (s.skins) out << ", " << s.skins << " skins (" << s.joints << " joints)";
    if (s.morphTargets) out << ", " << s.morphTargets << " morph targets";
    if (s.parts) out << ", " << s.parts << " parts";
    if (s.animations)
        out << ", " << s.animations << " animations (" << s.animationChannels << " channels)";
    out << ", " << r.warnings.size() << " warnings\n";
    return 0;
}

int runConvert(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const Args a = parseArgs(args, false);
    if (a.help) {
        out << kConvertUsage;
        return 0;
    }
    if (!a.error.empty()) {
        err << "meshscope-cli convert: " << a.error << "\n" << kConvertUsage;
        return 2;
    }
    static const char* known[] = {"2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"};
    if (std::find(std::begin(known), std::end(known), *a.to) == std::end(known)) {
        err << "meshscope-cli convert: cannot write FileMesh version \"" << *a.to << "\"\n"
            << kConvertUsage;
        return 2;
    }
    const std::string& file = a.positional[0];
    const std::string& target = a.positional[1];
    if (overwritesInput(file, {target}, err, "convert")) return 2;
    DecodeResult result;
    if (!decode(file, result, err)) return 1;
    const FileMeshWriteResult r = convertToFileMesh(result.asset, *a.to);
    for (const auto& w : r.warnings) err << "warning: " << w << "\n";
    if (!r.ok()) {
        err << "meshscope-cli convert: " << *r.error << "\n";
        return 1;
    }
    std::ofstream f(target, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(r.bytes.data()), std::streamsize(r.bytes.size()));
    f.close();
    if (!f) {
        err << "meshscope-cli convert: cannot write " << target << "\n";
        return 1;
    }
    out << "wrote " << target << " (FileMesh " << *a.to << ", " << r.bytes.size() << " bytes, "
        << r.warnings.size() << " warnings)\n";
    return 0;
}

}  // namespace meshscope::cli
