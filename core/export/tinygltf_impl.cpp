// tinygltf's implementation, compiled once into meshscope_core (see tinygltf_config.h).
#define TINYGLTF_IMPLEMENTATION
#include "export/tinygltf_config.h"
