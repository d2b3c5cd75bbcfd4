// meshscope: the desktop viewer. Everything but the application object lives in meshscope_shell.
#include <QApplication>

#include "viewer_app.h"

int main(int argc, char** argv) {
    meshscope::shell::prepareEnvironment();
    QApplication app(argc, argv);
    meshscope::shell::setApplicationInfo();
    return meshscope::shell::runViewer(app);
}
