// JSON and text reports over a decoded Asset for meshscope-cli. The JSON shapes are a contract
// that scripts rely on: keys are only ever added, never renamed or given new meanings.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "meshscope/core/asset.h"

namespace meshscope::cli {

// `info --json`: {"format", "version", "meshes": [...], "bones": [...], "facs": null|{...},
// "warnings": [...]} plus, for models, "instances", "classes" and "terrain" (null, or {"chunks",
// "solidVoxels", "waterVoxels", "materials": {"Grass": N ...}, "triangles", "waterTriangles",
// "runs", "complete"}).
nlohmann::ordered_json infoJson(const Asset& asset);
// `info`: the same facts for people.
std::string infoText(const Asset& asset, const std::string& fileName);
// `tree --json` options: how deep to go (roots are depth 0; -1 for the whole tree) and whether
// to write properties (false: the shape only).
struct TreeJsonOptions {
    int depth = -1;
    bool values = true;
};
// `tree --json`: {"roots": [{"class", "name", "properties", "children", "id"}], "sharedStrings":
// [{"size", "base64"}]}. A SharedString value is {"sharedString": index into sharedStrings}: its
// content is written once. A string value that is not UTF-8 (a BinaryString's bytes) is
// {"base64": "..."} instead of lossy text. A node whose children are cut by `depth` has
// "childrenOmitted": count and an empty "children". With values off, nodes have no "properties"
// and there is no "sharedStrings" table.
nlohmann::ordered_json treeJson(const Asset& asset, const TreeJsonOptions& options = {});
// `tree --json` written as it goes: the same bytes as dumpJson(treeJson(asset, options)) (no final
// newline), without the document in memory. A place's tree as one nlohmann document took 411 MB
// for a 3 MB, 57 000-instance place; this holds one node's properties at a time. A node listed
// twice (under two parents, or as a root and a child) would be placed by treeJson's post-order
// walk: such an asset is written through treeJson.
void writeTreeJson(std::ostream& out, const Asset& asset, const TreeJsonOptions& options = {});
nlohmann::ordered_json valueJson(const Value& value);
// True when `s` is valid UTF-8 (JSON can carry it as text without loss).
bool isUtf8(std::string_view s);
// Serialises a report. Names and strings come from the file and need not be UTF-8: invalid bytes
// are written as U+FFFD instead of failing (JSON text must be UTF-8).
std::string dumpJson(const nlohmann::ordered_json& json, int indent = 2);
// `map`: one range per line: offset, length, path.
std::string mapText(const Asset& asset);

}  // namespace meshscope::cli
