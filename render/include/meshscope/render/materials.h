// The GLSL materials of the viewer (OpenGL 3.2 core profile; shaders in resources/shaders):
// LitMaterial (headlight + hemisphere lighting times vertex colour, optional wireframe overlay
// pass and selection highlight, opaque or translucent; per-vertex or per-instance placement),
// GridMaterial (fading lines) and BackgroundMaterial (gradient).
#pragma once

#include <QColor>
#include <Qt3DRender/QMaterial>

namespace Qt3DRender {
class QParameter;
class QPointSize;
class QRenderPass;
class QTechnique;
}  // namespace Qt3DRender

namespace meshscope::render {

class LitMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    enum class Placement { Vertices, Instances };
    // Placement::Instances: the mesh is drawn once per instance, each placed and tinted by the
    // per-instance attributes instanceRow0..2 (rows of a 3×4 affine transform) and instanceColor
    // (shaders/lit_instanced.vert).
    explicit LitMaterial(Qt3DCore::QNode* parent = nullptr,
                         Placement placement = Placement::Vertices);

    void setBaseColor(const QColor& color);
    void setHighlighted(bool on);
    bool highlighted() const { return highlighted_; }
    void setWireframe(bool on);
    bool wireframe() const { return wireframe_; }
    // Translucent: alpha = base colour alpha × vertex colour alpha, blended over what is drawn
    // ("over", so a transparent background keeps the right coverage), depth tested but not
    // written, back faces culled. Draw such meshes after the opaque ones, back to front (the
    // viewport's translucent layer does).
    void setTranslucent(bool on);
    bool translucent() const { return translucent_; }
    // Points (a point cloud) drawn `pixels` wide, opaque or translucent.
    void setPointSize(float pixels);

private:
    Qt3DRender::QTechnique* technique_ = nullptr;
    Qt3DRender::QRenderPass* solidPass_ = nullptr;
    Qt3DRender::QRenderPass* translucentPass_ = nullptr;
    Qt3DRender::QRenderPass* wirePass_ = nullptr;
    Qt3DRender::QPointSize* pointSize_ = nullptr;  // made by setPointSize
    Qt3DRender::QParameter* baseColor_ = nullptr;
    Qt3DRender::QParameter* highlight_ = nullptr;
    // Present or absent in turn on each change of passes: see passesChanged().
    Qt3DRender::QParameter* passesRevision_ = nullptr;
    void passesChanged();
    bool highlighted_ = false;
    bool wireframe_ = false;
    bool translucent_ = false;
};

class GridMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    explicit GridMaterial(Qt3DCore::QNode* parent = nullptr);
    void setExtent(const QVector3D& center, float radius);

private:
    Qt3DRender::QParameter* center_ = nullptr;
    Qt3DRender::QParameter* radius_ = nullptr;
};

class BackgroundMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    explicit BackgroundMaterial(Qt3DCore::QNode* parent = nullptr);
    void setColors(const QColor& top, const QColor& bottom);

private:
    Qt3DRender::QParameter* top_ = nullptr;
    Qt3DRender::QParameter* bottom_ = nullptr;
};

}  // namespace meshscope::render
