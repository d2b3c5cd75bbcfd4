// The one way core and its tests include tinygltf: no image decoding or encoding (exports hold no
// textures) and no exceptions from its JSON parser. Every includer must see the same macros, since
// they change the TinyGLTF class's inline members. The implementation is in tinygltf_impl.cpp.
#pragma once

#ifndef TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE
#endif
#ifndef TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#endif
#ifndef TINYGLTF_NO_EXTERNAL_IMAGE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#endif
#ifndef TINYGLTF_NOEXCEPTION
#define TINYGLTF_NOEXCEPTION
#endif

#include <tiny_gltf.h>
