// Roblox binary model writer and the test model / place generators (see roblox_model_writer.h).
// Chunks are written in Studio's order: SSTR, INST per class, PROP per class and property,
// PRNT (pre-order, so children keep their order), END (never compressed).
#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "formats/roblox_model/model_values.h"
#include "meshscope/core/roblox_model_writer.h"

namespace meshscope {
namespace {

using namespace rbx;

class Out {
public:
    Bytes b;
    void u8(std::uint8_t v) { b.push_back(v); }
    void raw(const void* p, std::size_t n) {
        const auto* c = static_cast<const std::uint8_t*>(p);
        b.insert(b.end(), c, c + n);
    }
    template <typename T>
    void le(T v) {
        raw(&v, sizeof v);
    }
    void str(std::string_view s) {
        le(std::uint32_t(s.size()));
        raw(s.data(), s.size());
    }
    // `count` big-endian records of `width` bytes, interleaved.
    void interleaved(const Bytes& records, std::size_t count, std::size_t width) {
        const std::size_t at = b.size();
        b.resize(at + records.size());
        interleave(records.data(), count, width, b.data() + at);
    }
    void u32s(const std::vector<std::uint32_t>& v) {
        Bytes rec(v.size() * 4);
        for (std::size_t i = 0; i < v.size(); ++i) storeBe32(rec.data() + 4 * i, v[i]);
        interleaved(rec, v.size(), 4);
    }
    void u64s(const std::vector<std::uint64_t>& v) {
        Bytes rec(v.size() * 8);
        for (std::size_t i = 0; i < v.size(); ++i) storeBe64(rec.data() + 8 * i, v[i]);
        interleaved(rec, v.size(), 8);
    }
    void floats(const std::vector<float>& v) {
        std::vector<std::uint32_t> bits(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) bits[i] = robloxFloatBits(v[i]);
        u32s(bits);
    }
    void refs(const std::vector<std::int32_t>& v) {
        std::vector<std::uint32_t> deltas(v.size());
        std::int32_t prev = 0;
        for (std::size_t i = 0; i < v.size(); ++i) {
            deltas[i] = zigzag32(std::int32_t(std::uint32_t(v[i]) - std::uint32_t(prev)));
            prev = v[i];
        }
        u32s(deltas);
    }
};

template <typename T>
const T* as(const Value* v) {
    return v ? std::get_if<T>(v) : nullptr;
}

double num(const Value* v) {
    if (auto d = as<double>(v)) return *d;
    if (auto i = as<std::int64_t>(v)) return double(*i);
    if (auto b = as<bool>(v)) return *b ? 1 : 0;
    return 0;
}
std::int64_t integer(const Value* v) {
    if (auto i = as<std::int64_t>(v)) return *i;
    if (auto d = as<double>(v)) return std::int64_t(*d);
    if (auto b = as<bool>(v)) return *b;
    return 0;
}
std::string text(const Value* v) {
    if (auto s = as<std::string>(v)) return *s;
    if (auto b = as<Bytes>(v)) return std::string(b->begin(), b->end());
    return {};
}
std::vector<double> tuple(const Value* v, std::size_t n) {
    std::vector<double> t = v && std::holds_alternative<std::vector<double>>(*v)
                                ? std::get<std::vector<double>>(*v)
                                : std::vector<double>{};
    if (n) t.resize(n, 0.0);
    return t;
}
Vec3 vec3(const Value* v) {
    if (auto p = as<Vec3>(v)) return *p;
    return {};
}
Vec2 vec2(const Value* v) {
    if (auto p = as<Vec2>(v)) return *p;
    return {};
}
CFrame cframe(const Value* v) {
    if (auto p = as<CFrame>(v)) return *p;
    return {};
}

std::uint8_t toByte(float f) {
    return std::uint8_t(std::clamp(std::lround(f * 255.0f), 0L, 255L));
}

class Writer {
public:
    Writer(const Asset& asset, const RobloxModelWriteOptions& o, RobloxModelWriteResult& result)
        : asset_(asset), options_(o), result_(result) {}

    void run() {
        const auto& nodes = asset_.nodes;
        if (nodes.size() > std::size_t(INT32_MAX)) {
            result_.error = "too many instances";
            return;
        }
        // Classes in order of first appearance; referent of node i is i.
        std::vector<std::size_t> classOfKind(asset_.kinds.size(), SIZE_MAX);
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            // Instances decoded from a value (a union's ChildData) stay in that value.
            if (nodes[i].embedded) continue;
            ++written_;
            const std::uint32_t kind = nodes[i].kindId < asset_.kinds.size() ? nodes[i].kindId : 0;
            if (classOfKind[kind] == SIZE_MAX) {
                classOfKind[kind] = classes_.size();
                classes_.push_back({std::string(asset_.kinds[kind]), {}});
            }
            classes_[classOfKind[kind]].nodes.push_back(int(i));
        }
        std::vector<Bytes> props;
        for (std::uint32_t c = 0; c < classes_.size(); ++c) writeProps(c, props);

        Out file;
        file.raw("<roblox!", 8);
        const std::uint8_t sig[6] = {0x89, 0xff, 0x0d, 0x0a, 0x1a, 0x0a};
        file.raw(sig, 6);
        file.le(std::uint16_t(0));
        file.le(std::int32_t(classes_.size()));
        file.le(std::int32_t(written_));
        file.le(std::uint64_t(0));
        if (!sharedList_.empty()) {
            Out s;
            s.le(std::uint32_t(0));
            s.le(std::uint32_t(sharedList_.size()));
            for (const auto* str : sharedList_) {
                const std::uint8_t md5[16] = {};
                s.raw(md5, 16);
                s.str(*str);
            }
            chunk(file, "SSTR", s.b);
        }
        for (std::uint32_t c = 0; c < classes_.size(); ++c) {
            Out s;
            const auto& cls = classes_[c];
            const bool service = std::any_of(cls.nodes.begin(), cls.nodes.end(),
                                             [&](int n) { return nodes[n].service; });
            s.le(c);
            s.str(cls.name);
            s.u8(service ? 1 : 0);
            s.le(std::uint32_t(cls.nodes.size()));
            s.refs(std::vector<std::int32_t>(cls.nodes.begin(), cls.nodes.end()));
            if (service)
                for (int n : cls.nodes) s.u8(nodes[n].service ? 1 : 0);
            chunk(file, "INST", s.b);
        }
        for (const auto& p : props) chunk(file, "PROP", p);
        writePrnt(file);
        // END is never compressed.
        file.raw("END\0", 4);
        file.le(std::uint32_t(0));
        file.le(std::uint32_t(9));
        file.le(std::uint32_t(0));
        file.raw("</roblox>", 9);
        result_.bytes = std::move(file.b);
    }

private:
    // A node written as an instance (in range, not embedded).
    bool live(int node) const {
        return node >= 0 && std::size_t(node) < asset_.nodes.size() &&
               !asset_.nodes[std::size_t(node)].embedded;
    }
    std::size_t written_ = 0;  // instances written

    struct ClassNodes {
        std::string name;
        std::vector<int> nodes;
    };

    void chunk(Out& file, const char* name, const Bytes& body) {
        file.raw(name, 4);
        Bytes packed;
        if (options_.compression == RobloxChunkCompression::Lz4 && !body.empty()) {
            packed.resize(std::size_t(LZ4_compressBound(int(body.size()))));
            const int n = LZ4_compress_default(reinterpret_cast<const char*>(body.data()),
                                               reinterpret_cast<char*>(packed.data()),
                                               int(body.size()), int(packed.size()));
            packed.resize(n > 0 ? std::size_t(n) : 0);
        } else if (options_.compression == RobloxChunkCompression::Zstd && !body.empty()) {
            packed.resize(ZSTD_compressBound(body.size()));
            const std::size_t n = ZSTD_compress(packed.data(), packed.size(), body.data(),
                                                body.size(), options_.zstdLevel);
            packed.resize(ZSTD_isError(n) ? 0 : n);
        }
        file.le(std::uint32_t(packed.size()));
        file.le(std::uint32_t(body.size()));
        file.le(std::uint32_t(0));
        if (packed.empty())
            file.raw(body.data(), body.size());
        else
            file.raw(packed.data(), packed.size());
    }

    void writePrnt(Out& file) {
        const auto& nodes = asset_.nodes;
        std::vector<std::int32_t> children, parents;
        children.reserve(nodes.size());
        parents.reserve(nodes.size());
        std::vector<std::uint8_t> seen(nodes.size(), 0);
        for (std::size_t i = 0; i < nodes.size(); ++i) seen[i] = nodes[i].embedded;
        std::vector<int> stack;
        auto visit = [&](int root) {
            stack.push_back(root);
            while (!stack.empty()) {
                const int n = stack.back();
                stack.pop_back();
                if (n < 0 || std::size_t(n) >= nodes.size() || seen[n]) continue;
                seen[n] = 1;
                const int p = nodes[n].parent;
                children.push_back(n);
                parents.push_back(p >= 0 && std::size_t(p) < nodes.size() ? p : -1);
                const std::span<const int> ch = asset_.children(n);
                for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back(*it);
            }
        };
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].parent < 0) visit(int(i));
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (!seen[i]) visit(int(i));
        Out s;
        s.u8(0);
        s.le(std::uint32_t(children.size()));
        s.refs(children);
        s.refs(parents);
        chunk(file, "PRNT", s.b);
    }

    void writeProps(std::uint32_t classId, std::vector<Bytes>& out) {
        const auto& cls = classes_[classId];
        // Property names and types in order of first appearance within the class.
        std::vector<std::pair<std::string, std::string>> names;
        std::unordered_map<std::string, std::size_t> seen;
        std::vector<std::vector<Property>> props(cls.nodes.size());
        for (std::size_t i = 0; i < cls.nodes.size(); ++i) {
            props[i] = asset_.properties(cls.nodes[i]);
            for (const auto& p : props[i])
                if (seen.emplace(p.name, names.size()).second) names.push_back({p.name, p.type});
        }
        const bool needName = !seen.count("Name") &&
                              std::any_of(cls.nodes.begin(), cls.nodes.end(),
                                          [&](int n) { return asset_.name(n) != asset_.kind(n); });
        std::vector<const Value*> values(cls.nodes.size());
        std::vector<Value> nameValues;
        if (needName) {
            nameValues.reserve(cls.nodes.size());
            for (std::size_t i = 0; i < cls.nodes.size(); ++i) {
                nameValues.emplace_back(std::string(asset_.name(cls.nodes[i])));
                values[i] = &nameValues.back();
            }
            out.push_back(encodeProp(classId, "Name", kString, values));
        }
        for (const auto& [name, type] : names) {
            std::uint8_t id = typeIdForName(type);
            if (id == kContent) {
                // XML's <Content> also carries legacy ContentId strings; both fit type 0x22.
            }
            if (id == 0) {
                result_.warnings.push_back(cls.name + "." + name + ": type \"" + type +
                                           "\" has no binary type id; dropped");
                continue;
            }
            if (id == kCFrame && options_.quaternionCFrames) id = kCFrameQuat;
            for (std::size_t i = 0; i < cls.nodes.size(); ++i) {
                values[i] = nullptr;
                for (const auto& p : props[i]) {
                    if (p.name == name) {
                        if (p.type == type)
                            values[i] = &p.value;
                        else
                            result_.warnings.push_back(cls.name + "." + name +
                                                       ": mixed types; default value written");
                        break;
                    }
                }
            }
            out.push_back(encodeProp(classId, name, id, values));
        }
    }

    Bytes encodeProp(std::uint32_t classId, const std::string& name, std::uint8_t type,
                     const std::vector<const Value*>& v) {
        Out s;
        s.le(classId);
        s.str(name);
        s.u8(type);
        const std::size_t n = v.size();
        auto floatsOf = [&](auto get) {
            std::vector<float> f(n);
            for (std::size_t i = 0; i < n; ++i) f[i] = float(get(v[i]));
            s.floats(f);
        };
        switch (type) {
            case kString:
            case kBytecode:
                for (auto* x : v) s.str(text(x));
                break;
            case kBool:
                for (auto* x : v) s.u8(integer(x) ? 1 : 0);
                break;
            case kInt32: {
                std::vector<std::uint32_t> u(n);
                for (std::size_t i = 0; i < n; ++i) u[i] = zigzag32(std::int32_t(integer(v[i])));
                s.u32s(u);
                break;
            }
            case kEnum:
            case kBrickColor: {
                std::vector<std::uint32_t> u(n);
                for (std::size_t i = 0; i < n; ++i) u[i] = std::uint32_t(integer(v[i]));
                s.u32s(u);
                break;
            }
            case kFloat32:
                floatsOf([](const Value* x) { return num(x); });
                break;
            case kFloat64:
                for (auto* x : v) s.le(num(x));
                break;
            case kUDim:
            case kUDim2: {
                const std::size_t k = type == kUDim ? 2 : 4;
                std::vector<std::vector<double>> t(n);
                for (std::size_t i = 0; i < n; ++i) t[i] = tuple(v[i], k);
                for (std::size_t axis = 0; axis < k / 2; ++axis) {
                    std::vector<float> f(n);
                    for (std::size_t i = 0; i < n; ++i) f[i] = float(t[i][axis * 2]);
                    s.floats(f);
                }
                for (std::size_t axis = 0; axis < k / 2; ++axis) {
                    std::vector<std::uint32_t> u(n);
                    for (std::size_t i = 0; i < n; ++i)
                        u[i] = zigzag32(std::int32_t(t[i][axis * 2 + 1]));
                    s.u32s(u);
                }
                break;
            }
            case kRay:
            case kNumberRange: {
                const std::size_t k = type == kRay ? 6 : 2;
                for (auto* x : v)
                    for (double d : tuple(x, k)) s.le(float(d));
                break;
            }
            case kFaces:
            case kAxes:
                for (auto* x : v) s.u8(std::uint8_t(integer(x)));
                break;
            case kColor3:
            case kVector3:
                floatsOf([](const Value* x) { return vec3(x).x; });
                floatsOf([](const Value* x) { return vec3(x).y; });
                floatsOf([](const Value* x) { return vec3(x).z; });
                break;
            case kVector2:
                floatsOf([](const Value* x) { return vec2(x).x; });
                floatsOf([](const Value* x) { return vec2(x).y; });
                break;
            case kVector2int16:
                for (auto* x : v) {
                    s.le(std::int16_t(vec2(x).x));
                    s.le(std::int16_t(vec2(x).y));
                }
                break;
            case kVector3int16:
                for (auto* x : v) {
                    const Vec3 p = vec3(x);
                    s.le(std::int16_t(p.x));
                    s.le(std::int16_t(p.y));
                    s.le(std::int16_t(p.z));
                }
                break;
            case kCFrame:
            case kCFrameQuat:
                writeCFrames(s, v, type == kCFrameQuat);
                break;
            case kOptionalCFrame: {
                s.u8(kCFrame);
                writeCFrames(s, v, false);
                s.u8(kBool);
                for (auto* x : v) s.u8(as<CFrame>(x) ? 1 : 0);
                break;
            }
            case kRef: {
                std::vector<std::int32_t> r(n);
                for (std::size_t i = 0; i < n; ++i) {
                    auto ref = as<NodeRef>(v[i]);
                    r[i] = ref && live(ref->node) ? ref->node : -1;
                }
                s.refs(r);
                break;
            }
            case kNumberSequence:
            case kColorSequence: {
                const std::size_t per = type == kNumberSequence ? 3 : 5;
                for (auto* x : v) {
                    const auto t = tuple(x, 0);
                    const std::size_t k = t.size() / per;
                    s.le(std::uint32_t(k));
                    for (std::size_t j = 0; j < k * per; ++j) s.le(float(t[j]));
                }
                break;
            }
            case kRect:
                for (std::size_t c = 0; c < 4; ++c)
                    floatsOf([c](const Value* x) { return tuple(x, 4)[c]; });
                break;
            case kPhysicalProperties:
                for (auto* x : v) {
                    const auto t = tuple(x, 0);
                    if (t.size() < 5) {
                        s.u8(0);
                        continue;
                    }
                    s.u8(3);
                    for (std::size_t j = 0; j < 6; ++j) s.le(float(j < t.size() ? t[j] : 1.0));
                }
                break;
            case kColor3uint8:
                for (auto* x : v) s.u8(toByte(vec3(x).x));
                for (auto* x : v) s.u8(toByte(vec3(x).y));
                for (auto* x : v) s.u8(toByte(vec3(x).z));
                break;
            case kInt64:
            case kSecurityCapabilities: {
                std::vector<std::uint64_t> u(n);
                for (std::size_t i = 0; i < n; ++i) u[i] = zigzag64(integer(v[i]));
                s.u64s(u);
                break;
            }
            case kSharedString: {
                std::vector<std::uint32_t> idx(n);
                for (std::size_t i = 0; i < n; ++i) {
                    // A decoded value refers to the asset's shared strings.
                    const auto* ref = as<SharedStringRef>(v[i]);
                    const std::string str =
                        ref ? std::string(asset_.sharedString(ref->index)) : text(v[i]);
                    auto [it, added] = shared_.emplace(str, std::uint32_t(sharedList_.size()));
                    if (added) sharedList_.push_back(&it->first);
                    idx[i] = it->second;
                }
                s.u32s(idx);
                break;
            }
            case kUniqueId: {
                Bytes rec(n * 16);
                for (std::size_t i = 0; i < n; ++i) {
                    std::uint32_t index = 0, time = 0;
                    std::int64_t random = 0;
                    parseUniqueId(text(v[i]), index, time, random);
                    storeBe32(rec.data() + 16 * i, index);
                    storeBe32(rec.data() + 16 * i + 4, time);
                    storeBe64(rec.data() + 16 * i + 8, std::rotl(std::uint64_t(random), 1));
                }
                s.interleaved(rec, n, 16);
                break;
            }
            case kFont:
                for (auto* x : v) {
                    const FontParts f = parseFont(text(x));
                    s.str(f.family);
                    s.le(std::uint16_t(f.weight));
                    s.u8(std::uint8_t(fontStyleValue(f.style)));
                    s.str(f.cachedFaceId);
                }
                break;
            case kContent: {
                std::vector<std::uint32_t> types(n);
                std::vector<std::string> uris;
                std::vector<std::int32_t> objects;
                for (std::size_t i = 0; i < n; ++i) {
                    if (auto ref = as<NodeRef>(v[i]); ref && live(ref->node)) {
                        types[i] = zigzag32(2);
                        objects.push_back(ref->node);
                    } else if (std::string u = text(v[i]); !u.empty()) {
                        types[i] = zigzag32(1);
                        uris.push_back(std::move(u));
                    } else {
                        types[i] = zigzag32(0);
                    }
                }
                s.u32s(types);
                s.le(std::uint32_t(uris.size()));
                for (const auto& u : uris) s.str(u);
                s.le(std::uint32_t(objects.size()));
                s.refs(objects);
                s.le(std::uint32_t(0));  // external object referents
                break;
            }
            default:
                break;
        }
        return std::move(s.b);
    }

    void writeCFrames(Out& s, const std::vector<const Value*>& v, bool quaternion) {
        for (auto* x : v) {
            const CFrame cf = cframe(x);
            const std::uint8_t id = specialRotationId(cf.rotation);
            s.u8(id);
            if (id) continue;
            if (quaternion) {
                const auto q = matrixToQuaternion(cf.rotation);
                s.raw(q.data(), 16);
            } else {
                s.raw(cf.rotation.data(), 36);
            }
        }
        std::vector<float> x(v.size()), y(v.size()), z(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            const CFrame cf = cframe(v[i]);
            x[i] = cf.position.x;
            y[i] = cf.position.y;
            z[i] = cf.position.z;
        }
        s.floats(x);
        s.floats(y);
        s.floats(z);
    }

    const Asset& asset_;
    const RobloxModelWriteOptions& options_;
    RobloxModelWriteResult& result_;
    std::vector<ClassNodes> classes_;
    std::unordered_map<std::string, std::uint32_t> shared_;
    std::vector<const std::string*> sharedList_;
};

// ---------------------------------------------------------------------------------------------
// Generators

void add(std::vector<Property>& properties, std::string name, std::string type, Value v) {
    properties.push_back(Property{std::move(name), std::move(type), std::move(v), 0, 0});
}

}  // namespace

RobloxModelWriteResult writeRobloxModel(const Asset& asset,
                                        const RobloxModelWriteOptions& options) {
    RobloxModelWriteResult result;
    try {
        Writer(asset, options, result).run();
    } catch (const std::exception& e) {
        result.bytes.clear();
        result.error = std::string("could not write the model: ") + e.what();
    }
    return result;
}

Asset makeRobloxTypesModel() {
    Asset a;
    a.format = "roblox-model";
    a.version = "0";
    const int ws = a.addNode("Workspace", "Workspace");
    a.nodes[ws].service = true;
    add(a.propertyList(ws), "Name", "string", std::string("Workspace"));
    const int folder = a.addNode("AllTypes", "Folder", ws);
    add(a.propertyList(folder), "Name", "string", std::string("AllTypes"));
    int holders[3];
    for (int i = 0; i < 3; ++i) {
        holders[i] = a.addNode("Holder" + std::to_string(i), "TypeHolder", folder);
    }
    const int nested = a.addNode("Nested", "Folder", holders[2]);
    add(a.propertyList(nested), "Name", "string", std::string("Nested"));
    for (int i = 0; i < 3; ++i) {
        auto& n = a.propertyList(holders[i]);
        const float s = i == 1 ? -1.0f : 1.0f;
        add(n, "Name", "string", "Holder" + std::to_string(i));
        add(n, "Text", "string", std::string(i == 2 ? "" : "h\xC3\xA9llo\n\0x", i == 2 ? 0 : 9));
        add(n, "Flag", "bool", i == 1);
        add(n, "Count", "int32", std::int64_t(i == 0 ? INT32_MIN : i == 1 ? -7 : INT32_MAX));
        add(n, "Ratio", "float", double(s * 0.15625f * float(i + 1)));
        add(n, "Precise", "double", i == 0 ? -1e300 : 3.141592653589793 * i);
        add(n, "Padding", "UDim", std::vector<double>{0.5 * s, -30.0 * i});
        add(n, "Size", "UDim2", std::vector<double>{0.75, -30.0 + i, -1.5 * s, 60.0});
        add(n, "Beam", "Ray", std::vector<double>{1, 2, 3, -4.5 * s, 0, 1e-3});
        add(n, "Faces", "Faces", std::int64_t(i == 0 ? 63 : i == 1 ? 0x18 : 0x26));
        add(n, "Axes", "Axes", std::int64_t(i == 0 ? 7 : i == 1 ? 3 : 5));
        add(n, "Brick", "BrickColor", std::int64_t(i == 0 ? 1004 : i == 1 ? 37 : 1010));
        add(n, "Tint", "Color3", Vec3{1.0f, 180.0f / 255.0f * s, 0.0f});
        add(n, "Anchor", "Vector2", Vec2{-100.8f * s, 200.55f});
        add(n, "Position", "Vector3", Vec3{1, -2.5f * s, 3e7f});
        add(n, "Cell", "Vector2int16", Vec2{-32768.0f + i, 32767.0f - i});
        CFrame cf = i == 0 ? CFrame{} : i == 1 ? yawedCFrame({4, 5, 6}, 33) : CFrame{};
        if (i == 2) cf.rotation = *specialRotation(0x07);
        cf.position = {float(i) * 1.5f, -2.0f, 1e-5f};
        add(n, "Pivot", "CFrame", cf);
        add(n, "Mode", "Enum", std::int64_t(i == 2 ? 0xFFFFFFFFll : i));
        add(n, "Target", "Ref", NodeRef{i == 0 ? holders[1] : i == 1 ? nested : -1});
        add(n, "Extents", "Vector3int16", Vec3{-1, 2, -32768.0f});
        add(n, "Curve", "NumberSequence",
            std::vector<double>{0, 0, 0, 0.5, 1, 0, 1, 1, 0.5 * (i + 1)});
        add(n, "Gradient", "ColorSequence",
            i == 1 ? std::vector<double>{0, 1, 0, 0, 0, 1, 0, 0, 1, 0}
                   : std::vector<double>{0, 1, 1, 1, 0, 0.5, 0, 0, 0, 0, 1, 1, 1, 1, 0});
        add(n, "Range", "NumberRange", std::vector<double>{-0.5 * i, 1});
        add(n, "Bounds", "Rect", std::vector<double>{-1, -10, double(8 + i), 9});
        add(n, "Physics", "PhysicalProperties",
            i == 1 ? std::vector<double>{}
                   : std::vector<double>{0.7, 0.3, 0.5, 1, 1, i == 0 ? 1.0 : 0.25});
        add(n, "Paint", "Color3uint8", Vec3{0.0f, 255 / 255.0f, float(63 * i) / 255.0f});
        add(n, "Big", "int64", std::int64_t(i == 0 ? INT64_MIN : i == 1 ? -1 : INT64_MAX));
        add(n, "Blob", "SharedString",
            std::string(i == 1 ? "other blob" : "shared \x01\x02 blob", i == 1 ? 10 : 14));
        add(n, "Code", "Bytecode", Bytes{0x1b, 'L', 'u', 'a', std::uint8_t(i), 0xff});
        add(n, "WorldPivotData", "OptionalCFrame",
            i == 1 ? Value() : Value(yawedCFrame({7, 8, 9}, -90)));
        add(n, "HistoryId", "UniqueId",
            formatUniqueId(std::uint32_t(i + 1), 0x12345678u, i == 1 ? -2 : 0x0123456789abcdefll));
        add(n, "FontFace", "Font",
            formatFont("rbxasset://fonts/families/SourceSansPro.json", i == 1 ? 700 : 400,
                       i == 2 ? "Italic" : "Normal", i == 0 ? "rbxasset://fonts/x.ttf" : ""));
        add(n, "Capabilities", "SecurityCapabilities",
            std::int64_t(i == 0   ? 0
                         : i == 1 ? 2882400000ll
                                  : 0x7fffffffffffll));
        add(n, "Image", "Content",
            i == 0   ? Value(std::string())
            : i == 1 ? Value(std::string("rbxassetid://123"))
                     : Value(NodeRef{nested}));
    }
    return a;
}

Asset makeRobloxPlace(std::size_t partCount) {
    Asset a;
    a.format = "roblox-model";
    a.version = "0";
    a.nodes.reserve(partCount + partCount / 100 + 4);
    const int ws = a.addNode("Workspace", "Workspace");
    a.nodes[ws].service = true;
    add(a.propertyList(ws), "Name", "string", std::string("Workspace"));
    add(a.propertyList(ws), "Gravity", "float", 196.2);
    const int lighting = a.addNode("Lighting", "Lighting");
    a.nodes[lighting].service = true;
    add(a.propertyList(lighting), "Name", "string", std::string("Lighting"));
    add(a.propertyList(lighting), "Ambient", "Color3", Vec3{0.5f, 0.5f, 0.5f});
    std::uint32_t seed = 12345;
    auto rnd = [&seed] {
        seed = seed * 1664525u + 1013904223u;
        return float(seed >> 8) / float(1u << 24);
    };
    int group = -1;
    for (std::size_t i = 0; i < partCount; ++i) {
        if (i % 100 == 0) {
            group = a.addNode("Group" + std::to_string(i / 100), "Model", ws);
            add(a.propertyList(group), "Name", "string", "Group" + std::to_string(i / 100));
        }
        const int p = a.addNode("Part" + std::to_string(i), "Part", group);
        auto& n = a.propertyList(p);
        n.reserve(20);
        add(n, "Name", "string", "Part" + std::to_string(i));
        add(n, "Anchored", "bool", i % 3 != 0);
        add(n, "CanCollide", "bool", true);
        add(n, "CastShadow", "bool", i % 7 != 0);
        add(n, "Locked", "bool", false);
        CFrame cf = i % 4 == 0 ? yawedCFrame({}, rnd() * 360) : CFrame{};
        cf.position = {rnd() * 2048 - 1024, rnd() * 256, rnd() * 2048 - 1024};
        add(n, "CFrame", "CFrame", cf);
        add(n, "size", "Vector3", Vec3{std::floor(rnd() * 16) + 1, 1.2f, 4});
        add(n, "Color", "Color3uint8",
            Vec3{float(int(rnd() * 255)) / 255.0f, float(int(rnd() * 255)) / 255.0f, 163 / 255.0f});
        add(n, "Transparency", "float", i % 10 == 0 ? 0.5 : 0.0);
        add(n, "Reflectance", "float", 0.0);
        add(n, "Material", "Enum", std::int64_t(i % 5 == 0 ? 512 : 256));
        add(n, "shape", "Enum", std::int64_t(1));
        add(n, "TopSurface", "Enum", std::int64_t(0));
        add(n, "BottomSurface", "Enum", std::int64_t(0));
        add(n, "CustomPhysicalProperties", "PhysicalProperties",
            i % 50 == 0 ? std::vector<double>{0.7, 0.3, 0.5, 1, 1, 1} : std::vector<double>{});
        add(n, "CollisionGroup", "string", std::string("Default"));
        add(n, "Tags", "string", std::string());
        add(n, "AttributesSerialize", "string", std::string());
        add(n, "SourceAssetId", "int64", std::int64_t(-1));
        add(n, "UniqueId", "UniqueId",
            formatUniqueId(std::uint32_t(i), 0x0a0b0c0du, std::int64_t(i) * 7919));
    }
    return a;
}

CFrame yawedCFrame(Vec3 position, float yawDegrees) {
    CFrame cf;
    cf.position = position;
    const float a = yawDegrees * 3.14159265f / 180.0f, c = std::cos(a), s = std::sin(a);
    cf.rotation = {c, 0, s, 0, 1, 0, -s, 0, c};
    return cf;
}

}  // namespace meshscope
