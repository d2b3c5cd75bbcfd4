// Runs Blender in the background over exported files with a Python body the test supplies, and
// collects what the body prints (issues #23, #25). One Blender process per call: it imports each
// file into an empty scene and hands it to the body's `inspect(path, arg)`, which reports through
// `report(...)` (a "MESHSCOPE" line, fields separated by tabs).
//
// Debian 12's Blender 3.4 glTF importer uses numpy.bool, which Debian's numpy 1.24 no longer has:
// the script restores the alias before the importer loads. Every run first imports a trivial glTF
// (a small sphere); when Blender is missing, or cannot import even that, the run says why in
// `unavailable` and the test skips with that message.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gltf_validator_util.h"  // shellQuote
#include "meshscope/core/export.h"
#include "meshscope/core/mesh_generators.h"

namespace meshscope::test {

struct BlenderFile {
    std::filesystem::path path;
    std::string arg;  // passed to inspect(path, arg) as is (e.g. the times to sample)
};

struct BlenderRun {
    // Set when Blender cannot check here (not installed, or no glTF import at all): why.
    std::string unavailable;
    // The fields of every report(...) line of the body, in order (the "MESHSCOPE" tag left out).
    std::vector<std::vector<std::string>> reports;
    std::string output;  // everything Blender printed (for failure messages)
};

// The fields of `line` split at tabs.
inline std::vector<std::string> splitTabs(const std::string& line) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = line.find('\t', start);
        out.push_back(line.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

// Runs `blender -b --factory-startup --python SCRIPT -- PATH ARG ...` with SCRIPT = the numpy
// shim, `body` (Python defining `inspect(path, arg)`; `bpy`, `math`, `sys` and `report` are in
// scope) and a loop that, for the trivial glTF and then every file, resets Blender to an empty
// scene (24 fps), imports the file and calls inspect. An import or inspect that raises prints a
// "MESHSCOPE-FAILED" line with the error (in `output`). `dir` holds the script and the trivial
// file.
inline BlenderRun runBlender(const std::filesystem::path& dir, const std::string& body,
                             const std::vector<BlenderFile>& files) {
    BlenderRun run;
    if (std::system("command -v blender > /dev/null 2>&1") != 0) {
        run.unavailable = "Blender is not installed";
        return run;
    }
    const auto trivial = dir / "blender_trivial.glb";
    if (!exportAsset(makeUvSphere(2, 3), trivial.string(), ExportOptions{}).ok()) {
        run.unavailable = "cannot write the trivial glTF " + trivial.string();
        return run;
    }
    const auto script = dir / "blender_inspect.py";
    std::ofstream(script) << R"(import sys, math, traceback, warnings
try:
    import numpy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numpy.bool = bool
except ImportError:
    pass
import bpy

def report(*fields):
    print("MESHSCOPE\t" + "\t".join(str(f) for f in fields), flush=True)

)" << body << R"(

args = sys.argv[sys.argv.index("--") + 1:]
for i in range(0, len(args) - 1, 2):
    path, arg = args[i], args[i + 1]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        bpy.ops.import_scene.gltf(filepath=path)
    except Exception as e:
        print("MESHSCOPE-FAILED", path, e, flush=True)
        continue
    if i == 0:
        print("MESHSCOPE-TRIVIAL-OK", flush=True)
        continue
    try:
        inspect(path, arg)
    except Exception:
        print("MESHSCOPE-FAILED", path, traceback.format_exc(), flush=True)
)";
    std::string cmd = "blender -b --factory-startup --python " + shellQuote(script.string()) +
                      " -- " + shellQuote(trivial.string()) + " ''";
    for (const auto& f : files) cmd += " " + shellQuote(f.path.string()) + " " + shellQuote(f.arg);
    cmd += " 2>&1";
    const std::optional<std::string> output = commandOutput(cmd);
    if (!output) {
        run.unavailable = "cannot start blender";
        return run;
    }
    run.output = *output;
    if (run.output.find("MESHSCOPE-TRIVIAL-OK") == std::string::npos) {
        run.unavailable =
            "this Blender cannot import a trivial glTF (its glTF importer fails even with the "
            "numpy.bool shim; python3-numpy missing?):\n" +
            run.output;
        return run;
    }
    std::size_t start = 0;
    while (start < run.output.size()) {
        std::size_t end = run.output.find('\n', start);
        if (end == std::string::npos) end = run.output.size();
        const std::string line = run.output.substr(start, end - start);
        start = end + 1;
        if (line.starts_with("MESHSCOPE\t")) run.reports.push_back(splitTabs(line.substr(10)));
    }
    return run;
}

// Imports each of `files` into an empty Blender scene and reports, per file, a line
// "MESHSCOPE-FILE <path>", one line per mesh object "MESHSCOPE-OBJ <material slots> <name>" and
// one per material "MESHSCOPE-MAT <blend_method> <node links a.socket->b.socket;...> | <name>".
// nullopt when Blender cannot check here (`text` then says why).
inline std::optional<std::string> blenderMaterialReport(
    const std::vector<std::filesystem::path>& files, const std::filesystem::path& dir,
    std::string& text) {
    static const char* body = R"(def inspect(path, arg):
    report("FILE", path)
    for o in bpy.data.objects:
        if o.type == "MESH":
            report("OBJ", len(o.material_slots), o.name)
    for m in bpy.data.materials:
        links = [l.from_node.name + "." + l.from_socket.name + "->" + l.to_node.name + "." +
                 l.to_socket.name for l in m.node_tree.links] if m.node_tree else []
        report("MAT", m.blend_method, ";".join(links), "|", m.name)
)";
    std::vector<BlenderFile> inputs;
    for (const auto& f : files) inputs.push_back({f, ""});
    const BlenderRun run = runBlender(dir, body, inputs);
    text = run.unavailable.empty() ? run.output : run.unavailable;
    if (!run.unavailable.empty()) return std::nullopt;
    std::string report;
    for (const auto& fields : run.reports) {
        if (fields.empty()) continue;
        report += "MESHSCOPE-" + fields[0];
        for (std::size_t i = 1; i < fields.size(); ++i) report += " " + fields[i];
        report += "\n";
    }
    return report;
}

}  // namespace meshscope::test
