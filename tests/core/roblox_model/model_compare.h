// Test helpers for Roblox model trees: structural comparison of two decoded instance trees
// (children matched by class and name, properties by name, floats within a tolerance, Refs
// through the node matching), and a small raw-chunk builder for hand-made broken files.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "formats/roblox_model/model_values.h"
#include "meshscope/core/asset.h"

namespace meshscope::test {

struct CompareOptions {
    double tolerance = 1e-5;
    // Instances (by class or name) that may appear only on the left side: binary places hold
    // Instance "FilteredSelection" children their XML twin lacks.
    std::set<std::string> extraLeft;
    bool compareTypes = true;
};

// Type names that are the same binary type: XML distinguishes string flavours the binary format
// stores as one String (and <Content> covers both legacy ContentId and the Content type); XML
// writes BrickColor values as <int> (rbx-test-files three-brickcolorvalues).
inline std::string typeFamily(const std::string& t) {
    if (t == "string" || t == "BinaryString" || t == "ProtectedString" || t == "Content")
        return "string";
    if (t == "BrickColor") return "int32";
    return t;
}

class TreeComparer {
public:
    TreeComparer(const Asset& left, const Asset& right, CompareOptions o)
        : l_(left), r_(right), o_(std::move(o)) {}

    // Returns the differences found (empty when the trees agree).
    std::vector<std::string> run() {
        matchChildren(l_.roots(), r_.roots(), "");
        for (const auto& [li, ri] : pairs_) compareProperties(li, ri);
        return diffs_;
    }
    const std::map<int, int>& matching() const { return leftToRight_; }

private:
    std::string label(const Asset& a, int n) const {
        return std::string(a.kind(n)) + " \"" + std::string(a.name(n)) + "\"";
    }

    void matchChildren(std::span<const int> left, std::span<const int> right,
                       const std::string& path) {
        std::vector<char> used(right.size(), 0);
        for (int li : left) {
            const std::string lkind(l_.kind(li)), lname(l_.name(li));
            int found = -1;
            for (std::size_t k = 0; k < right.size(); ++k) {
                if (used[k]) continue;
                if (r_.kind(right[k]) == lkind && r_.name(right[k]) == lname) {
                    found = int(k);
                    break;
                }
            }
            if (found < 0) {
                if (!o_.extraLeft.count(lkind) && !o_.extraLeft.count(lname))
                    diffs_.push_back(path + "/" + label(l_, li) + ": missing on the right");
                continue;
            }
            used[found] = 1;
            const int ri = right[found];
            pairs_.push_back({li, ri});
            leftToRight_[li] = ri;
            matchChildren(l_.children(li), r_.children(ri), path + "/" + label(l_, li));
        }
        for (std::size_t k = 0; k < right.size(); ++k)
            if (!used[k])
                diffs_.push_back(path + "/" + label(r_, right[k]) + ": missing on the left");
    }

    bool near(double a, double b) const {
        if (std::isnan(a) && std::isnan(b)) return true;
        if (a == b) return true;
        return std::fabs(a - b) <=
               o_.tolerance * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
    }

    bool sameValue(const Value& a, const Value& b) const {
        // Shared strings are compared by content: each asset numbers its own.
        const bool sharedA = std::holds_alternative<SharedStringRef>(a);
        const bool sharedB = std::holds_alternative<SharedStringRef>(b);
        if (sharedA || sharedB) {
            const bool textA = sharedA || std::holds_alternative<std::string>(a);
            const bool textB = sharedB || std::holds_alternative<std::string>(b);
            return textA && textB && l_.textOf(a) == r_.textOf(b);
        }
        if (a.index() != b.index()) return false;
        if (auto x = std::get_if<double>(&a)) return near(*x, std::get<double>(b));
        if (auto x = std::get_if<Vec2>(&a)) {
            auto y = std::get<Vec2>(b);
            return near(x->x, y.x) && near(x->y, y.y);
        }
        if (auto x = std::get_if<Vec3>(&a)) {
            auto y = std::get<Vec3>(b);
            return near(x->x, y.x) && near(x->y, y.y) && near(x->z, y.z);
        }
        if (auto x = std::get_if<Vec4>(&a)) {
            auto y = std::get<Vec4>(b);
            return near(x->x, y.x) && near(x->y, y.y) && near(x->z, y.z) && near(x->w, y.w);
        }
        if (auto x = std::get_if<CFrame>(&a)) {
            auto y = std::get<CFrame>(b);
            for (int i = 0; i < 9; ++i)
                if (!near(x->rotation[i], y.rotation[i])) return false;
            return near(x->position.x, y.position.x) && near(x->position.y, y.position.y) &&
                   near(x->position.z, y.position.z);
        }
        if (auto x = std::get_if<std::vector<double>>(&a)) {
            auto& y = std::get<std::vector<double>>(b);
            if (x->size() != y.size()) return false;
            for (std::size_t i = 0; i < x->size(); ++i)
                if (!near((*x)[i], y[i])) return false;
            return true;
        }
        if (auto x = std::get_if<NodeRef>(&a)) {
            const int target = std::get<NodeRef>(b).node;
            if (x->node < 0) return target < 0;
            auto it = leftToRight_.find(x->node);
            return it != leftToRight_.end() && it->second == target;
        }
        return a == b;
    }

    void compareProperties(int li, int ri) {
        const std::vector<Property> lprops = l_.properties(li);
        const std::vector<Property> rprops = r_.properties(ri);
        const std::string where = label(l_, li);
        if (lprops.size() != rprops.size())
            diffs_.push_back(where + ": " + std::to_string(lprops.size()) + " vs " +
                             std::to_string(rprops.size()) + " properties");
        for (const auto& lp : lprops) {
            const auto rit = std::find_if(rprops.begin(), rprops.end(),
                                          [&](const Property& p) { return p.name == lp.name; });
            const Property* rp = rit == rprops.end() ? nullptr : &*rit;
            if (!rp) {
                diffs_.push_back(where + "." + lp.name + ": missing on the right");
                continue;
            }
            if (o_.compareTypes && typeFamily(lp.type) != typeFamily(rp->type))
                diffs_.push_back(where + "." + lp.name + ": type " + lp.type + " vs " + rp->type);
            if (!sameValue(lp.value, rp->value))
                diffs_.push_back(where + "." + lp.name + ": values differ");
        }
    }

    const Asset& l_;
    const Asset& r_;
    CompareOptions o_;
    std::vector<std::pair<int, int>> pairs_;
    std::map<int, int> leftToRight_;
    std::vector<std::string> diffs_;
};

inline std::string joinDiffs(const std::vector<std::string>& d, std::size_t max = 30) {
    std::ostringstream s;
    for (std::size_t i = 0; i < d.size() && i < max; ++i) s << "  " << d[i] << "\n";
    if (d.size() > max) s << "  ... " << d.size() - max << " more\n";
    return s.str();
}

// Hand-made binary files: header + raw (uncompressed) chunks.
class RawModel {
public:
    RawModel(std::int32_t classes, std::int32_t instances) {
        raw("<roblox!", 8);
        const std::uint8_t sig[6] = {0x89, 0xff, 0x0d, 0x0a, 0x1a, 0x0a};
        raw(sig, 6);
        le<std::uint16_t>(0);
        le(classes);
        le(instances);
        le<std::uint64_t>(0);
    }
    void chunk(const char* name, const Bytes& body) {
        raw(name, 4);
        le<std::uint32_t>(0);
        le(std::uint32_t(body.size()));
        le<std::uint32_t>(0);
        raw(body.data(), body.size());
    }
    void end() { chunk("END\0", Bytes{'<', '/', 'r', 'o', 'b', 'l', 'o', 'x', '>'}); }
    Bytes bytes;

    static void put(Bytes& b, const void* p, std::size_t n) {
        const auto* c = static_cast<const std::uint8_t*>(p);
        b.insert(b.end(), c, c + n);
    }
    template <typename T>
    static void put(Bytes& b, T v) {
        put(b, &v, sizeof v);
    }
    static void putString(Bytes& b, const std::string& s) {
        put(b, std::uint32_t(s.size()));
        put(b, s.data(), s.size());
    }
    // Accumulated, zigzag, interleaved referent array.
    static void putRefs(Bytes& b, const std::vector<std::int32_t>& refs) {
        Bytes rec(refs.size() * 4);
        std::int32_t prev = 0;
        for (std::size_t i = 0; i < refs.size(); ++i) {
            rbx::storeBe32(rec.data() + 4 * i, rbx::zigzag32(refs[i] - prev));
            prev = refs[i];
        }
        const std::size_t at = b.size();
        b.resize(at + rec.size());
        rbx::interleave(rec.data(), refs.size(), 4, b.data() + at);
    }
    static Bytes inst(std::uint32_t classId, const std::string& name,
                      const std::vector<std::int32_t>& refs) {
        Bytes b;
        put(b, classId);
        putString(b, name);
        put(b, std::uint8_t(0));
        put(b, std::uint32_t(refs.size()));
        putRefs(b, refs);
        return b;
    }
    // The start of a PROP chunk: class id, property name and type id; the values follow.
    static Bytes propHeader(std::uint32_t classId, const std::string& name, std::uint8_t type) {
        Bytes b;
        put(b, classId);
        putString(b, name);
        put(b, type);
        return b;
    }
    static Bytes prnt(const std::vector<std::int32_t>& children,
                      const std::vector<std::int32_t>& parents) {
        Bytes b;
        put(b, std::uint8_t(0));
        put(b, std::uint32_t(children.size()));
        putRefs(b, children);
        putRefs(b, parents);
        return b;
    }

private:
    void raw(const void* p, std::size_t n) { put(bytes, p, n); }
    template <typename T>
    void le(T v) {
        put(bytes, v);
    }
};

// The chunks of a binary model in `b`: the offset of the first chunk named `name` at or after
// `from` (the file size when there is none), and the end of the chunk at `at`.
inline std::size_t chunkEnd(const Bytes& b, std::size_t at) {
    std::uint32_t c, u;
    std::memcpy(&c, b.data() + at + 4, 4);
    std::memcpy(&u, b.data() + at + 8, 4);
    return at + 16 + (c ? c : u);
}

inline std::size_t chunkAt(const Bytes& b, const char* name, std::size_t from = 32) {
    for (std::size_t at = 32; at + 16 <= b.size(); at = chunkEnd(b, at))
        if (at >= from && std::memcmp(b.data() + at, name, 4) == 0) return at;
    return b.size();
}

}  // namespace meshscope::test
