// GLSL materials (see materials.h). Every material has one OpenGL 3.2 core technique.
#include "meshscope/render/materials.h"

#include <QByteArray>
#include <QHash>
#include <QUrl>
#include <QVector3D>
#include <Qt3DRender/QBlendEquation>
#include <Qt3DRender/QBlendEquationArguments>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QEffect>
#include <Qt3DRender/QFilterKey>
#include <Qt3DRender/QGraphicsApiFilter>
#include <Qt3DRender/QNoDepthMask>
#include <Qt3DRender/QParameter>
#include <Qt3DRender/QPointSize>
#include <Qt3DRender/QPolygonOffset>
#include <Qt3DRender/QRasterMode>
#include <Qt3DRender/QRenderPass>
#include <Qt3DRender/QShaderProgram>
#include <Qt3DRender/QTechnique>

#include "meshscope/resources/resources.h"

namespace meshscope::render {

namespace {

using namespace Qt3DRender;

// The source of a shader of the resources, loaded once: every LitMaterial makes three programs,
// and QShaderProgram::loadSource reads the resource and resolves its #includes each time (a
// place drawing a few hundred translucent parts one by one makes a material for each). The
// shared QByteArray is implicitly shared, not copied. GUI thread only, as the materials are.
QByteArray shaderSource(const char* file) {
    static QHash<QByteArray, QByteArray> loaded;
    const QByteArray key(file);
    auto it = loaded.find(key);
    if (it == loaded.end())
        it = loaded.insert(key, QShaderProgram::loadSource(
                                    QUrl(QStringLiteral("qrc:/meshscope/shaders/%1").arg(file))));
    return *it;
}

QShaderProgram* program(const char* vert, const char* frag, Qt3DCore::QNode* parent) {
    resources::initialize();
    auto* p = new QShaderProgram(parent);
    p->setVertexShaderCode(shaderSource(vert));
    p->setFragmentShaderCode(shaderSource(frag));
    return p;
}

QTechnique* glTechnique(QEffect* effect) {
    auto* t = new QTechnique(effect);
    t->graphicsApiFilter()->setApi(QGraphicsApiFilter::OpenGL);
    t->graphicsApiFilter()->setProfile(QGraphicsApiFilter::CoreProfile);
    t->graphicsApiFilter()->setMajorVersion(3);
    t->graphicsApiFilter()->setMinorVersion(2);
    auto* key = new QFilterKey(t);
    key->setName(QStringLiteral("renderingStyle"));
    key->setValue(QStringLiteral("forward"));
    t->addFilterKey(key);
    effect->addTechnique(t);
    return t;
}

QVector3D rgb(const QColor& c) {
    return {float(c.redF()), float(c.greenF()), float(c.blueF())};
}

void addAlphaBlending(QRenderPass* pass) {
    auto* eq = new QBlendEquation(pass);
    eq->setBlendFunction(QBlendEquation::Add);
    auto* args = new QBlendEquationArguments(pass);
    args->setSourceRgba(QBlendEquationArguments::SourceAlpha);
    args->setDestinationRgba(QBlendEquationArguments::OneMinusSourceAlpha);
    pass->addRenderState(eq);
    pass->addRenderState(args);
}

}  // namespace

LitMaterial::LitMaterial(Qt3DCore::QNode* parent, Placement placement) : QMaterial(parent) {
    const char* vert = placement == Placement::Instances ? "lit_instanced.vert" : "lit.vert";
    auto* effect = new QEffect(this);
    technique_ = glTechnique(effect);

    auto* solid = new QRenderPass(technique_);
    solidPass_ = solid;
    solid->setShaderProgram(program(vert, "lit.frag", solid));
    solid->addParameter(new QParameter(QStringLiteral("alphaFromColor"), 0.f, solid));
    auto* depth = new QDepthTest(solid);
    depth->setDepthFunction(QDepthTest::LessOrEqual);
    solid->addRenderState(depth);
    // Pushes filled triangles back a little so the wireframe pass wins the depth test.
    auto* offset = new QPolygonOffset(solid);
    offset->setScaleFactor(1.f);
    offset->setDepthSteps(1.f);
    solid->addRenderState(offset);
    technique_->addRenderPass(solid);

    // The translucent variant of the solid pass (swapped in by setTranslucent): colour alpha,
    // "over" blending (colour: a·src + (1−a)·dst; alpha: a + (1−a)·dst alpha, so over a
    // transparent clear the target holds premultiplied colour with the right coverage), depth
    // test without depth writes, and back faces culled so a closed part blends once per pixel.
    translucentPass_ = new QRenderPass(this);
    translucentPass_->setShaderProgram(program(vert, "lit.frag", translucentPass_));
    translucentPass_->addParameter(
        new QParameter(QStringLiteral("alphaFromColor"), 1.f, translucentPass_));
    auto* translucentDepth = new QDepthTest(translucentPass_);
    translucentDepth->setDepthFunction(QDepthTest::LessOrEqual);
    translucentPass_->addRenderState(translucentDepth);
    translucentPass_->addRenderState(new QNoDepthMask(translucentPass_));
    auto* cull = new QCullFace(translucentPass_);
    cull->setMode(QCullFace::Back);
    translucentPass_->addRenderState(cull);
    auto* overEquation = new QBlendEquation(translucentPass_);
    overEquation->setBlendFunction(QBlendEquation::Add);
    auto* over = new QBlendEquationArguments(translucentPass_);
    over->setSourceRgb(QBlendEquationArguments::SourceAlpha);
    over->setDestinationRgb(QBlendEquationArguments::OneMinusSourceAlpha);
    over->setSourceAlpha(QBlendEquationArguments::One);
    over->setDestinationAlpha(QBlendEquationArguments::OneMinusSourceAlpha);
    translucentPass_->addRenderState(overEquation);
    translucentPass_->addRenderState(over);

    wirePass_ = new QRenderPass(this);
    wirePass_->setShaderProgram(program(vert, "wire.frag", wirePass_));
    auto* wireDepth = new QDepthTest(wirePass_);
    wireDepth->setDepthFunction(QDepthTest::LessOrEqual);
    wirePass_->addRenderState(wireDepth);
    auto* raster = new QRasterMode(wirePass_);
    raster->setRasterMode(QRasterMode::Lines);
    raster->setFaceMode(QRasterMode::FrontAndBack);
    wirePass_->addRenderState(raster);
    addAlphaBlending(wirePass_);
    wirePass_->addParameter(
        new QParameter(QStringLiteral("wireColor"), QColor(20, 24, 32, 170), wirePass_));

    effect->addParameter(new QParameter(QStringLiteral("skyColor"), rgb(QColor(235, 240, 250))));
    effect->addParameter(new QParameter(QStringLiteral("groundColor"), rgb(QColor(95, 85, 75))));
    effect->addParameter(
        new QParameter(QStringLiteral("highlightColor"), rgb(QColor(255, 150, 40))));
    setEffect(effect);

    baseColor_ = new QParameter(QStringLiteral("baseColor"), QColor(200, 200, 200), this);
    highlight_ = new QParameter(QStringLiteral("highlight"), 0.f, this);
    addParameter(baseColor_);
    addParameter(highlight_);
    passesRevision_ = new QParameter(QStringLiteral("passesRevision"), 0.f, this);
}

// Qt 3D 6.4's OpenGL renderer marks a technique whose passes changed as "techniques dirty",
// which neither asks an on-demand window for a frame nor rebuilds the cached material → pass
// lists: W drew nothing on screen until some other change (an F12 capture) rebuilt the frame
// graph, and lines then stayed whatever W said. A change in the material's own parameter list
// marks the material dirty, which does both.
void LitMaterial::passesChanged() {
    if (parameters().contains(passesRevision_))
        removeParameter(passesRevision_);
    else
        addParameter(passesRevision_);
}

void LitMaterial::setBaseColor(const QColor& color) {
    baseColor_->setValue(color);
}

void LitMaterial::setHighlighted(bool on) {
    highlighted_ = on;
    highlight_->setValue(on ? 1.f : 0.f);
}

void LitMaterial::setWireframe(bool on) {
    if (on == wireframe_) return;
    wireframe_ = on;
    if (on)
        technique_->addRenderPass(wirePass_);
    else
        technique_->removeRenderPass(wirePass_);
    passesChanged();
}

void LitMaterial::setPointSize(float pixels) {
    if (!pointSize_) {
        // One state in both passes (a node may be shared by several passes).
        pointSize_ = new Qt3DRender::QPointSize(this);
        pointSize_->setSizeMode(Qt3DRender::QPointSize::Fixed);
        solidPass_->addRenderState(pointSize_);
        translucentPass_->addRenderState(pointSize_);
    }
    pointSize_->setValue(pixels);
}

void LitMaterial::setTranslucent(bool on) {
    if (on == translucent_) return;
    translucent_ = on;
    // Keep the wireframe pass after the solid one.
    if (wireframe_) technique_->removeRenderPass(wirePass_);
    technique_->removeRenderPass(on ? solidPass_ : translucentPass_);
    technique_->addRenderPass(on ? translucentPass_ : solidPass_);
    if (wireframe_) technique_->addRenderPass(wirePass_);
    passesChanged();
}

GridMaterial::GridMaterial(Qt3DCore::QNode* parent) : QMaterial(parent) {
    auto* effect = new QEffect(this);
    auto* t = glTechnique(effect);
    auto* pass = new QRenderPass(t);
    pass->setShaderProgram(program("grid.vert", "grid.frag", pass));
    auto* depth = new QDepthTest(pass);
    depth->setDepthFunction(QDepthTest::LessOrEqual);
    pass->addRenderState(depth);
    pass->addRenderState(new QNoDepthMask(pass));
    addAlphaBlending(pass);
    t->addRenderPass(pass);
    setEffect(effect);
    center_ = new QParameter(QStringLiteral("gridCenter"), QVector3D(), this);
    radius_ = new QParameter(QStringLiteral("gridRadius"), 1.f, this);
    addParameter(center_);
    addParameter(radius_);
}

void GridMaterial::setExtent(const QVector3D& center, float radius) {
    center_->setValue(center);
    radius_->setValue(radius);
}

BackgroundMaterial::BackgroundMaterial(Qt3DCore::QNode* parent) : QMaterial(parent) {
    auto* effect = new QEffect(this);
    auto* t = glTechnique(effect);
    auto* pass = new QRenderPass(t);
    pass->setShaderProgram(program("background.vert", "background.frag", pass));
    auto* depth = new QDepthTest(pass);
    depth->setDepthFunction(QDepthTest::Always);
    pass->addRenderState(depth);
    pass->addRenderState(new QNoDepthMask(pass));
    t->addRenderPass(pass);
    setEffect(effect);
    top_ = new QParameter(QStringLiteral("topColor"), QVector3D(), this);
    bottom_ = new QParameter(QStringLiteral("bottomColor"), QVector3D(), this);
    addParameter(top_);
    addParameter(bottom_);
}

void BackgroundMaterial::setColors(const QColor& top, const QColor& bottom) {
    top_->setValue(rgb(top));
    bottom_->setValue(rgb(bottom));
}

}  // namespace meshscope::render
