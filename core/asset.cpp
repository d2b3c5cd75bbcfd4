// Asset model helpers and diagnostics formatting.
#include "meshscope/core/asset.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "meshscope/core/axes.h"

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

std::string Diagnostic::toString() const {
    return formatDiagnostic(offset, context, message);
}
std::string DecodeError::toString() const {
    return formatDiagnostic(offset, context, message);
}

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

namespace {

// The slot of a StringTable's open-addressed index that holds `s`, or the empty one where it
// would go (`slots` is not empty, and never full).
std::size_t slotOf(const std::vector<std::uint32_t>& slots, const std::vector<std::string>& strings,
                   std::string_view s) {
    const std::size_t mask = slots.size() - 1;
    std::size_t at = std::hash<std::string_view>{}(s)&mask;
    while (slots[at] != 0 && strings[slots[at]] != s) at = (at + 1) & mask;
    return at;
}

}  // namespace

std::uint32_t StringTable::intern(std::string_view s) {
    // Nodes tend to come in runs of one kind: the string interned last is tried first.
    if (strings_[last_] == s) return last_;
    if (s.empty()) return last_ = 0;
    if (slots_.empty()) grow();
    const std::size_t at = slotOf(slots_, strings_, s);
    if (slots_[at] != 0) return last_ = slots_[at];
    if (strings_.size() >= UINT32_MAX) throw std::length_error("too many distinct strings");
    const auto i = std::uint32_t(strings_.size());
    strings_.emplace_back(s);
    slots_[at] = i;
    if (2 * strings_.size() > slots_.size()) grow();
    return last_ = i;
}

std::uint32_t StringTable::find(std::string_view s) const {
    return s.empty() || slots_.empty() ? 0 : slots_[slotOf(slots_, strings_, s)];
}

void StringTable::grow() {
    std::vector<std::uint32_t> slots(std::bit_ceil(std::max<std::size_t>(64, 4 * strings_.size())),
                                     0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t i = 1; i < strings_.size(); ++i) {
        std::size_t at = std::hash<std::string_view>{}(strings_[i]) & mask;
        while (slots[at] != 0) at = (at + 1) & mask;
        slots[at] = i;
    }
    slots_ = std::move(slots);
}

std::size_t PropertyColumn::rows() const {
    switch (storage) {
        case Storage::Bool:
            return bytes.size();
        case Storage::Int32:
        case Storage::UInt32:
            return numbers.size<std::uint32_t>();
        case Storage::Double:
            return numbers.size<double>();
        case Storage::Vec2:
            return numbers.size<Vec2>();
        case Storage::Vec3:
            return numbers.size<Vec3>();
        case Storage::Ref:
            return numbers.size<std::int32_t>();
        case Storage::String:
        case Storage::Binary:
            if (ends.empty() && recordSize)
                return bytes.size() >= first ? (bytes.size() - first) / recordSize : 0;
            return ends.size();
        case Storage::Tuple:
            return ends.size();
        case Storage::Record: {
            const std::size_t planes =
                recordSize && bytes.size() >= first ? (bytes.size() - first) / recordSize : 0;
            return headSize ? std::min(planes, numbers.size<std::uint32_t>()) : planes;
        }
        case Storage::Values:
            return values.size();
        case Storage::Shared:
            return numbers.size<std::uint32_t>();
    }
    return 0;
}

namespace {

// Row `row` of a String or Binary column: [start, end) of its bytes, empty when the column's
// fields disagree with its bytes.
std::pair<std::size_t, std::size_t> rowRange(const PropertyColumn& c, std::size_t row) {
    if (c.ends.empty()) {  // rows of recordSize bytes (row < rows(): they are in the bytes)
        const std::uint64_t end = c.first + (row + 1) * std::uint64_t(c.recordSize);
        const std::uint64_t start = end - c.recordSize + c.rowPrefix;
        if (start > end) return {0, 0};
        return {std::size_t(start), std::size_t(end)};
    }
    const std::uint64_t start = (row ? c.ends[row - 1] : c.first) + c.rowPrefix;
    const std::uint64_t end = c.ends[row];
    if (start > end || end > c.bytes.size()) return {0, 0};
    return {std::size_t(start), std::size_t(end)};
}

}  // namespace

std::string_view PropertyColumn::text(std::size_t row) const {
    if (storage != Storage::String || row >= rows()) return {};
    const auto [start, end] = rowRange(*this, row);
    return {reinterpret_cast<const char*>(bytes.data()) + start, end - start};
}

std::size_t PropertyColumn::texts(std::size_t from, std::size_t to, std::string_view* out) const {
    if (storage != Storage::String) return 0;
    to = std::min(to, rows());
    if (from >= to) return 0;
    const char* base = reinterpret_cast<const char*>(bytes.data());
    for (std::size_t r = from; r < to; ++r) {
        const auto [start, end] = rowRange(*this, r);
        out[r - from] = {base + start, end - start};
    }
    return to - from;
}

Value PropertyColumn::value(std::size_t row) const {
    if (storage == Storage::Record) {
        // Byte planes as the binary format interleaves them: byte b of row r is at
        // bytes[first + b * rows + r]. (First: the viewer reads millions of these.)
        if (!record || recordSize == 0 || recordSize > 64 || headSize > 64 - recordSize ||
            bytes.size() < first)
            return {};
        const std::size_t n = (bytes.size() - std::size_t(first)) / recordSize;
        if (row >= n) return {};
        std::uint8_t rec[64];
        if (headSize) {
            const auto heads = u32s();
            if (row >= heads.size()) return {};
            const std::size_t at = heads[row];
            const std::size_t have =
                at < bytes.size() ? std::min<std::size_t>(headSize, bytes.size() - at) : 0;
            if (have) std::memcpy(rec, bytes.data() + at, have);
            std::memset(rec + have, 0, headSize - have);
        }
        const std::uint8_t* p = bytes.data() + first + row;
        for (std::uint32_t b = 0; b < recordSize; ++b, p += n) rec[headSize + b] = *p;
        return record(rec);
    }
    if (row >= rows()) return {};
    switch (storage) {
        case Storage::Bool:
            return bytes[row] != 0;
        case Storage::Int32:
            return std::int64_t(std::int32_t(u32s()[row]));
        case Storage::UInt32:
            return std::int64_t(u32s()[row]);
        case Storage::Double:
            return doubles()[row];
        case Storage::Vec2:
            return vec2s()[row];
        case Storage::Vec3:
            return vec3s()[row];
        case Storage::Ref:
            return NodeRef{refs()[row]};
        case Storage::String:
            return std::string(text(row));
        case Storage::Binary: {
            const auto [start, end] = rowRange(*this, row);
            return Bytes(bytes.begin() + std::ptrdiff_t(start),
                         bytes.begin() + std::ptrdiff_t(end));
        }
        case Storage::Tuple: {
            const std::uint64_t start = row ? ends[row - 1] : 0;
            const auto d = doubles();
            if (start > ends[row] || ends[row] > d.size()) return {};
            return std::vector<double>(d.begin() + std::ptrdiff_t(start),
                                       d.begin() + std::ptrdiff_t(ends[row]));
        }
        case Storage::Record:
            return {};  // above
        case Storage::Values:
            return values[row];
        case Storage::Shared: {
            const std::uint32_t i = u32s()[row];
            return i == kNoSharedString ? Value() : Value(SharedStringRef{i});
        }
    }
    return {};
}

const PropertyColumn* PropertyTable::column(std::string_view n) const {
    for (const auto& c : columns)
        if (c.name == n) return &c;
    return nullptr;
}

int Asset::addNode(std::string_view name, std::string_view kind, int parent) {
    const int index = static_cast<int>(nodes.size());
    Node& n = nodes.emplace_back();
    n.parent = parent;
    setName(index, name);
    n.kindId = kinds.intern(kind);
    if (parent >= 0 && parent < index) addChild(parent, index);
    return index;
}

namespace {
bool inRange(int node, std::size_t count) {
    return node >= 0 && std::size_t(node) < count;
}
}  // namespace

std::string_view Asset::name(int node) const {
    if (!inRange(node, nodes.size())) return {};
    const Node& n = nodes[std::size_t(node)];
    if (n.nameAt > nodeText.size() || n.nameSize > nodeText.size() - n.nameAt) return {};
    return std::string_view(nodeText).substr(n.nameAt, n.nameSize);
}

std::string_view Asset::kind(int node) const {
    return inRange(node, nodes.size()) ? kinds[nodes[std::size_t(node)].kindId]
                                       : std::string_view();
}

std::string_view Asset::nameOrKind(int node) const {
    const std::string_view n = name(node);
    return n.empty() ? kind(node) : n;
}

std::span<const int> Asset::children(int node) const {
    if (!inRange(node, nodes.size())) return {};
    const int list = nodes[std::size_t(node)].childList;
    return inRange(list, childLists.size()) ? std::span<const int>(childLists[std::size_t(list)])
                                            : std::span<const int>();
}

std::span<const Property> Asset::ownProperties(int node) const {
    if (!inRange(node, nodes.size())) return {};
    const int list = nodes[std::size_t(node)].propertyList;
    return inRange(list, propertyLists.size())
               ? std::span<const Property>(propertyLists[std::size_t(list)])
               : std::span<const Property>();
}

const Property* Asset::ownProperty(int node, std::string_view n) const {
    for (const Property& p : ownProperties(node))
        if (p.name == n) return &p;
    return nullptr;
}

void Asset::setName(int node, std::string_view name) {
    Node& n = nodes.at(std::size_t(node));
    if (name.size() > UINT32_MAX - nodeText.size())
        throw std::length_error("node names exceed 4 GiB");
    n.nameAt = std::uint32_t(nodeText.size());
    n.nameSize = std::uint32_t(name.size());
    nodeText.append(name);
}

void Asset::setKind(int node, std::string_view kind) {
    nodes.at(std::size_t(node)).kindId = kinds.intern(kind);
}

void Asset::addChild(int parent, int child) {
    childList(parent).push_back(child);
}

void Asset::addProperty(int node, Property property) {
    propertyList(node).push_back(std::move(property));
}

namespace {

// The list a node's handle names in `lists`, made (empty, at the end) when the handle names none.
template <typename List>
List& listOf(Node& n, int Node::*handle, std::vector<List>& lists) {
    if (!inRange(n.*handle, lists.size())) {
        n.*handle = int(lists.size());
        lists.emplace_back();
    }
    return lists[std::size_t(n.*handle)];
}

}  // namespace

std::vector<int>& Asset::childList(int node) {
    return listOf(nodes.at(std::size_t(node)), &Node::childList, childLists);
}

std::vector<Property>& Asset::propertyList(int node) {
    return listOf(nodes.at(std::size_t(node)), &Node::propertyList, propertyLists);
}

const NodeLinks& Asset::links(int node) const {
    static const NodeLinks none;
    if (!inRange(node, nodes.size())) return none;
    const int list = nodes[std::size_t(node)].linkList;
    return inRange(list, nodeLinks.size()) ? nodeLinks[std::size_t(list)] : none;
}

NodeLinks& Asset::linksOf(int node) {
    return listOf(nodes.at(std::size_t(node)), &Node::linkList, nodeLinks);
}

std::vector<Property> Asset::properties(int node) const {
    std::vector<Property> out;
    if (!inRange(node, nodes.size())) return out;
    const Node& n = nodes[std::size_t(node)];
    out.reserve(propertyCount(node));
    const std::span<const Property> own = ownProperties(node);
    out.insert(out.end(), own.begin(), own.end());
    if (n.table >= 0 && std::size_t(n.table) < propertyTables.size()) {
        for (const auto& c : propertyTables[std::size_t(n.table)].columns)
            if (n.row < c.rows())
                out.push_back(
                    {std::string(c.name), std::string(c.type), c.value(n.row), c.offset, c.length});
    }
    return out;
}

std::size_t Asset::propertyCount(int node) const {
    if (node < 0 || std::size_t(node) >= nodes.size()) return 0;
    const Node& n = nodes[std::size_t(node)];
    std::size_t count = ownProperties(node).size();
    if (n.table >= 0 && std::size_t(n.table) < propertyTables.size())
        for (const auto& c : propertyTables[std::size_t(n.table)].columns)
            count += n.row < c.rows();
    return count;
}

namespace {

// Where property() finds a node's property of that name: its own list first, then the first
// column of its table with a row for it (both null when there is none).
struct FoundProperty {
    const Property* own = nullptr;
    const PropertyColumn* column = nullptr;
};

FoundProperty findProperty(const Asset& asset, int node, std::string_view name) {
    if (node < 0 || std::size_t(node) >= asset.nodes.size()) return {};
    if (const Property* p = asset.ownProperty(node, name)) return {p, nullptr};
    const Node& n = asset.nodes[std::size_t(node)];
    if (n.table >= 0 && std::size_t(n.table) < asset.propertyTables.size())
        for (const auto& c : asset.propertyTables[std::size_t(n.table)].columns)
            if (c.name == name && n.row < c.rows()) return {nullptr, &c};
    return {};
}

}  // namespace

std::optional<Property> Asset::property(int node, std::string_view name) const {
    const FoundProperty f = findProperty(*this, node, name);
    if (f.own) return *f.own;
    if (!f.column) return std::nullopt;
    const PropertyColumn& c = *f.column;
    return Property{std::string(c.name), std::string(c.type), c.value(nodes[std::size_t(node)].row),
                    c.offset, c.length};
}

std::optional<Value> Asset::propertyValue(int node, std::string_view name) const {
    const FoundProperty f = findProperty(*this, node, name);
    if (f.own) return f.own->value;
    if (!f.column) return std::nullopt;
    return f.column->value(nodes[std::size_t(node)].row);
}

std::vector<int> Asset::roots() const {
    std::vector<int> r;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].parent < 0) r.push_back(static_cast<int>(i));
    return r;
}

std::string_view Asset::textOf(const Value& value) const {
    if (const auto* s = std::get_if<std::string>(&value)) return *s;
    if (const auto* r = std::get_if<SharedStringRef>(&value)) return sharedString(r->index);
    return {};
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

UpAxis upAxisOfFormat(std::string_view format) {
    return format == "secondlife-mesh" || format == "unigine" ? UpAxis::Z : UpAxis::Y;
}

UpAxis upAxisOf(const Asset& asset) {
    return upAxisOfFormat(asset.format);
}

float frontViewYawDegrees(const Asset& asset) {
    // 35 degrees to the right of straight on.
    constexpr float kThreeQuarter = -35.f;
    if (asset.format == "unigine") return 360.f + kThreeQuarter;         // front +Z (turned)
    if (asset.format == "secondlife-mesh") return 90.f + kThreeQuarter;  // front +X
    return 180.f + kThreeQuarter;                                        // front -Z
}

bool isPhysicsMesh(const Asset& asset, const Mesh& mesh) {
    return asset.format == "secondlife-mesh" &&
           (mesh.name == "physics_mesh" || mesh.name == "physics_convex");
}

}  // namespace meshscope
