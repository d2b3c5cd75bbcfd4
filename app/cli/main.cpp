// meshscope-cli entry point: forwards to cli::run.
#include <iostream>

#include "cli_commands.h"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    return meshscope::cli::run({argv + 1, argv + argc}, std::cout, std::cerr);
}
