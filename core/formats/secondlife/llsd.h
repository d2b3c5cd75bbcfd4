// LLSD (Linden Lab Structured Data): a small value type, a bounds-checked binary parser and a
// binary serializer. The parser is iterative (an explicit stack, depth capped by
// Limits::maxDepth), so 10 000 nested '[' cannot overflow the C++ stack; every count and length is
// checked against the bytes that remain before anything is allocated. Private to core.
//
// Binary LLSD, as Second Life writes it (FORMAT-NOTES "Second Life mesh assets"):
//   '{' u32be count (key value)* '}'   map; a key is 'k' u32be len bytes ('s' and the quoted
//                                       forms '...' / "..." are accepted too)
//   '[' u32be count value* ']'         array
//   'i' i32be   'r' f64be   'd' f64 LITTLE-endian (seconds since 1970, UTC)
//   's' / 'l' u32be len bytes (string / URI)   'b' u32be len bytes (binary)
//   'u' 16 bytes (UUID)   '1' true   '0' false   '!' undef
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_reader.h"

namespace meshscope {

class Llsd {
public:
    enum class Type : std::uint8_t {
        Undef,
        Boolean,
        Integer,
        Real,
        String,
        Uuid,
        Date,
        Uri,
        Binary,
        Array,
        Map
    };

    Llsd() = default;
    ~Llsd();  // iterative: a deep tree is torn down without recursion
    Llsd(Llsd&&) noexcept = default;
    Llsd& operator=(Llsd&&) noexcept = default;
    Llsd(const Llsd&) = default;  // recursive; only for the shallow trees the writer builds
    Llsd& operator=(const Llsd&) = default;

    static Llsd boolean(bool v);
    static Llsd integer(std::int32_t v);
    static Llsd real(double v);
    static Llsd string(std::string v);
    static Llsd uri(std::string v);
    static Llsd uuid(const std::uint8_t (&bytes)[16]);
    static Llsd date(double secondsSinceEpoch);
    static Llsd binary(Bytes v);
    static Llsd array();
    static Llsd map();
    static Llsd reals(std::initializer_list<double> values);  // array of reals

    Type type() const { return type_; }
    bool isMap() const { return type_ == Type::Map; }
    bool isArray() const { return type_ == Type::Array; }
    bool isNumber() const { return type_ == Type::Integer || type_ == Type::Real; }

    // Scalars. asReal() accepts integers and reals; asInteger() integers only.
    std::optional<double> asReal() const;
    std::optional<std::int64_t> asInteger() const;
    bool asBoolean() const { return type_ == Type::Boolean ? boolean_ : number_ != 0; }
    double dateValue() const { return number_; }
    // String, URI: the text. Binary, UUID: the bytes.
    std::string_view text() const {
        return {reinterpret_cast<const char*>(data_.data()), data_.size()};
    }
    const Bytes& bytes() const { return data_; }

    // Containers. For a map, keys()[i] names items()[i] (file order is kept).
    const std::vector<Llsd>& items() const { return items_; }
    const std::vector<std::string>& keys() const { return keys_; }
    std::size_t size() const { return items_.size(); }
    const Llsd* find(std::string_view key) const;  // map lookup, null when absent or not a map

    Llsd& push(Llsd v);                  // array append
    Llsd& set(std::string key, Llsd v);  // map insert (appends; keys are not deduplicated)

    // Where the value was read: position relative to the start of the parsed bytes, and length.
    std::uint64_t offset = 0;
    std::uint64_t length = 0;

private:
    friend class LlsdParser;
    Type type_ = Type::Undef;
    bool boolean_ = false;
    double number_ = 0;  // integer, real or date
    Bytes data_;         // string, URI, binary or UUID bytes
    std::vector<Llsd> items_;
    std::vector<std::string> keys_;
};

// "<? LLSD/Binary ?>\n": the optional header before binary LLSD in a Second Life block.
inline constexpr std::string_view kLlsdBinaryHeader = "<? LLSD/Binary ?>\n";

struct LlsdParseOptions {
    std::uint32_t maxDepth = 512;          // nesting of maps and arrays
    std::uint64_t maxValues = 1ull << 20;  // values in one document (each costs ~100 bytes)
};

// Reads one binary LLSD value at the reader's position; the reader ends just after it.
// Failures (truncation, unknown type byte, nesting too deep, too many values) throw DecodeFailure
// through the reader, naming the offset.
Llsd parseBinaryLlsd(ByteReader& reader, const LlsdParseOptions& options = {});

// Appends the binary LLSD encoding of `value` (recursive; for trees the writer builds).
void appendBinaryLlsd(Bytes& out, const Llsd& value);

const char* llsdTypeName(Llsd::Type type);
// UUID bytes as 8-4-4-4-12 lower-case hex.
std::string formatUuid(const Bytes& bytes);

}  // namespace meshscope
