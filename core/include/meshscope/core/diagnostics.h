// Errors and warnings that a user can act on: a code, the absolute byte offset, a context path
// ("COREMESH v2 › draco › attribute 3") and a sentence.
#pragma once

#include <cstdint>
#include <string>

namespace meshscope {

enum class Severity : std::uint8_t { Info, Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Warning;
    std::string code;          // short stable identifier: "truncated", "index-out-of-range" ...
    std::uint64_t offset = 0;  // absolute byte offset in the file
    std::string context;       // path of the structure being read
    std::string message;       // one sentence

    // "offset 0x1a4 (COREMESH v1 › faces[12]): face index 9123 >= vertex count 9000"
    std::string toString() const;
};

// A fatal decode error. Same shape as a diagnostic; kept as its own type so that signatures say
// which one they mean.
struct DecodeError {
    std::string code;
    std::uint64_t offset = 0;
    std::string context;
    std::string message;

    std::string toString() const;
    Diagnostic asDiagnostic() const { return {Severity::Error, code, offset, context, message}; }
};

}  // namespace meshscope
