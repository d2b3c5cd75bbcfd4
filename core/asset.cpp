// Asset model helpers and diagnostics formatting.
#include "meshscope/core/asset.h"

#include <cstdio>

namespace meshscope {

namespace {
std::string formatDiagnostic(std::uint64_t offset, const std::string& context,
                             const std::string& message) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "offset 0x%llx", static_cast<unsigned long long>(offset));
    std::string s = buf;
    if (!context.empty()) s += " (" + context + ")";
    s += ": " + message;
    return s;
}
}  // namespace

std::string Diagnostic::toString() const { return formatDiagnostic(offset, context, message); }
std::string DecodeError::toString() const { return formatDiagnostic(offset, context, message); }

void Mesh::computeBounds() {
    bounds = {};
    for (const auto& p : positions) bounds.add(p);
}

int Skeleton::find(const std::string& n) const {
    for (std::size_t i = 0; i < bones.size(); ++i)
        if (bones[i].name == n) return static_cast<int>(i);
    return -1;
}

std::vector<std::string> FacsRig::columnNames() const {
    std::vector<std::string> names = controlNames;
    for (const auto& c : correctives) {
        std::string n;
        for (std::size_t i = 0; i < c.size(); ++i) {
            if (i) n += "_";
            n += c[i] < controlNames.size() ? controlNames[c[i]] : "?";
        }
        names.push_back(std::move(n));
    }
    return names;
}

const Property* Node::property(const std::string& n) const {
    for (const auto& p : properties)
        if (p.name == n) return &p;
    return nullptr;
}

int Asset::addNode(std::string name, std::string kind, int parent) {
    Node n;
    n.name = std::move(name);
    n.kind = std::move(kind);
    n.parent = parent;
    nodes.push_back(std::move(n));
    const int index = static_cast<int>(nodes.size() - 1);
    if (parent >= 0 && parent < index) nodes[parent].children.push_back(index);
    return index;
}

std::vector<int> Asset::roots() const {
    std::vector<int> r;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].parent < 0) r.push_back(static_cast<int>(i));
    return r;
}

std::size_t Asset::warningCount() const {
    std::size_t n = 0;
    for (const auto& d : diagnostics) n += d.severity == Severity::Warning;
    return n;
}

Bounds Asset::bounds() const {
    Bounds b;
    for (const auto& m : meshes) b.add(m.bounds);
    return b;
}

}  // namespace meshscope
