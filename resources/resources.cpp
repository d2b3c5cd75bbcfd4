// Registers the embedded resources (see resources.h).
#include "meshscope/resources/resources.h"

#include <QtCore/qglobal.h>

#include <mutex>

static void initMeshscopeResources() {
    Q_INIT_RESOURCE(meshscope_resources);
}

namespace meshscope::resources {

void initialize() {
    static std::once_flag once;
    std::call_once(once, initMeshscopeResources);
}

}  // namespace meshscope::resources
