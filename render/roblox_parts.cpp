// Roblox parts in the 3D view (see roblox_parts.h).
#include "meshscope/render/roblox_parts.h"

#include <QDir>
#include <QFileInfo>
#include <QMouseEvent>
#include <QSettings>
#include <QTimer>
#include <QVector3D>
#include <QWindow>
#include <Qt3DCore/QBuffer>
#include <Qt3DCore/QEntity>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QLayer>
#include <algorithm>
#include <map>

#include "meshscope/core/asset_resolver.h"
#include "meshscope/core/decode.h"
#include "meshscope/render/asset_scene.h"
#include "meshscope/render/materials.h"
#include "meshscope/render/mesh_packing.h"

namespace meshscope::render {

namespace {

QStringList& sessionFolders() {
    static QStringList folders;
    return folders;
}

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

void RobloxPartsView::addSessionFolder(const QString& folder) {
    if (!sessionFolders().contains(folder)) sessionFolders().append(folder);
}

QStringList RobloxPartsView::assetFolders() {
    QStringList folders = QSettings().value(settingsKey()).toStringList();
    for (const QString& f : sessionFolders())
        if (!folders.contains(f)) folders.append(f);
    return folders;
}

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
    parts_.clear();
    partOfNode_.clear();
    translucentMeshes_.clear();
    partSorted_.clear();
    instanceSorted_ = {};
    scene_ = nullptr;
    resolvedMeshes_ = 0;
    unionMeshes_ = 0;
    unionWarnings_.clear();
    sceneAsset_ = {};
    selected_ = -1;
    boxScene_->clear();
    if (!unresolved_.isEmpty()) {
        unresolved_.clear();
        emit unresolvedChanged(unresolved_);
    }
}

namespace {

// The terrain and water surfaces the decoder meshed from a place's Terrain.
bool isTerrainMesh(const Asset& asset, const Mesh& m) {
    return m.node >= 0 && asset.kind(m.node) == "Terrain" && !m.indices.empty();
}

}  // namespace

bool RobloxPartsView::show(const Asset& asset, AssetScene* scene) {
    clear();
    const bool terrain =
        isRobloxModel(asset) && std::any_of(asset.meshes.begin(), asset.meshes.end(),
                                            [&](const Mesh& m) { return isTerrainMesh(asset, m); });
    if (!hasParts(asset) && !terrain) return false;
    parts_ = extractRobloxParts(asset);
    partOfNode_.assign(asset.nodes.size(), -1);
    for (std::size_t i = 0; i < parts_.size(); ++i)
        partOfNode_[std::size_t(parts_[i].node)] = int(i);

    // Parts with a resolvable mesh are drawn as that mesh; the rest (and unresolved ones) as
    // their shape, batched.
    std::vector<std::filesystem::path> folders;
    for (const QString& f : assetFolders())
        folders.emplace_back(QDir(f).absolutePath().toStdString());
    const AssetResolver resolver(std::move(folders));
    struct Resolved {
        Mesh mesh;                         // the file's first mesh
        std::optional<Skeleton> skeleton;  // its skeleton when it is skinned
    };
    std::map<std::string, std::optional<Resolved>> cache;  // resolved path → mesh
    Asset sceneAsset;
    sceneAsset.format = "roblox-parts";
    // Parts drawn as their shape (no mesh, or one that is not resolved), by index into parts_.
    std::vector<std::size_t> boxes;
    boxes.reserve(parts_.size());
    std::vector<bool> translucent;  // per scene mesh
    QStringList unionsWithout;      // unions drawn as boxes: "name: why"
    for (std::size_t i = 0; i < parts_.size(); ++i) {
        RobloxPart& p = parts_[i];
        if (isUnionClass(p.className) && p.transparency < 0.999f) {
            // NegateOperations only cut other parts: Roblox does not draw them.
            if (p.className == "NegateOperation") continue;
            const UnionMesh u = unionPartMesh(asset, p, &resolver);
            if (u.ok()) {
                sceneAsset.meshes.push_back(std::move(*u.placed));
                sceneAsset.meshes.back().name = asset.nameOrKind(p.node);
                translucent.push_back(p.transparency > 0);
                ++unionMeshes_;
                continue;
            }
            const std::string_view name = asset.nameOrKind(p.node);
            unionsWithout << QString::fromUtf8(name.data(), qsizetype(name.size())) + ": " +
                                 QString::fromStdString(u.why);
            // Not its geometry: its Size box, see-through, so it does not pass for the shape.
            p.transparency = std::max(p.transparency, 0.7f);
            boxes.push_back(i);
            continue;
        }
        if (p.meshId.empty() || p.transparency >= 0.999f) {
            boxes.push_back(i);
            continue;
        }
        const std::string_view name = asset.name(p.node);
        const auto nodeName = QString::fromUtf8(name.data(), qsizetype(name.size()));
        const AssetResolution r = resolver.resolve(p.meshId);
        const Resolved* mesh = nullptr;
        if (r.ok()) {
            auto [it, fresh] = cache.try_emplace(r.path.string());
            if (fresh) {
                DecodeResult d = decodeFile(r.path.string());
                if (!d.asset.meshes.empty() && d.asset.meshes.front().triangleCount() > 0) {
                    Resolved r{std::move(d.asset.meshes.front()), {}};
                    if (r.mesh.skinned() && r.mesh.skeleton >= 0 &&
                        r.mesh.skeleton < int(d.asset.skeletons.size()))
                        r.skeleton = std::move(d.asset.skeletons[std::size_t(r.mesh.skeleton)]);
                    it->second = std::move(r);
                }
            }
            if (it->second)
                mesh = &*it->second;
            else
                unresolved_ << tr("%1: %2 holds no mesh")
                                   .arg(nodeName, QString::fromStdString(r.path.string()));
        } else {
            unresolved_ << tr("%1: %2").arg(nodeName, QString::fromStdString(r.warning));
        }
        if (mesh) {
            // A skinned mesh gets its own copy of the skeleton, placed like the mesh, so posing
            // bends it in place (the pose controller poses every copy by bone name).
            Mesh placed = placePartMesh(mesh->mesh, p);
            if (mesh->skeleton && placed.skinned()) {
                placed.skeleton = int(sceneAsset.skeletons.size());
                sceneAsset.skeletons.push_back(
                    placePartSkeleton(*mesh->skeleton, partMeshPlacement(mesh->mesh, p)));
            } else {
                placed.skin.clear();
            }
            sceneAsset.meshes.push_back(std::move(placed));
            translucent.push_back(p.transparency > 0);
            ++resolvedMeshes_;
        } else {
            boxes.push_back(i);
        }
    }
    // Opaque shapes drawn by instancing, one mesh per shape (added after the scene is set);
    // translucent ones one mesh each so that they can be sorted back to front (batched, with
    // their vertices baked, when there are very many).
    const auto firstTranslucent = std::stable_partition(
        boxes.begin(), boxes.end(), [this](std::size_t i) { return parts_[i].transparency <= 0; });
    const std::vector<ShapeInstanceGroup> opaqueGroups =
        groupShapeInstances(parts_, {boxes.begin(), firstTranslucent});
    std::vector<RobloxPart> translucentBoxes;
    for (auto it = firstTranslucent; it != boxes.end(); ++it)
        if (parts_[*it].transparency < 0.999f) translucentBoxes.push_back(parts_[*it]);
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
    scene->setAsset(sceneAsset_);
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
    if (!unresolved_.isEmpty()) emit unresolvedChanged(unresolved_);
    if (!unionsWithout.isEmpty()) {
        // Said once, listing the unions (the first few by name and reason).
        QString m =
            tr("%n union(s) drawn as translucent boxes of their Size: their geometry is "
               "not in this file or the asset folders",
               nullptr, int(unionsWithout.size()));
        const qsizetype shown = std::min<qsizetype>(unionsWithout.size(), 8);
        m += QStringLiteral(" (") +
             QStringList(unionsWithout.mid(0, shown)).join(QStringLiteral("; "));
        if (unionsWithout.size() > shown) m += tr("; %1 more").arg(unionsWithout.size() - shown);
        m += QStringLiteral(")");
        unionWarnings_ << m;
        emit unionWarningsChanged(unionWarnings_);
    }
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
    box.meshes.push_back(selectionBox(parts_[std::size_t(part)]));
    boxScene_->setAsset(box);
    boxScene_->meshMaterial(0)->setBaseColor(QColor(255, 255, 255));
}

bool RobloxPartsView::selectionBoxVisible() const {
    return boxScene_->meshCount() > 0;
}

int RobloxPartsView::pickNode(QPointF pos) const {
    if (parts_.empty() || !window_ || !camera_ || window_->width() <= 0 || window_->height() <= 0)
        return -1;
    const float x = float(2 * pos.x() / window_->width() - 1);
    const float y = float(1 - 2 * pos.y() / window_->height());
    const QMatrix4x4 inv = (camera_->projectionMatrix() * camera_->viewMatrix()).inverted();
    const QVector3D a = inv.map(QVector3D(x, y, -1)), b = inv.map(QVector3D(x, y, 1));
    const QVector3D d = (b - a).normalized();
    const int part = pickPart(parts_, {a.x(), a.y(), a.z()}, {d.x(), d.y(), d.z()});
    return part < 0 ? -1 : parts_[std::size_t(part)].node;
}

bool RobloxPartsView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && !parts_.empty()) {
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
