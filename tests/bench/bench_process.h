// Timing of whole processes for the benchmarks that launch a program per sample (open to first
// frame): a command run under /usr/bin/time -v, its wall time, CPU time and peak RSS read back.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace meshscope::bench {

struct Sample {
    double wallS = 0;
    double cpuS = 0;  // user + system, every thread
    long rssKb = 0;
    int exitCode = -1;
};

// Runs `command` (a shell command line, its output discarded) under /usr/bin/time -v, which
// writes its report to `report`. nullopt when no report came back.
inline std::optional<Sample> timed(const std::string& command,
                                   const std::filesystem::path& report) {
    const std::string full =
        "/usr/bin/time -v -o '" + report.string() + "' " + command + " >/dev/null 2>&1";
    const int status = std::system(full.c_str());
    Sample s;
    s.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(report);
    std::string line;
    bool any = false;
    while (std::getline(in, line)) {
        if (line.find("Maximum resident set size (kbytes):") != std::string::npos) {
            s.rssKb = std::atol(line.substr(line.rfind(':') + 1).c_str());
            any = true;
        } else if (line.find("User time (seconds):") != std::string::npos ||
                   line.find("System time (seconds):") != std::string::npos) {
            s.cpuS += std::atof(line.substr(line.rfind(':') + 1).c_str());
        } else if (line.find("Elapsed (wall clock) time") != std::string::npos) {
            // "... (h:mm:ss or m:ss): 0:01.23"
            std::string v = line.substr(line.find("):") + 2);
            double total = 0;
            std::stringstream parts(v);
            std::string part;
            while (std::getline(parts, part, ':')) total = total * 60 + std::atof(part.c_str());
            s.wallS = total;
        }
    }
    if (!any) return std::nullopt;
    return s;
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// The samples of one program: wall and CPU seconds, peak RSS in MiB.
struct Series {
    std::vector<double> wall, cpu, rss;
    void add(const Sample& s) {
        wall.push_back(s.wallS);
        cpu.push_back(s.cpuS);
        rss.push_back(double(s.rssKb) / 1024.0);
    }
};

}  // namespace meshscope::bench
