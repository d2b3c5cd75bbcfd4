// CurveAnimation (issue #23): ValuesAndTimes blobs parsed without trusting their counts, float
// curves sampled (Constant / Linear / cubic Hermite), folders of Position / Rotation curves
// gathered per joint and put on a rig.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "meshscope/core/roblox_animation.h"
#include "pose/animation_common.h"

namespace meshscope {

const char* keyInterpolationName(KeyInterpolation mode) {
    switch (mode) {
        case KeyInterpolation::Constant:
            return "Constant";
        case KeyInterpolation::Linear:
            return "Linear";
        case KeyInterpolation::Cubic:
            return "Cubic";
    }
    return "Linear";
}

namespace {

// A bounds-checked little-endian cursor that reports instead of throwing.
struct Cursor {
    std::span<const std::uint8_t> bytes;
    std::size_t pos = 0;
    std::size_t left() const { return bytes.size() - pos; }
    bool u8(std::uint8_t& v) {
        if (left() < 1) return false;
        v = bytes[pos++];
        return true;
    }
    bool u32(std::uint32_t& v) {
        if (left() < 4) return false;
        v = std::uint32_t(bytes[pos]) | std::uint32_t(bytes[pos + 1]) << 8 |
            std::uint32_t(bytes[pos + 2]) << 16 | std::uint32_t(bytes[pos + 3]) << 24;
        pos += 4;
        return true;
    }
    bool f32(float& v) {
        std::uint32_t u;
        if (!u32(u)) return false;
        v = std::bit_cast<float>(u);
        return true;
    }
};

std::string at(std::uint64_t base, std::size_t pos) {
    return " at byte " + std::to_string(pos) + " of ValuesAndTimes (file offset " +
           std::to_string(base + pos) + ")";
}

constexpr std::size_t kFloatKeyBytes = 14;     // u8 mode, u8 flags, 3 × f32
constexpr std::size_t kRotationKeyBytes = 25;  // u8 12 + mode, quaternion 4 × f32, 2 × f32

}  // namespace

namespace {

// The times section every curve kind ends with: u32 header (1), u32 count (= the values read),
// count × i32 ticks (1/2400 s). Returns the times of the first min(count, values, fitting) keys.
std::vector<float> readTimes(Cursor& c, std::size_t values, std::uint64_t baseOffset,
                             std::vector<std::string>& warnings) {
    std::vector<float> times;
    const std::size_t timesAt = c.pos;
    std::uint32_t timeHeader = 0, timeCount = 0;
    if (!c.u32(timeHeader) || !c.u32(timeCount)) {
        warnings.push_back("time header cut short; values without times dropped" +
                           at(baseOffset, timesAt));
        return times;
    }
    if (timeHeader != 1)
        warnings.push_back("time header " + std::to_string(timeHeader) + " (1 expected)" +
                           at(baseOffset, timesAt));
    if (timeCount != values)
        warnings.push_back(std::to_string(timeCount) + " times for " + std::to_string(values) +
                           " values" + at(baseOffset, timesAt + 4));
    const std::size_t n = std::min<std::size_t>({timeCount, values, c.left() / 4});
    if (n < std::min<std::size_t>(timeCount, values))
        warnings.push_back("times cut short" + at(baseOffset, c.pos));
    times.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t ticks = 0;
        c.u32(ticks);
        // Signed ticks (a negative key time is representable).
        times.push_back(float(double(std::int32_t(ticks)) / kCurveTicksPerSecond));
    }
    if (c.left() > 0 && timeCount == values)
        warnings.push_back(std::to_string(c.left()) + " trailing bytes" + at(baseOffset, c.pos));
    return times;
}

}  // namespace

CurveParse parseCurveValuesAndTimes(std::span<const std::uint8_t> bytes, bool marker,
                                    std::uint64_t baseOffset) {
    CurveParse out;
    if (bytes.empty()) return out;  // an unset curve
    Cursor c{bytes};
    std::uint32_t header = 0, count = 0;
    if (!c.u32(header) || !c.u32(count)) {
        out.warnings.push_back("value header cut short" + at(baseOffset, c.pos));
        return out;
    }
    // 1 in the corpus (older Studio); 2 is what current Studio writes for FloatCurve and
    // MarkerCurve (rbx-dom docs, PR #657).
    if (header != 1 && header != 2)
        out.warnings.push_back("value header " + std::to_string(header) + " (1 or 2 expected)" +
                               at(baseOffset, 0));
    // Each value takes at least 1 byte (a marker's NUL) or 14 (a float key), plus 4 for its time.
    const std::size_t minEach = (marker ? 1 : kFloatKeyBytes) + 4;
    if (count > c.left() / minEach) {
        out.warnings.push_back(std::to_string(count) + " values do not fit in the " +
                               std::to_string(c.left()) + " bytes left" + at(baseOffset, 4));
        count = std::uint32_t(c.left() / minEach);
    }
    std::vector<CurveKey> keys;
    std::vector<CurveMarker> markers;
    if (marker) {
        markers.reserve(count);
        for (std::uint32_t i = 0; i < count; ++i) {
            const auto* begin = bytes.data() + c.pos;
            const auto* nul = static_cast<const std::uint8_t*>(std::memchr(begin, 0, c.left()));
            if (!nul) {
                out.warnings.push_back("marker " + std::to_string(i) + " has no NUL" +
                                       at(baseOffset, c.pos));
                return out;
            }
            markers.push_back(
                {0, std::string(reinterpret_cast<const char*>(begin), std::size_t(nul - begin))});
            c.pos += std::size_t(nul - begin) + 1;
        }
    } else {
        keys.reserve(count);
        for (std::uint32_t i = 0; i < count; ++i) {
            CurveKey k;
            std::uint8_t mode = 0, flags = 0;
            const std::size_t start = c.pos;
            if (!c.u8(mode) || !c.u8(flags) || !c.f32(k.value) || !c.f32(k.leftTangent) ||
                !c.f32(k.rightTangent)) {
                out.warnings.push_back("key " + std::to_string(i) + " cut short" +
                                       at(baseOffset, start));
                return out;
            }
            if (mode > 2) {
                out.warnings.push_back("key " + std::to_string(i) + " interpolation mode " +
                                       std::to_string(mode) + " unknown; Linear used" +
                                       at(baseOffset, start));
                mode = 1;
            }
            k.interpolation = KeyInterpolation(mode);
            k.hasLeftTangent = flags & 1;
            k.hasRightTangent = flags & 2;
            if (!k.hasLeftTangent || !std::isfinite(k.leftTangent)) k.leftTangent = 0;
            if (!k.hasRightTangent || !std::isfinite(k.rightTangent)) k.rightTangent = 0;
            if (!std::isfinite(k.value)) {
                out.warnings.push_back("key " + std::to_string(i) + " value not finite; 0 used" +
                                       at(baseOffset, start + 2));
                k.value = 0;
            }
            keys.push_back(k);
        }
    }
    const std::vector<float> times =
        readTimes(c, marker ? markers.size() : keys.size(), baseOffset, out.warnings);
    const std::size_t n = times.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (marker)
            markers[i].time = times[i];
        else
            keys[i].time = times[i];
    }
    keys.resize(marker ? 0 : n);
    markers.resize(marker ? n : 0);
    std::stable_sort(keys.begin(), keys.end(),
                     [](const CurveKey& a, const CurveKey& b) { return a.time < b.time; });
    std::stable_sort(markers.begin(), markers.end(),
                     [](const CurveMarker& a, const CurveMarker& b) { return a.time < b.time; });
    out.keys = std::move(keys);
    out.markers = std::move(markers);
    return out;
}

RotationCurveParse parseRotationValuesAndTimes(std::span<const std::uint8_t> bytes,
                                               std::uint64_t baseOffset) {
    RotationCurveParse out;
    if (bytes.empty()) return out;
    Cursor c{bytes};
    std::uint32_t header = 0, count = 0;
    if (!c.u32(header) || !c.u32(count)) {
        out.warnings.push_back("value header cut short" + at(baseOffset, c.pos));
        return out;
    }
    if (header != 1)
        out.warnings.push_back("value header " + std::to_string(header) + " (1 expected)" +
                               at(baseOffset, 0));
    if (count > c.left() / (kRotationKeyBytes + 4)) {
        out.warnings.push_back(std::to_string(count) + " rotation keys do not fit in the " +
                               std::to_string(c.left()) + " bytes left" + at(baseOffset, 4));
        count = std::uint32_t(c.left() / (kRotationKeyBytes + 4));
    }
    std::vector<RotationCurveKey> keys;
    keys.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        RotationCurveKey k;
        std::uint8_t mode = 0;
        const std::size_t start = c.pos;
        float q[4];
        if (!c.u8(mode) || !c.f32(q[0]) || !c.f32(q[1]) || !c.f32(q[2]) || !c.f32(q[3]) ||
            !c.f32(k.leftTangent) || !c.f32(k.rightTangent)) {
            out.warnings.push_back("rotation key " + std::to_string(i) + " cut short" +
                                   at(baseOffset, start));
            return out;
        }
        // Stored as 12 + KeyInterpolationMode; a bare 0..2 is read as the mode too.
        const int m = mode >= 12 ? mode - 12 : mode;
        if (m > 2) {
            out.warnings.push_back("rotation key " + std::to_string(i) + " interpolation byte " +
                                   std::to_string(mode) + " unknown; Linear used" +
                                   at(baseOffset, start));
        }
        k.interpolation = m > 2 ? KeyInterpolation::Linear : KeyInterpolation(m);
        const double len = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] +
                                     double(q[2]) * q[2] + double(q[3]) * q[3]);
        if (!std::isfinite(len) || len < 1e-6) {
            out.warnings.push_back("rotation key " + std::to_string(i) +
                                   " quaternion not finite or zero; identity used" +
                                   at(baseOffset, start + 1));
            k.value = {0, 0, 0, 1};
        } else {
            k.value = {float(q[0] / len), float(q[1] / len), float(q[2] / len), float(q[3] / len)};
        }
        if (!std::isfinite(k.leftTangent)) k.leftTangent = 0;
        if (!std::isfinite(k.rightTangent)) k.rightTangent = 0;
        keys.push_back(k);
    }
    const std::vector<float> times = readTimes(c, keys.size(), baseOffset, out.warnings);
    keys.resize(times.size());
    for (std::size_t i = 0; i < times.size(); ++i) keys[i].time = times[i];
    std::stable_sort(
        keys.begin(), keys.end(),
        [](const RotationCurveKey& a, const RotationCurveKey& b) { return a.time < b.time; });
    out.keys = std::move(keys);
    return out;
}

float curveSegmentAlpha(KeyInterpolation mode, float s, float span, float outTangent,
                        float inTangent) {
    switch (mode) {
        case KeyInterpolation::Constant:
            return 0;
        case KeyInterpolation::Linear:
            return s;
        case KeyInterpolation::Cubic: {
            const float s2 = s * s, s3 = s2 * s;
            const float h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
            return h01 + h10 * span * outTangent + h11 * span * inTangent;
        }
    }
    return s;
}

Vec4 sampleRotationCurve(const std::vector<RotationCurveKey>& keys, float time) {
    if (keys.empty()) return {0, 0, 0, 1};
    if (!(time > keys.front().time)) return keys.front().value;
    if (time >= keys.back().time) return keys.back().value;
    const auto next =
        std::upper_bound(keys.begin(), keys.end(), time,
                         [](float t, const RotationCurveKey& k) { return t < k.time; });
    const RotationCurveKey& b = *next;
    const RotationCurveKey& a = *(next - 1);
    const float span = b.time - a.time;
    if (!(span > 0)) return b.value;
    if (a.interpolation == KeyInterpolation::Constant) return a.value;
    const float s = (time - a.time) / span;
    const float alpha = curveSegmentAlpha(a.interpolation, s, span, a.rightTangent, b.leftTangent);
    // Huge stored tangents can overflow the spline; such a segment is read as Linear.
    return slerp(a.value, b.value, std::isfinite(alpha) ? alpha : s);
}

float sampleFloatCurve(const std::vector<CurveKey>& keys, float time) {
    if (keys.empty()) return 0;
    if (!(time > keys.front().time)) return keys.front().value;
    if (time >= keys.back().time) return keys.back().value;
    const auto next = std::upper_bound(keys.begin(), keys.end(), time,
                                       [](float t, const CurveKey& k) { return t < k.time; });
    const CurveKey& b = *next;
    const CurveKey& a = *(next - 1);
    const float span = b.time - a.time;
    if (!(span > 0)) return b.value;
    const float s = (time - a.time) / span;
    switch (a.interpolation) {
        case KeyInterpolation::Constant:
            return a.value;
        case KeyInterpolation::Linear:
            return a.value + (b.value - a.value) * s;
        case KeyInterpolation::Cubic: {
            const float s2 = s * s, s3 = s2 * s;
            const float h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s;
            const float h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
            return h00 * a.value + h10 * span * a.rightTangent + h01 * b.value +
                   h11 * span * b.leftTangent;
        }
    }
    return a.value;
}

int CurveAnimation::findJoint(std::string_view joint) const {
    for (std::size_t i = 0; i < joints.size(); ++i)
        if (joints[i].joint == joint) return int(i);
    return -1;
}

namespace {

// The curve's ValuesAndTimes parsed; warnings get the curve's path.
CurveParse readCurve(const Asset& asset, int node, bool marker, const std::string& path,
                     std::vector<std::string>& warnings) {
    const auto p = asset.property(node, "ValuesAndTimes");
    if (!p) return {};
    std::span<const std::uint8_t> bytes;
    if (const auto* b = std::get_if<Bytes>(&p->value))
        bytes = *b;
    else if (const auto* s = std::get_if<std::string>(&p->value))
        bytes = {reinterpret_cast<const std::uint8_t*>(s->data()), s->size()};
    else
        return {};
    CurveParse parsed = parseCurveValuesAndTimes(bytes, marker, p->offset);
    for (auto& w : parsed.warnings) warnings.push_back(path + ": " + w);
    return parsed;
}

// X, Y, Z FloatCurve children of a Vector3Curve / EulerRotationCurve.
bool readAxes(const Asset& asset, int node, const std::string& path,
              std::vector<CurveKey> (&axes)[3], std::vector<std::string>& warnings) {
    bool any = false;
    for (int child : asset.children(node)) {
        if (asset.kind(child) != "FloatCurve") continue;
        const std::string_view n = asset.name(child);
        const int axis = n == "X" ? 0 : n == "Y" ? 1 : n == "Z" ? 2 : -1;
        if (axis < 0) continue;
        axes[axis] = readCurve(asset, child, false, path + "/" + std::string(n), warnings).keys;
        any = true;
    }
    return any;
}

constexpr int kMaxFolderDepth = 256;

CurveAnimation readCurveAnimation(const Asset& asset, int node) {
    CurveAnimation anim;
    anim.node = node;
    anim.name = std::string(asset.name(node));
    anim.loop = pose_detail::numberProperty(asset, node, "Loop").value_or(0) != 0;
    anim.priority = int(pose_detail::numberProperty(asset, node, "Priority").value_or(0));
    struct Item {
        int node;
        std::string parent;  // enclosing part folder name
        int depth;
    };
    std::vector<Item> stack;
    const auto top = asset.children(node);
    for (auto it = top.rbegin(); it != top.rend(); ++it) stack.push_back({*it, std::string(), 0});
    while (!stack.empty()) {
        Item item = std::move(stack.back());
        stack.pop_back();
        const std::string_view kind = asset.kind(item.node);
        const std::string name(asset.name(item.node));
        const std::string path = item.parent.empty() ? name : item.parent + "/" + name;
        if (kind == "MarkerCurve") {
            auto parsed = readCurve(asset, item.node, true, path, anim.warnings);
            anim.markers.insert(anim.markers.end(), parsed.markers.begin(), parsed.markers.end());
            continue;
        }
        if (kind == "FloatCurve") {  // loose: not under a Vector3/Euler curve
            anim.floatCurves.push_back(
                {name, item.parent, readCurve(asset, item.node, false, path, anim.warnings).keys});
            continue;
        }
        if (kind != "Folder") continue;
        if (name == "FaceControls") {
            for (int child : asset.children(item.node))
                if (asset.kind(child) == "FloatCurve") {
                    const std::string control(asset.name(child));
                    anim.faceControls.push_back(
                        {control, item.parent,
                         readCurve(asset, child, false, path + "/" + control, anim.warnings).keys});
                }
            continue;
        }
        CurveJoint joint;
        joint.joint = name;
        joint.parent = item.parent;
        joint.node = item.node;
        const auto children = asset.children(item.node);
        for (int child : children) {
            const std::string_view ck = asset.kind(child);
            const std::string cpath = path + "/" + std::string(asset.name(child));
            if (ck == "Vector3Curve" && asset.name(child) == "Position") {
                joint.hasPosition = readAxes(asset, child, cpath, joint.position, anim.warnings) ||
                                    joint.hasPosition;
            } else if (ck == "EulerRotationCurve" && asset.name(child) == "Rotation") {
                joint.hasRotation = readAxes(asset, child, cpath, joint.rotation, anim.warnings) ||
                                    joint.hasRotation;
                const double order =
                    pose_detail::numberProperty(asset, child, "RotationOrder").value_or(0);
                joint.rotationOrder = order >= 0 && order <= 5 ? int(order) : 0;
                if (order != joint.rotationOrder)
                    anim.warnings.push_back(cpath + ": RotationOrder " + std::to_string(order) +
                                            " unknown; XYZ used");
            } else if (ck == "RotationCurve" && asset.name(child) == "Rotation") {
                // Quaternion keys (RotationCurveKey), see parseRotationValuesAndTimes.
                if (const auto p = asset.property(child, "ValuesAndTimes")) {
                    std::span<const std::uint8_t> bytes;
                    if (const auto* bb = std::get_if<Bytes>(&p->value))
                        bytes = *bb;
                    else if (const auto* str = std::get_if<std::string>(&p->value))
                        bytes = {reinterpret_cast<const std::uint8_t*>(str->data()), str->size()};
                    RotationCurveParse parsed = parseRotationValuesAndTimes(bytes, p->offset);
                    for (auto& w : parsed.warnings) anim.warnings.push_back(cpath + ": " + w);
                    joint.rotationKeys = std::move(parsed.keys);
                }
                joint.hasRotation = true;
                joint.quaternionRotation = true;
            }
        }
        if (joint.hasPosition || joint.hasRotation) anim.joints.push_back(std::move(joint));
        if (item.depth + 1 > kMaxFolderDepth) {
            if (!children.empty()) anim.warnings.push_back(path + ": folders deeper than 256; cut");
            continue;
        }
        for (auto it = children.rbegin(); it != children.rend(); ++it) {
            const std::string_view ck = asset.kind(*it);
            if (ck == "Folder" || ck == "MarkerCurve" || ck == "FloatCurve")
                stack.push_back({*it, name, item.depth + 1});
        }
    }
    // Length and the union of key times.
    const auto collect = [&](const std::vector<CurveKey>& keys) {
        for (const CurveKey& k : keys)
            if (anim.keyTimes.size() < 1000000) anim.keyTimes.push_back(k.time);
    };
    for (const CurveJoint& j : anim.joints) {
        for (int a = 0; a < 3; ++a) collect(j.position[a]), collect(j.rotation[a]);
        for (const RotationCurveKey& k : j.rotationKeys)
            if (anim.keyTimes.size() < 1000000) anim.keyTimes.push_back(k.time);
    }
    for (const auto& f : anim.faceControls) collect(f.keys);
    for (const auto& f : anim.floatCurves) collect(f.keys);
    std::sort(anim.keyTimes.begin(), anim.keyTimes.end());
    anim.keyTimes.erase(std::unique(anim.keyTimes.begin(), anim.keyTimes.end()),
                        anim.keyTimes.end());
    anim.length = anim.keyTimes.empty() ? 0 : anim.keyTimes.back();
    for (const auto& m : anim.markers) anim.length = std::max(anim.length, m.time);
    return anim;
}

Mat4 axisRotation(int axis, float angle) {
    Mat4 m = Mat4::identity();
    const float c = std::cos(angle), s = std::sin(angle);
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    m.at(i, i) = c, m.at(i, j) = -s;
    m.at(j, i) = s, m.at(j, j) = c;
    return m;
}

}  // namespace

std::vector<CurveAnimation> extractCurveAnimations(const Asset& asset) {
    std::vector<CurveAnimation> out;
    for (std::size_t n = 0; n < asset.nodes.size(); ++n)
        if (asset.kind(int(n)) == "CurveAnimation")
            out.push_back(readCurveAnimation(asset, int(n)));
    return out;
}

std::vector<std::pair<std::string, float>> sampleFaceControls(const CurveAnimation& animation,
                                                              float time) {
    std::vector<std::pair<std::string, float>> out;
    out.reserve(animation.faceControls.size());
    for (const CurveFloatTrack& f : animation.faceControls) {
        const float v = sampleFloatCurve(f.keys, time);
        out.emplace_back(f.name, std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f);
    }
    return out;
}

float curveAnimationTime(const CurveAnimation& animation, float time) {
    return pose_detail::animationTime(time, animation.length, animation.loop);
}

Mat4 sampleCurveJoint(const CurveJoint& joint, float time) {
    // Enum.RotationOrder: the axes in multiplication order, left to right.
    static constexpr int kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0},
                                          {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    Mat4 m = Mat4::identity();
    if (joint.hasRotation && joint.quaternionRotation) {
        m = quaternionMatrix(sampleRotationCurve(joint.rotationKeys, time));
    } else if (joint.hasRotation) {
        const int* order = kOrders[std::clamp(joint.rotationOrder, 0, 5)];
        for (int k = 0; k < 3; ++k)
            m = m * axisRotation(order[k], sampleFloatCurve(joint.rotation[order[k]], time));
    }
    if (joint.hasPosition)
        for (int a = 0; a < 3; ++a) m.at(a, 3) = sampleFloatCurve(joint.position[a], time);
    return m;
}

void sampleCurvesOnRig(const CurveAnimation& animation, const RobloxRig& rig, float time,
                       RigSample& out) {
    out.time = curveAnimationTime(animation, time);
    pose_detail::putTracksOnRig(
        animation.joints.size(),
        [&](std::size_t i) -> const std::string& { return animation.joints[i].joint; },
        [](std::size_t) { return true; },
        [&](std::size_t i) { return sampleCurveJoint(animation.joints[i], out.time); }, rig, out);
}

}  // namespace meshscope
