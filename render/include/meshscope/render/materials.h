// The GLSL materials of the viewer (OpenGL 3.2 core profile; shaders in resources/shaders):
// LitMaterial (headlight + hemisphere lighting times vertex colour, optional wireframe overlay
// pass and selection highlight), GridMaterial (fading lines) and BackgroundMaterial (gradient).
#pragma once

#include <QColor>
#include <Qt3DRender/QMaterial>

namespace Qt3DRender {
class QParameter;
class QRenderPass;
class QTechnique;
}  // namespace Qt3DRender

namespace meshscope::render {

class LitMaterial : public Qt3DRender::QMaterial {
    Q_OBJECT
public:
    explicit LitMaterial(Qt3DCore::QNode* parent = nullptr);

    void setBaseColor(const QColor& color);
    void setHighlighted(bool on);
    bool highlighted() const { return highlighted_; }
    void setWireframe(bool on);
    bool wireframe() const { return wireframe_; }

private:
    Qt3DRender::QTechnique* technique_ = nullptr;
    Qt3DRender::QRenderPass* wirePass_ = nullptr;
    Qt3DRender::QParameter* baseColor_ = nullptr;
    Qt3DRender::QParameter* highlight_ = nullptr;
    bool highlighted_ = false;
    bool wireframe_ = false;
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
