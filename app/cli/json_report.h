// JSON and text reports over a decoded Asset for meshscope-cli. The JSON shapes are a contract
// that scripts rely on: keys are only ever added, never renamed or given new meanings.
#pragma once

#include <nlohmann/json.hpp>
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
// `tree --json`: {"roots": [{"class", "name", "properties", "children"}]}.
nlohmann::ordered_json treeJson(const Asset& asset);
nlohmann::ordered_json valueJson(const Value& value);
// Serialises a report. Names and strings come from the file and need not be UTF-8: invalid bytes
// are written as U+FFFD instead of failing (JSON text must be UTF-8).
std::string dumpJson(const nlohmann::ordered_json& json, int indent = 2);
// `map`: one range per line: offset, length, path.
std::string mapText(const Asset& asset);

}  // namespace meshscope::cli
