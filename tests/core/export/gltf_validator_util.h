// Runs the Khronos glTF Validator over exported files through tests/support/gltf_validate.mjs
// (Node + the npm package gltf-validator; setup.sh installs it). One Node process validates
// every file of a call.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace meshscope::test {

struct ValidatorReport {
    std::size_t errors = 0, warnings = 0, infos = 0;
    std::string json;  // the runner's line for the file (codes and messages)
};

struct ValidatorRun {
    // Set when the validator cannot run here (no Node, no package): why.
    std::string unavailable;
    std::map<std::string, ValidatorReport> reports;  // by file path as passed
    std::string output;                              // everything the runner printed
};

inline std::filesystem::path gltfValidatorScript() {
    return testDataDir().parent_path() / "support" / "gltf_validate.mjs";
}

inline std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

// Runs `cmd` through the shell and returns what it printed (append 2>&1 for stderr too); nullopt
// when the shell cannot be started.
inline std::optional<std::string> commandOutput(const std::string& cmd) {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    if (!pipe) return std::nullopt;
    std::string out;
    std::array<char, 65536> buf;
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe.get())) > 0) out.append(buf.data(), n);
    return out;
}

inline ValidatorRun runGltfValidator(const std::vector<std::filesystem::path>& files) {
    ValidatorRun run;
    if (std::system("node --version > /dev/null 2>&1") != 0) {
        run.unavailable = "Node.js is not installed (Debian package nodejs)";
        return run;
    }
    std::string cmd = "node " + shellQuote(gltfValidatorScript().string());
    for (const auto& f : files) cmd += " " + shellQuote(f.string());
    cmd += " 2>&1";
    const std::optional<std::string> output = commandOutput(cmd);
    if (!output) {
        run.unavailable = "cannot start node";
        return run;
    }
    run.output = *output;
    if (run.output.find("{\"missing\"") != std::string::npos) {
        run.unavailable =
            "the npm package gltf-validator is not installed (npm install -g gltf-validator, or "
            "./setup.sh which installs it into tools/node_modules)";
        return run;
    }
    static const std::regex fileRe(R"re("file":"((?:[^"\\]|\\.)*)")re");
    auto number = [](const std::string& line, const char* key) -> std::size_t {
        const std::regex re(std::string("\"") + key + R"(":(\d+))");
        std::smatch m;
        return std::regex_search(line, m, re) ? std::stoull(m[1].str()) : std::size_t(-1);
    };
    std::size_t start = 0;
    while (start < run.output.size()) {
        std::size_t end = run.output.find('\n', start);
        if (end == std::string::npos) end = run.output.size();
        const std::string line = run.output.substr(start, end - start);
        start = end + 1;
        std::smatch m;
        if (!std::regex_search(line, m, fileRe)) continue;
        ValidatorReport r;
        r.json = line;
        r.errors = number(line, "errors");
        r.warnings = number(line, "warnings");
        r.infos = number(line, "infos");
        run.reports[m[1].str()] = r;
    }
    return run;
}

// Writes `glb` to tempDir(dirName)/name and expects the validator to report neither errors nor
// warnings on it; skips (with the reason) where the validator is not installed.
inline void expectValidGlb(const std::vector<std::uint8_t>& glb, const std::string& dirName,
                           const std::string& name) {
    const auto file = tempDir(dirName) / name;
    writeFile(file, glb);
    const ValidatorRun run = runGltfValidator({file});
    if (!run.unavailable.empty()) GTEST_SKIP() << "glTF validator: " << run.unavailable;
    ASSERT_TRUE(run.reports.count(file.string())) << run.output;
    const ValidatorReport& r = run.reports.at(file.string());
    EXPECT_EQ(r.errors, 0u) << r.json;
    EXPECT_EQ(r.warnings, 0u) << r.json;
}

}  // namespace meshscope::test
