// Roblox FACS: the abbreviation → FaceControls name table (2025 FileMesh document), corrective
// weights, composition of the six px py pz rx ry rz matrices into face-bone transforms, and the
// by-name binding of face bones onto a skeleton.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "meshscope/core/pose.h"

namespace meshscope {

namespace {

using G = FacsGroup;

// Order and names exactly as the 2025 document's table; groups are ours (for the UI).
constexpr std::array<FacsControlInfo, 50> kControls{{
    {"c_COR", "Corrugator", G::Brows},
    {"c_CR", "ChinRaiser", G::Jaw},
    {"c_CRUL", "ChinRaiserUpperLip", G::Lips},
    {"c_ELD", "EyesLookDown", G::Eyes},
    {"c_ELL", "EyesLookLeft", G::Eyes},
    {"c_ELR", "EyesLookRight", G::Eyes},
    {"c_ELU", "EyesLookUp", G::Eyes},
    {"c_FN", "Funneler", G::Lips},
    {"c_FP", "FlatPucker", G::Lips},
    {"c_JD", "JawDrop", G::Jaw},
    {"c_JL", "JawLeft", G::Jaw},
    {"c_JR", "JawRight", G::Jaw},
    {"c_LLS", "LowerLipSuck", G::Lips},
    {"c_LP", "LipPresser", G::Lips},
    {"c_LPT", "LipsTogether", G::Lips},
    {"c_ML", "MouthLeft", G::Lips},
    {"c_MR", "MouthRight", G::Lips},
    {"c_PK", "Pucker", G::Lips},
    {"c_TD", "TongueDown", G::Tongue},
    {"c_TO", "TongueOut", G::Tongue},
    {"c_TU", "TongueUp", G::Tongue},
    {"c_ULS", "UpperLipSuck", G::Lips},
    {"l_BL", "LeftBrowLowerer", G::Brows},
    {"l_CHP", "LeftCheekPuff", G::Cheeks},
    {"l_CHR", "LeftCheekRaiser", G::Cheeks},
    {"l_DM", "LeftDimpler", G::Cheeks},
    {"l_EC", "LeftEyeClosed", G::Eyes},
    {"l_EULR", "LeftEyeUpperLidRaiser", G::Eyes},
    {"l_IBR", "LeftInnerBrowRaiser", G::Brows},
    {"l_LCD", "LeftLipCornerDown", G::Lips},
    {"l_LCP", "LeftLipCornerPuller", G::Lips},
    {"l_LLD", "LeftLowerLipDepressor", G::Lips},
    {"l_LS", "LeftLipStretcher", G::Lips},
    {"l_NW", "LeftNoseWrinkler", G::Nose},
    {"l_OBR", "LeftOuterBrowRaiser", G::Brows},
    {"l_ULR", "LeftUpperLipRaiser", G::Lips},
    {"r_BL", "RightBrowLowerer", G::Brows},
    {"r_CHP", "RightCheekPuff", G::Cheeks},
    {"r_CHR", "RightCheekRaiser", G::Cheeks},
    {"r_DM", "RightDimpler", G::Cheeks},
    {"r_EC", "RightEyeClosed", G::Eyes},
    {"r_EULR", "RightEyeUpperLidRaiser", G::Eyes},
    {"r_IBR", "RightInnerBrowRaiser", G::Brows},
    {"r_LCD", "RightLipCornerDown", G::Lips},
    {"r_LCP", "RightLipCornerPuller", G::Lips},
    {"r_LLD", "RightLowerLipDepressor", G::Lips},
    {"r_LS", "RightLipStretcher", G::Lips},
    {"r_NW", "RightNoseWrinkler", G::Nose},
    {"r_OBR", "RightOuterBrowRaiser", G::Brows},
    {"r_ULR", "RightUpperLipRaiser", G::Lips},
}};

constexpr float Vec3::*kAxis[3] = {&Vec3::x, &Vec3::y, &Vec3::z};

// weight × value, where a control at weight 0 contributes nothing even if its stored value is
// not finite (raw v1 matrices can hold any float).
inline float term(float weight, float value) {
    return weight != 0 ? weight * value : 0.0f;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
               return std::tolower(x) == std::tolower(y);
           });
}

}  // namespace

std::string_view facsGroupName(FacsGroup group) {
    switch (group) {
        case G::Brows:
            return "brows";
        case G::Eyes:
            return "eyes";
        case G::Cheeks:
            return "cheeks";
        case G::Lips:
            return "lips";
        case G::Jaw:
            return "jaw";
        case G::Tongue:
            return "tongue";
        case G::Nose:
            return "nose";
        case G::Other:
            break;
    }
    return "other";
}

std::span<const FacsControlInfo> facsControlTable() {
    return kControls;
}

const FacsControlInfo* findFacsControl(std::string_view key) {
    for (const auto& c : kControls)
        if (c.abbreviation == key || c.name == key) return &c;
    for (const auto& c : kControls)
        if (equalsIgnoreCase(c.abbreviation, key) || equalsIgnoreCase(c.name, key)) return &c;
    return nullptr;
}

std::string_view facsDisplayName(std::string_view storedName) {
    const FacsControlInfo* c = findFacsControl(storedName);
    return c ? c->name : storedName;
}

int findRigControl(const FacsRig& rig, std::string_view key) {
    // Exact stored name first (a rig may carry names outside the table), then through the table.
    for (std::size_t i = 0; i < rig.controlNames.size(); ++i)
        if (rig.controlNames[i] == key) return int(i);
    const FacsControlInfo* c = findFacsControl(key);
    if (!c) return -1;
    for (std::size_t i = 0; i < rig.controlNames.size(); ++i)
        if (rig.controlNames[i] == c->abbreviation || rig.controlNames[i] == c->name) return int(i);
    return -1;
}

void columnWeights(const FacsRig& rig, std::span<const float> controlWeights,
                   std::vector<float>& out) {
    const std::size_t base = rig.controlNames.size();
    out.resize(rig.columnCount());
    for (std::size_t i = 0; i < base; ++i)
        out[i] = i < controlWeights.size() ? controlWeights[i] : 0.0f;
    for (std::size_t c = 0; c < rig.correctives.size(); ++c) {
        const auto& members = rig.correctives[c];
        float w = members.empty() ? 0.0f : 1.0f;
        for (std::uint16_t m : members) w *= m < base ? out[m] : 0.0f;
        out[base + c] = w;
    }
}

std::vector<float> correctiveWeights(const FacsRig& rig, std::span<const float> controlWeights) {
    std::vector<float> all;
    columnWeights(rig, controlWeights, all);
    return {all.begin() + std::ptrdiff_t(rig.controlNames.size()), all.end()};
}

void composeFacs(const FacsRig& rig, std::span<const float> controlWeights, FacsBonePose& out) {
    columnWeights(rig, controlWeights, out.columnWeights);
    const std::size_t rows = rig.rows;
    const std::size_t stride = rig.cols;
    // Columns beyond the stored matrix width, or beyond the named columns, carry nothing.
    const std::size_t cols = std::min<std::size_t>(stride, out.columnWeights.size());
    out.bones.resize(rows);

    // The document: scale each column's position and rotation by its weight and add them up as
    // vectors; only the totals become a transform. Per channel and row that is a dot product of
    // the (row-major, contiguous) matrix row with the column weights.
    // Rows are face bones and columns are controls (then correctives), although the document's
    // prose indexes matrix[control][bone]: a real v5 head stores 46 rows x 105 columns for 46 face
    // bones and 50 + 48 + 7 columns (FORMAT-NOTES.md).
    const float* w = out.columnWeights.data();
    for (std::size_t ch = 0; ch < 6; ++ch) {
        const auto& data = rig.channels[ch];
        for (std::size_t r = 0; r < rows; ++r) {
            const std::size_t begin = r * stride;
            const std::size_t n = begin < data.size() ? std::min(cols, data.size() - begin) : 0;
            const float* row = data.data() + begin;
            float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            std::size_t c = 0;
            for (; c + 4 <= n; c += 4) {
                s0 += term(w[c], row[c]);
                s1 += term(w[c + 1], row[c + 1]);
                s2 += term(w[c + 2], row[c + 2]);
                s3 += term(w[c + 3], row[c + 3]);
            }
            for (; c < n; ++c) s0 += term(w[c], row[c]);
            FacsBoneTransform& b = out.bones[r];
            Vec3& v = ch < 3 ? b.position : b.rotation;
            v.*kAxis[ch % 3] = (s0 + s1) + (s2 + s3);
        }
    }
    // "Add the Position value to the calculated CFrame": translation in the bone's original
    // frame, rotation applied after it: T(position) * R(rotation).
    for (auto& b : out.bones) {
        b.transform = facsEulerToMatrix(b.rotation);
        b.transform.at(0, 3) = b.position.x;
        b.transform.at(1, 3) = b.position.y;
        b.transform.at(2, 3) = b.position.z;
    }
}

FacsBonePose composeFacs(const FacsRig& rig, std::span<const float> controlWeights) {
    FacsBonePose out;
    composeFacs(rig, controlWeights, out);
    return out;
}

FacsBinding bindFacs(const FacsRig& rig, const Skeleton& skeleton) {
    FacsBinding b;
    b.boneOfRow.assign(rig.rows, -1);
    for (std::size_t r = 0; r < rig.rows; ++r) {
        const std::string name = r < rig.boneNames.size() ? rig.boneNames[r] : std::string();
        const int bone = name.empty() ? -1 : skeleton.find(name);
        b.boneOfRow[r] = bone;
        if (bone < 0) b.unmatched.push_back(name.empty() ? "row " + std::to_string(r) : name);
    }
    return b;
}

FacsWeightReport facsWeightReport(const FacsRig& rig, const Skeleton& skeleton, const Mesh& mesh) {
    FacsWeightReport out;
    std::vector<std::int64_t> perBone(skeleton.bones.size(), 0);
    for (const VertexInfluences& v : mesh.skin)
        for (std::size_t k = 0; k < 4; ++k)
            if (v.weights[k] > 0 && v.joints[k] < perBone.size()) ++perBone[v.joints[k]];
    out.weightedVertices.assign(rig.boneNames.size(), -1);
    for (std::size_t r = 0; r < rig.boneNames.size(); ++r) {
        const int bone = skeleton.find(rig.boneNames[r]);
        if (bone < 0) continue;
        out.weightedVertices[r] = perBone[std::size_t(bone)];
        ++out.bonesInSkeleton;
        out.bonesWithoutVertices += perBone[std::size_t(bone)] == 0;
    }
    const std::size_t controls = std::min<std::size_t>(rig.controlNames.size(), rig.cols);
    const std::size_t rows = std::min<std::size_t>(rig.rows, out.weightedVertices.size());
    for (std::size_t c = 0; c < controls; ++c) {
        bool moves = false, movesVertices = false, allLocal = true;
        for (std::size_t r = 0; r < rows; ++r) {
            bool moved = false;
            for (std::size_t ch = 0; ch < 6 && !moved; ++ch) {
                const std::size_t at = r * rig.cols + c;
                moved = at < rig.channels[ch].size() &&
                        std::fabs(rig.channels[ch][at]) > (ch < 3 ? 1e-3f : 0.05f);
            }
            if (!moved) continue;
            moves = true;
            allLocal &= out.weightedVertices[r] >= 0;
            movesVertices |= out.weightedVertices[r] > 0;
        }
        if (moves && allLocal && !movesVertices) out.stillControls.push_back(int(c));
    }
    return out;
}

void applyFacs(const FacsBonePose& facs, const FacsBinding& binding, Pose& pose) {
    const std::size_t n = std::min(facs.bones.size(), binding.boneOfRow.size());
    for (std::size_t r = 0; r < n; ++r) {
        const int bone = binding.boneOfRow[r];
        if (bone < 0) continue;
        if (pose.local.size() <= std::size_t(bone))
            pose.local.resize(std::size_t(bone) + 1, Mat4::identity());
        pose.local[std::size_t(bone)] = pose.local[std::size_t(bone)] * facs.bones[r].transform;
    }
}

}  // namespace meshscope
