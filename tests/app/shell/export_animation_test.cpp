// File › Export… for glTF with animations: the asset's own animations chosen by index, and the
// animations of another file put on the open rig with core's addAnimationsFrom (as
// meshscope-cli export --animation does); the written .glb's JSON says what went in.
#include <gtest/gtest.h>

#include <QFile>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "meshscope/core/decode.h"
#include "meshscope/core/mesh_generators.h"
#include "meshscope/core/pose.h"
#include "meshscope/core/unigine_writer.h"
#include "support/rig_fixtures.h"
#include "support/test_support.h"
#include "window/export_dialog.h"

using namespace meshscope;
using namespace meshscope::shell;

namespace {

// test::tempDir empties the folder: each test takes it once and writes its files into it.
std::string writeFixture(const std::filesystem::path& dir, const std::string& name,
                         const UnigineWriteResult& written) {
    EXPECT_TRUE(written.ok()) << (written.error ? *written.error : "");
    const auto path = dir / name;
    test::writeFile(path, written.bytes);
    return path.string();
}

// The JSON chunk of a .glb (glTF 2.0 binary: 12-byte header, then a chunk of type "JSON").
nlohmann::json glbJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = file.readAll();
    if (bytes.size() < 20 || !bytes.startsWith("glTF")) return {};
    std::uint32_t length = 0;
    std::memcpy(&length, bytes.constData() + 12, 4);
    if (std::memcmp(bytes.constData() + 16, "JSON", 4) != 0 ||
        20 + qsizetype(length) > bytes.size())
        return {};
    return nlohmann::json::parse(bytes.constData() + 20, bytes.constData() + 20 + length, nullptr,
                                 false);
}

std::vector<std::string> animationNames(const nlohmann::json& gltf) {
    std::vector<std::string> names;
    if (gltf.contains("animations"))
        for (const auto& a : gltf["animations"]) names.push_back(a.value("name", ""));
    return names;
}

}  // namespace

TEST(ExportAnimations, OwnAndFromFileAnimationsAreWrittenToTheGlb) {
    const auto dir = test::tempDir("app_export_animation_own");
    const std::string mesh =
        writeFixture(dir, "tube.smesh", writeUnigineSkinnedMesh(test::bendingTube(3, "own", 0.3f)));
    const std::string anim =
        writeFixture(dir, "more.sanim", writeUnigineAnimation(test::bendingTube(3, "more", 0.3f)));
    const DecodeResult decoded = decodeFile(mesh);
    ASSERT_TRUE(decoded.ok()) << decoded.error->toString();
    ASSERT_EQ(decoded.asset.animations.size(), 1u);
    // The Unigine formats store no animation names: the decoders name them.
    const DecodeResult loaded = decodeFile(anim);
    ASSERT_TRUE(loaded.ok()) << loaded.error->toString();
    ASSERT_EQ(loaded.asset.animations.size(), 1u);
    const std::string ownName = decoded.asset.animations[0].name;
    const std::string fileName = loaded.asset.animations[0].name;

    // Everything: the own animation and the loaded file's.
    std::vector<ExportAnimationChoice> choices =
        exportAnimationChoices(decoded.asset, {QString::fromStdString(anim)});
    ASSERT_EQ(choices.size(), 2u);
    EXPECT_EQ(choices[0].ownIndex, 0);
    EXPECT_EQ(choices[1].file.toStdString(), anim);
    ExportRequest request;
    request.kind = ExportKind::Glb;
    request.path = QString::fromStdString((dir / "both.glb").string());
    applyAnimationChoices(choices, request);
    ExportOutcome outcome = exportAssetTo(decoded.asset, QString::fromStdString(mesh), request);
    ASSERT_TRUE(outcome.ok) << outcome.error.toStdString();
    EXPECT_EQ(outcome.animations, 2u);
    EXPECT_TRUE(outcome.summary().contains("2 animation")) << outcome.summary().toStdString();
    nlohmann::json gltf = glbJson(request.path);
    ASSERT_TRUE(gltf.is_object());
    ASSERT_TRUE(gltf.contains("animations"));
    EXPECT_EQ(animationNames(gltf), (std::vector<std::string>{ownName, fileName}));
    for (const auto& a : gltf["animations"]) EXPECT_FALSE(a["channels"].empty());

    // Only the file's: the own animation unchecked.
    choices[0].checked = false;
    request.path = QString::fromStdString((dir / "file_only.glb").string());
    applyAnimationChoices(choices, request);
    outcome = exportAssetTo(decoded.asset, QString::fromStdString(mesh), request);
    ASSERT_TRUE(outcome.ok) << outcome.error.toStdString();
    EXPECT_EQ(animationNames(glbJson(request.path)), (std::vector<std::string>{fileName}));

    // None: no animations array.
    choices[1].checked = false;
    request.path = QString::fromStdString((dir / "none.glb").string());
    applyAnimationChoices(choices, request);
    outcome = exportAssetTo(decoded.asset, QString::fromStdString(mesh), request);
    ASSERT_TRUE(outcome.ok) << outcome.error.toStdString();
    gltf = glbJson(request.path);
    ASSERT_TRUE(gltf.is_object());
    EXPECT_FALSE(gltf.contains("animations"));
    EXPECT_EQ(outcome.animations, 0u);
}

TEST(ExportAnimations, AFileThatIsNoAnimationFailsTheExportAndObjRefusesAnimations) {
    const auto dir = test::tempDir("app_export_animation_refused");
    const std::string mesh = writeFixture(
        dir, "tube2.smesh", writeUnigineSkinnedMesh(test::bendingTube(3, "own", 0.3f)));
    const DecodeResult decoded = decodeFile(mesh);
    ASSERT_TRUE(decoded.ok()) << decoded.error->toString();
    const auto junk = dir / "junk.sanim";
    test::writeFile(junk, {1, 2, 3, 4});
    ExportRequest request;
    request.kind = ExportKind::Glb;
    request.path = QString::fromStdString((dir / "junk.glb").string());
    request.animationFiles << QString::fromStdString(junk.string());
    ExportOutcome outcome = exportAssetTo(decoded.asset, QString::fromStdString(mesh), request);
    EXPECT_FALSE(outcome.ok);
    EXPECT_TRUE(outcome.error.contains("junk.sanim")) << outcome.error.toStdString();
    EXPECT_FALSE(QFile::exists(request.path));

    request.kind = ExportKind::Obj;
    request.path = QString::fromStdString((dir / "junk.obj").string());
    outcome = exportAssetTo(decoded.asset, QString::fromStdString(mesh), request);
    EXPECT_FALSE(outcome.ok);
    EXPECT_TRUE(outcome.error.contains("OBJ")) << outcome.error.toStdString();
}
