// Roblox parts in the 3D view (see roblox_parts.h).
#include "meshscope/render/roblox_parts.h"

#include <QMouseEvent>
#include <QTimer>
#include <QVector3D>
#include <QWindow>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QLayer>
#include <algorithm>
#include <map>
#include <span>
#include <string>

#include "meshscope/render/asset_scene.h"
#include "meshscope/render/materials.h"
#include "meshscope/render/mesh_packing.h"

namespace meshscope::render {

namespace {

// Twelve edges of the part's box, slightly enlarged so they sit outside its faces.
Mesh selectionBox(const RobloxPart& part) {
    RobloxPart grown = part;
    grown.size = part.size * 1.02f + Vec3{0.04f, 0.04f, 0.04f};
    const auto c = partCorners(grown);
    Mesh m;
    m.name = "selection";
    m.primitive = Primitive::Lines;
    m.positions.assign(c.begin(), c.end());
    m.normals.assign(8, Vec3{0, 1, 0});
    m.colors.assign(8, Rgba8{255, 170, 40, 255});
    for (int a = 0; a < 8; ++a)
        for (int bit : {1, 2, 4})
            if (!(a & bit))
                m.indices.insert(m.indices.end(), {std::uint32_t(a), std::uint32_t(a | bit)});
    // No LOD levels: the whole index list (line pairs) is drawn.
    m.computeBounds();
    return m;
}

// Resolved meshes at most this many vertices a batch (as buildPartMeshes batches shapes).
constexpr std::size_t kMaxBatchVertices = 4'000'000;

// A mesh's bounds as AssetScene frames it: its own, or over its positions when unset.
Bounds meshBounds(const Mesh& m) {
    Bounds b = m.bounds;
    if (!b.valid())
        for (const Vec3& p : m.positions) b.add(p);
    return b;
}

// `meshes` (triangles, each drawn whole at level 0) merged into one, as AssetScene would draw
// them one by one: a stream that some mesh lacks gets packMesh's defaults for its vertices
// (normal 0, white); indices past a mesh's vertices point at its first vertex. Texture
// coordinates are left out: the packed vertex has none.
Mesh mergeMeshes(std::span<const Mesh* const> meshes, std::string name) {
    Mesh out;
    out.name = std::move(name);
    std::size_t vertices = 0, indices = 0;
    bool normals = false, colors = false;
    for (const Mesh* m : meshes) {
        const std::size_t n = m->positions.size();
        vertices += n;
        indices += lodRange(*m, 0).count;
        normals |= m->normals.size() == n;
        colors |= m->colors.size() == n;
    }
    out.positions.reserve(vertices);
    if (normals) out.normals.reserve(vertices);
    if (colors) out.colors.reserve(vertices);
    out.indices.reserve(indices);
    for (const Mesh* m : meshes) {
        const std::size_t n = m->positions.size();
        const auto base = std::uint32_t(out.positions.size());
        out.positions.insert(out.positions.end(), m->positions.begin(), m->positions.end());
        if (normals) {
            if (m->normals.size() == n)
                out.normals.insert(out.normals.end(), m->normals.begin(), m->normals.end());
            else
                out.normals.resize(out.positions.size(), Vec3{0, 0, 0});
        }
        if (colors) {
            if (m->colors.size() == n)
                out.colors.insert(out.colors.end(), m->colors.begin(), m->colors.end());
            else
                out.colors.resize(out.positions.size(), Rgba8{255, 255, 255, 255});
        }
        const IndexRange r = lodRange(*m, 0);
        for (std::uint32_t i = r.first; i < r.first + r.count; ++i) {
            const std::uint32_t v = m->indices[i];
            out.indices.push_back(base + (v < n ? v : 0));
        }
        out.bounds.add(meshBounds(*m));
    }
    if (!out.indices.empty())
        out.lods.push_back({0, std::uint32_t(out.indices.size() / 3), std::string()});
    return out;
}

}  // namespace

RobloxPartsView::RobloxPartsView(Qt3DCore::QEntity* root, QWindow* window,
                                 Qt3DRender::QCamera* camera, QObject* parent)
    : QObject(parent),
      window_(window),
      camera_(camera),
      boxScene_(new AssetScene(root, nullptr, this)),
      translucentLayer_(new Qt3DRender::QLayer(root)) {
    translucentLayer_->setObjectName(QStringLiteral("translucent parts"));
    if (window_) window_->installEventFilter(this);
    if (camera_)
        connect(camera_, &Qt3DRender::QCamera::viewMatrixChanged, this,
                &RobloxPartsView::scheduleTranslucentSort);
}

RobloxPartsView::~RobloxPartsView() = default;

bool RobloxPartsView::hasParts(const Asset& asset) {
    if (!isRobloxModel(asset)) return false;
    // Classes are asked about once each, then nodes by their class.
    std::vector<std::uint8_t> partKind(asset.kinds.size());
    bool any = false;
    for (std::uint32_t k = 0; k < asset.kinds.size(); ++k)
        any |= partKind[k] = isRenderablePartClass(asset.kinds[k]);
    if (!any) return false;
    for (const Node& n : asset.nodes)
        if (n.kindId < partKind.size() && partKind[n.kindId]) return true;
    return false;
}

void RobloxPartsView::clear() {
    ownParts_ = {};
    shown_ = &ownParts_;
    partOfNode_.clear();
    translucentMeshes_.clear();
    partSorted_.clear();
    instanceSorted_ = {};
    scene_ = nullptr;
    sceneAsset_ = {};
    selected_ = -1;
    boxScene_->clear();
}

namespace {

// The terrain and water surfaces the decoder meshed from a place's Terrain.
bool isTerrainMesh(const Asset& asset, const Mesh& m) {
    return m.node >= 0 && asset.kind(m.node) == "Terrain" && !m.indices.empty();
}

}  // namespace

bool RobloxPartsView::show(const Asset& asset, const PartMeshes* meshes, AssetScene* scene) {
    clear();
    const bool terrain =
        isRobloxModel(asset) && std::any_of(asset.meshes.begin(), asset.meshes.end(),
                                            [&](const Mesh& m) { return isTerrainMesh(asset, m); });
    if (meshes && !meshes->parts.empty()) {
        shown_ = meshes;
    } else {
        if (!hasParts(asset) && !terrain) return false;
        ownParts_.parts = extractRobloxParts(asset);
    }
    const std::vector<RobloxPart>& parts = shown_->parts;
    partOfNode_.assign(asset.nodes.size(), -1);
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (parts[i].node >= 0 && std::size_t(parts[i].node) < partOfNode_.size())
            partOfNode_[std::size_t(parts[i].node)] = int(i);

    // Parts with a resolved mesh are drawn as that mesh (placed by the core already); the rest as
    // their shape, batched.
    Asset sceneAsset;
    sceneAsset.format = "roblox-parts";
    std::vector<bool> drawnAsMesh(parts.size());
    std::vector<bool> translucent;  // per scene mesh
    // Parts of a rig (Motor6D joints: the decoder linked each part node to its bone) move with
    // their bone: each is drawn as its own placed mesh, every vertex weighted 1 to the bone, on
    // one copy of the rig skeleton, so posing and animations move it like any skinned mesh.
    std::map<int, int> rigCopy;  // asset skeleton -> sceneAsset skeleton
    const auto rigBoneOf = [&](std::size_t part) -> std::pair<int, int> {
        const int node = parts[part].node;
        if (node < 0 || std::size_t(node) >= asset.nodes.size()) return {-1, -1};
        const NodeLinks& l = asset.links(node);
        if (l.skeleton < 0 || std::size_t(l.skeleton) >= asset.skeletons.size() || l.bone < 0 ||
            std::size_t(l.bone) >= asset.skeletons[std::size_t(l.skeleton)].bones.size() ||
            l.bone > 0xffff)
            return {-1, -1};
        return {l.skeleton, l.bone};
    };
    const auto rigSkin = [&](Mesh& mesh, std::size_t part) {
        const auto [skeleton, bone] = rigBoneOf(part);
        if (skeleton < 0) return false;
        auto [it, added] = rigCopy.try_emplace(skeleton, int(sceneAsset.skeletons.size()));
        if (added) sceneAsset.skeletons.push_back(asset.skeletons[std::size_t(skeleton)]);
        VertexInfluences rigid;
        rigid.joints[0] = std::uint16_t(bone);
        rigid.weights[0] = 1.0f;
        mesh.skin.assign(mesh.positions.size(), rigid);
        mesh.skeleton = it->second;
        return true;
    };
    // Opaque resolved meshes that nothing poses (no skin kept, no rig bone) and that draw one
    // level whole are merged into a few batches, placed first: a place with a thousand unions
    // would otherwise get an entity, a material and a draw call for each (1 100 unions of a
    // 57 000-instance place took about 0.5 s of its first frame in Qt 3D). Their boxes still
    // frame the view one by one. One such mesh alone is drawn as it is.
    const auto batchable = [&](const PartMesh& m) {
        const bool posed = m.skeleton >= 0 && std::size_t(m.skeleton) < shown_->skeletons.size() &&
                           m.mesh.skinned();
        return !posed && parts[m.part].transparency <= 0 && rigBoneOf(m.part).first < 0 &&
               m.mesh.primitive == Primitive::Triangles && m.mesh.lods.size() <= 1 &&
               m.mesh.indices.size() % 3 == 0;
    };
    std::vector<const Mesh*> batched;
    std::vector<std::vector<Bounds>> framing;  // per scene mesh: the boxes of a batch's parts
    for (const PartMesh& m : shown_->meshes)
        if (m.part < parts.size() && batchable(m)) batched.push_back(&m.mesh);
    if (batched.size() == 1) batched.clear();  // drawn as it is below
    for (std::size_t first = 0; first < batched.size();) {
        std::size_t end = first, vertices = 0;
        while (end < batched.size() &&
               (end == first || vertices + batched[end]->positions.size() <= kMaxBatchVertices))
            vertices += batched[end++]->positions.size();
        const std::span<const Mesh* const> batch(batched.data() + first, end - first);
        const std::size_t number = sceneAsset.meshes.size();
        sceneAsset.meshes.push_back(mergeMeshes(
            batch, number ? "part meshes " + std::to_string(number + 1) : "part meshes"));
        translucent.push_back(false);
        std::vector<Bounds>& boxes = framing.emplace_back();
        for (const Mesh* m : batch) boxes.push_back(meshBounds(*m));
        first = end;
    }
    for (const PartMesh& m : shown_->meshes) {
        if (m.part >= parts.size()) continue;
        drawnAsMesh[m.part] = true;
        if (!batched.empty() && batchable(m)) continue;
        // A skinned mesh comes with its own placed copy of the skeleton, so posing bends it in
        // place (the pose controller poses every copy by bone name).
        Mesh placed = m.mesh;
        if (m.skeleton >= 0 && std::size_t(m.skeleton) < shown_->skeletons.size() &&
            placed.skinned()) {
            placed.skeleton = int(sceneAsset.skeletons.size());
            sceneAsset.skeletons.push_back(shown_->skeletons[std::size_t(m.skeleton)]);
        } else if (!rigSkin(placed, m.part)) {
            placed.skin.clear();
            placed.skeleton = -1;
        }
        sceneAsset.meshes.push_back(std::move(placed));
        translucent.push_back(parts[m.part].transparency > 0);
    }
    // Rig parts drawn as their shape: one placed mesh each, skinned to their bone.
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (drawnAsMesh[i] || rigBoneOf(i).first < 0 || parts[i].transparency >= 0.999f) continue;
        for (Mesh& m : buildPartMeshes({parts[i]})) {
            m.name = asset.nameOrKind(parts[i].node);
            rigSkin(m, i);
            sceneAsset.meshes.push_back(std::move(m));
            translucent.push_back(parts[i].transparency > 0);
        }
        drawnAsMesh[i] = true;
    }
    // Parts drawn as their shape, by index into parts.
    std::vector<std::size_t> boxes;
    boxes.reserve(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (!drawnAsMesh[i]) boxes.push_back(i);
    // Opaque shapes drawn by instancing, one mesh per shape (added after the scene is set);
    // translucent ones one mesh each so that they can be sorted back to front (batched, with
    // their vertices baked, when there are very many).
    const auto firstTranslucent = std::stable_partition(
        boxes.begin(), boxes.end(), [&](std::size_t i) { return parts[i].transparency <= 0; });
    const std::vector<ShapeInstanceGroup> opaqueGroups =
        groupShapeInstances(parts, {boxes.begin(), firstTranslucent});
    std::vector<RobloxPart> translucentBoxes;
    for (auto it = firstTranslucent; it != boxes.end(); ++it)
        if (parts[*it].transparency < 0.999f) translucentBoxes.push_back(parts[*it]);
    boxes = {};
    std::vector<Mesh> translucentShapes;
    std::vector<PartIndexRange> translucentRanges;  // of the batched ones
    // Many translucent parts of one shape: one instanced mesh, sorted by instance (added with the
    // opaque ones). Of several shapes: batches of baked vertices, sorted by index range, so that
    // parts of different shapes still interleave back to front.
    std::vector<ShapeInstanceGroup> translucentGroups;
    if (translucentBoxes.size() > kMaxSortedTranslucentParts) {
        translucentGroups = groupShapeInstances(translucentBoxes);
        if (translucentGroups.size() != 1) translucentGroups.clear();
    }
    if (!translucentGroups.empty()) {
        // drawn by instancing below
    } else if (translucentBoxes.size() <= kMaxSortedTranslucentParts) {
        for (const RobloxPart& p : translucentBoxes)
            for (Mesh& m : buildPartMeshes({p})) {
                m.name = asset.nameOrKind(p.node);
                translucentShapes.push_back(std::move(m));
            }
    } else {
        translucentShapes = buildPartMeshes(translucentBoxes, 4'000'000, &translucentRanges);
        for (Mesh& m : translucentShapes) m.name = "translucent " + m.name;
        const int first = int(sceneAsset.meshes.size());
        for (std::size_t m = 0; m < translucentShapes.size(); ++m)
            partSorted_.push_back({first + int(m), {}, {}});
        for (const PartIndexRange& r : translucentRanges) partSorted_[r.mesh].ranges.push_back(r);
    }
    for (Mesh& m : translucentShapes) {
        sceneAsset.meshes.push_back(std::move(m));
        translucent.push_back(true);
    }
    // The place's terrain (vertex colours by material) and its water, translucent.
    for (const Mesh& m : asset.meshes) {
        if (!isTerrainMesh(asset, m)) continue;
        sceneAsset.meshes.push_back(m);
        translucent.push_back(!m.colors.empty() && m.colors.front().a < 255);
    }
    sceneAsset_ = std::move(sceneAsset);
    scene->setAsset(sceneAsset_, &framing);
    for (int m = 0; m < scene->meshCount(); ++m) {
        scene->meshMaterial(m)->setBaseColor(QColor(255, 255, 255));
        if (!translucent[std::size_t(m)]) continue;
        scene->meshMaterial(m)->setTranslucent(true);
        scene->meshEntity(m)->addComponent(translucentLayer_);
        translucentMeshes_.push_back(m);
    }
    // sceneAsset_ keeps one mesh per scene mesh: an instanced one holds the unit shape.
    for (const ShapeInstanceGroup& g : opaqueGroups) {
        Mesh unit = partShapeMesh(g.shape);
        unit.name = "parts: " + unit.name;
        scene->addInstancedMesh(unit, g.instances);
        sceneAsset_.meshes.push_back(std::move(unit));
    }
    for (ShapeInstanceGroup& g : translucentGroups) {
        Mesh unit = partShapeMesh(g.shape);
        unit.name = "translucent parts: " + unit.name;
        const int m = scene->addInstancedMesh(unit, g.instances);
        sceneAsset_.meshes.push_back(std::move(unit));
        scene->meshMaterial(m)->setTranslucent(true);
        scene->meshEntity(m)->addComponent(translucentLayer_);
        translucentMeshes_.push_back(m);
        instanceSorted_ = {m, std::move(g.instances), {}};
    }
    scene_ = scene;
    sortTranslucentParts();
    return true;
}

std::vector<int> RobloxPartsView::partSortedMeshes() const {
    std::vector<int> out;
    for (const PartSortedMesh& m : partSorted_) out.push_back(m.sceneMesh);
    return out;
}

void RobloxPartsView::scheduleTranslucentSort() {
    // The camera changes position, centre and up vector one by one: sort once they are all set.
    if ((partSorted_.empty() && instanceSorted_.sceneMesh < 0) || sortScheduled_) return;
    sortScheduled_ = true;
    QTimer::singleShot(0, this, [this]() {
        sortScheduled_ = false;
        sortTranslucentParts();
    });
}

int RobloxPartsView::sortTranslucentParts() {
    if (!scene_ || !camera_ || (partSorted_.empty() && instanceSorted_.sceneMesh < 0)) return 0;
    const QVector3D eye = camera_->position();
    const QVector3D forward = (camera_->viewCenter() - eye).normalized();
    int rewritten = 0;
    if (Qt3DCore::QBuffer* buffer = scene_->instanceBuffer(instanceSorted_.sceneMesh)) {
        std::vector<std::uint32_t> order =
            instancesBackToFront(instanceSorted_.instances, {eye.x(), eye.y(), eye.z()},
                                 {forward.x(), forward.y(), forward.z()});
        if (order != instanceSorted_.order) {
            buffer->setData(packInstances(instanceSorted_.instances, order));
            instanceSorted_.order = std::move(order);
            ++rewritten;
        }
    }
    for (PartSortedMesh& m : partSorted_) {
        if (m.sceneMesh < 0 || std::size_t(m.sceneMesh) >= sceneAsset_.meshes.size()) continue;
        Qt3DCore::QBuffer* buffer = scene_->indexBuffer(m.sceneMesh);
        if (!buffer) continue;
        std::vector<std::uint32_t> order = partIndicesBackToFront(
            sceneAsset_.meshes[std::size_t(m.sceneMesh)].indices, m.ranges,
            {eye.x(), eye.y(), eye.z()}, {forward.x(), forward.y(), forward.z()});
        if (order == m.order) continue;
        buffer->setData(QByteArray(reinterpret_cast<const char*>(order.data()),
                                   qsizetype(order.size() * sizeof(std::uint32_t))));
        m.order = std::move(order);
        ++rewritten;
    }
    return rewritten;
}

int RobloxPartsView::partForNode(int node) const {
    return node >= 0 && node < int(partOfNode_.size()) ? partOfNode_[std::size_t(node)] : -1;
}

void RobloxPartsView::setSelectedNode(int node) {
    const int part = partForNode(node);
    if (part == selected_) return;
    selected_ = part;
    if (part < 0) {
        boxScene_->clear();
        return;
    }
    Asset box;
    box.meshes.push_back(selectionBox(parts()[std::size_t(part)]));
    boxScene_->setAsset(box);
    boxScene_->meshMaterial(0)->setBaseColor(QColor(255, 255, 255));
}

bool RobloxPartsView::selectionBoxVisible() const {
    return boxScene_->meshCount() > 0;
}

int RobloxPartsView::pickNode(QPointF pos) const {
    const std::vector<RobloxPart>& parts = shown_->parts;
    if (parts.empty() || !window_ || !camera_ || window_->width() <= 0 || window_->height() <= 0)
        return -1;
    const float x = float(2 * pos.x() / window_->width() - 1);
    const float y = float(1 - 2 * pos.y() / window_->height());
    const QMatrix4x4 inv = (camera_->projectionMatrix() * camera_->viewMatrix()).inverted();
    const QVector3D a = inv.map(QVector3D(x, y, -1)), b = inv.map(QVector3D(x, y, 1));
    const QVector3D d = (b - a).normalized();
    const int part = pickPart(parts, {a.x(), a.y(), a.z()}, {d.x(), d.y(), d.z()});
    return part < 0 ? -1 : parts[std::size_t(part)].node;
}

bool RobloxPartsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && !shown_->parts.empty()) {
        if (event->type() == QEvent::MouseButtonPress) {
            auto* e = static_cast<QMouseEvent*>(event);
            pressed_ = e->button() == Qt::LeftButton;
            pressPos_ = e->position();
        } else if (event->type() == QEvent::MouseButtonRelease && pressed_) {
            auto* e = static_cast<QMouseEvent*>(event);
            pressed_ = false;
            // A click, not the end of an orbit drag.
            if (e->button() == Qt::LeftButton &&
                (e->position() - pressPos_).manhattanLength() < 4) {
                const int node = pickNode(e->position());
                if (node >= 0) emit nodePicked(node);
            }
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace meshscope::render
