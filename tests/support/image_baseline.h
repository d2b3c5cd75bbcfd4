// Image baselines for the Qt tests: compares a rendered image with a PNG in
// tests/data/baselines/ with a per-channel tolerance and a largest fraction of differing pixels,
// or rewrites the PNG when MESHSCOPE_UPDATE_BASELINES=1 (then review and commit it). A rendered
// image that does not match is saved in the test's temporary folder for review. Header-only so
// that the core-only test support library needs no Qt.
#pragma once

#include <gtest/gtest.h>

#include <QColor>
#include <QImage>
#include <QRect>
#include <QString>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/test_support.h"

namespace meshscope::test {

struct ImageTolerance {
    int channel = 24;            // per channel, of 255
    double maxDifferent = 0.01;  // fraction of pixels allowed beyond `channel`
};

inline bool updatingBaselines() {
    const char* v = std::getenv("MESHSCOPE_UPDATE_BASELINES");
    return v && std::string(v) == "1";
}

inline QString baselinePath(const std::string& name) {
    return QString::fromStdString((testDataDir() / "baselines" / name).string());
}

// Pixels of `a` and `b` inside `region` (both images; an empty region means all) whose largest
// channel difference exceeds `tolerance`. Images of different sizes differ everywhere.
inline int differingPixels(const QImage& a, const QImage& b, int tolerance, QRect region = {}) {
    if (a.size() != b.size()) return a.width() * a.height();
    const QImage x = a.convertToFormat(QImage::Format_ARGB32);
    const QImage y = b.convertToFormat(QImage::Format_ARGB32);
    if (region.isEmpty()) region = x.rect();
    region = region.intersected(x.rect());
    int n = 0;
    for (int row = region.top(); row <= region.bottom(); ++row) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = region.left(); col <= region.right(); ++col) {
            const int d = std::max({std::abs(qRed(p[col]) - qRed(q[col])),
                                    std::abs(qGreen(p[col]) - qGreen(q[col])),
                                    std::abs(qBlue(p[col]) - qBlue(q[col])),
                                    std::abs(qAlpha(p[col]) - qAlpha(q[col]))});
            n += d > tolerance;
        }
    }
    return n;
}

// Pixels whose hue lies within `tolerance` degrees of `hue` and that are saturated and bright
// enough to be a part's colour (the background, grid and shading are not).
inline int pixelsOfHue(const QImage& img, int hue, int tolerance = 20) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = QColor::fromRgba(img.pixel(x, y));
            if (c.hsvSaturation() < 120 || c.value() < 60) continue;
            const int d = std::abs(c.hsvHue() - hue);
            if (std::min(d, 360 - d) < tolerance) ++n;
        }
    return n;
}

// The stored baseline `name` (null when missing).
inline QImage loadBaseline(const std::string& name) {
    return QImage(baselinePath(name)).convertToFormat(QImage::Format_ARGB32);
}

// Compares `rendered` with baseline `name`, or rewrites the baseline when updating.
inline void expectMatchesBaseline(const QImage& rendered, const std::string& name,
                                  ImageTolerance tolerance = {}) {
    ASSERT_FALSE(rendered.isNull()) << name;
    const QImage image = rendered.convertToFormat(QImage::Format_ARGB32);
    const QString path = baselinePath(name);
    if (updatingBaselines()) {
        ASSERT_TRUE(image.save(path)) << path.toStdString();
        std::printf("[ baseline ] wrote %s\n", path.toUtf8().constData());
        return;
    }
    const QImage baseline = loadBaseline(name);
    ASSERT_FALSE(baseline.isNull())
        << "missing baseline " << path.toStdString() << " (MESHSCOPE_UPDATE_BASELINES=1 writes it)";
    ASSERT_EQ(baseline.size(), image.size()) << name;
    const int different = differingPixels(image, baseline, tolerance.channel);
    const double fraction = double(different) / double(image.width() * image.height());
    std::printf("[ baseline ] %s: %.3f%% of pixels beyond ±%d\n", name.c_str(), fraction * 100,
                tolerance.channel);
    if (fraction > tolerance.maxDifferent) {
        const auto out = tempDir("baseline_diff_" + name);
        image.save(QString::fromStdString((out / name).string()));
        ADD_FAILURE() << name << ": " << fraction * 100 << "% of pixels differ (limit "
                      << tolerance.maxDifferent * 100 << "%); rendered image in " << out;
    }
}

}  // namespace meshscope::test
