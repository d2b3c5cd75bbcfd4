// Shared helper of the window tests (tests/app, which link Qt Test).
#pragma once

#include <gtest/gtest.h>

#include <QString>
#include <QTest>

namespace meshscope::test {

// Shows `window` (a shell::MainWindow; not interactive: no dialogs) and opens `path` in it, on
// this thread.
template <typename Window>
void openShown(Window& window, const QString& path) {
    window.setInteractive(false);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QString error;
    ASSERT_TRUE(window.openFileNow(path, &error)) << error.toStdString();
}

}  // namespace meshscope::test
