// Binary LLSD: iterative bounds-checked parser, serializer and value helpers (see llsd.h).
#include "formats/secondlife/llsd.h"

#include <bit>
#include <cstdio>
#include <cstring>

#include "meshscope/core/error_codes.h"

namespace meshscope {

Llsd::~Llsd() {
    if (items_.empty()) return;
    // Tear a deep tree down with a work list instead of nested destructor calls.
    std::vector<Llsd> work = std::move(items_);
    while (!work.empty()) {
        Llsd node = std::move(work.back());
        work.pop_back();
        for (auto& child : node.items_) work.push_back(std::move(child));
        node.items_.clear();
    }
}

Llsd Llsd::boolean(bool v) {
    Llsd l;
    l.type_ = Type::Boolean;
    l.boolean_ = v;
    return l;
}
Llsd Llsd::integer(std::int32_t v) {
    Llsd l;
    l.type_ = Type::Integer;
    l.number_ = v;
    return l;
}
Llsd Llsd::real(double v) {
    Llsd l;
    l.type_ = Type::Real;
    l.number_ = v;
    return l;
}
Llsd Llsd::string(std::string v) {
    Llsd l;
    l.type_ = Type::String;
    l.data_.assign(v.begin(), v.end());
    return l;
}
Llsd Llsd::uri(std::string v) {
    Llsd l = string(std::move(v));
    l.type_ = Type::Uri;
    return l;
}
Llsd Llsd::uuid(const std::uint8_t (&bytes)[16]) {
    Llsd l;
    l.type_ = Type::Uuid;
    l.data_.assign(bytes, bytes + 16);
    return l;
}
Llsd Llsd::date(double secondsSinceEpoch) {
    Llsd l;
    l.type_ = Type::Date;
    l.number_ = secondsSinceEpoch;
    return l;
}
Llsd Llsd::binary(Bytes v) {
    Llsd l;
    l.type_ = Type::Binary;
    l.data_ = std::move(v);
    return l;
}
Llsd Llsd::array() {
    Llsd l;
    l.type_ = Type::Array;
    return l;
}
Llsd Llsd::map() {
    Llsd l;
    l.type_ = Type::Map;
    return l;
}
Llsd Llsd::reals(std::initializer_list<double> values) {
    Llsd l = array();
    for (double v : values) l.push(real(v));
    return l;
}

std::optional<double> Llsd::asReal() const {
    if (isNumber()) return number_;
    return std::nullopt;
}
std::optional<std::int64_t> Llsd::asInteger() const {
    if (type_ == Type::Integer) return static_cast<std::int64_t>(number_);
    return std::nullopt;
}

const Llsd* Llsd::find(std::string_view key) const {
    if (type_ != Type::Map) return nullptr;
    for (std::size_t i = 0; i < keys_.size() && i < items_.size(); ++i)
        if (keys_[i] == key) return &items_[i];
    return nullptr;
}

Llsd& Llsd::push(Llsd v) {
    items_.push_back(std::move(v));
    return items_.back();
}
Llsd& Llsd::set(std::string key, Llsd v) {
    keys_.push_back(std::move(key));
    items_.push_back(std::move(v));
    return items_.back();
}

const char* llsdTypeName(Llsd::Type type) {
    switch (type) {
        case Llsd::Type::Undef:
            return "undef";
        case Llsd::Type::Boolean:
            return "boolean";
        case Llsd::Type::Integer:
            return "integer";
        case Llsd::Type::Real:
            return "real";
        case Llsd::Type::String:
            return "string";
        case Llsd::Type::Uuid:
            return "uuid";
        case Llsd::Type::Date:
            return "date";
        case Llsd::Type::Uri:
            return "uri";
        case Llsd::Type::Binary:
            return "binary";
        case Llsd::Type::Array:
            return "array";
        case Llsd::Type::Map:
            return "map";
    }
    return "?";
}

std::string formatUuid(const Bytes& b) {
    std::string s;
    char buf[4];
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        std::snprintf(buf, sizeof buf, "%02x", b[i]);
        s += buf;
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// Parser

class LlsdParser {
public:
    LlsdParser(ByteReader& r, const LlsdParseOptions& o) : r_(r), options_(o) {}

    Llsd run() {
        Llsd root;
        readValue(root);
        while (!stack_.empty()) {
            Frame& f = stack_.back();
            if (f.left == 0) {
                const std::size_t at = r_.pos();
                const char close = static_cast<char>(r_.u8("LLSD container end"));
                if (close != f.close) {
                    r_.failAt(at, errc::kLlsd,
                              std::string("LLSD ") + llsdTypeName(f.node->type_) +
                                  " should end with '" + f.close + "', found " +
                                  describeByte(close));
                }
                f.node->length = r_.pos() - f.node->offset;
                stack_.pop_back();
                continue;
            }
            --f.left;
            Llsd* parent = f.node;  // `f` is invalid once readValue pushes a frame
            if (parent->type_ == Llsd::Type::Map) parent->keys_.push_back(readKey());
            // Capacity was reserved for the declared count, so this never reallocates and the
            // parent pointers on the stack stay valid.
            parent->items_.emplace_back();
            readValue(parent->items_.back());
        }
        return root;
    }

private:
    struct Frame {
        Llsd* node;
        std::uint32_t left;
        char close;
    };

    static std::string describeByte(char c) {
        char buf[24];
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f)
            std::snprintf(buf, sizeof buf, "'%c' (0x%02x)", c, u);
        else
            std::snprintf(buf, sizeof buf, "0x%02x", u);
        return buf;
    }

    std::uint32_t readLength(const char* what) {
        const std::uint32_t n = r_.u32be(what);
        r_.checkCount(n, 1, what);
        return n;
    }

    std::string readDelimited(char quote) {
        std::string s;
        for (;;) {
            const char c = static_cast<char>(r_.u8("quoted LLSD string"));
            if (c == quote) return s;
            if (c != '\\') {
                s += c;
                continue;
            }
            const char e = static_cast<char>(r_.u8("quoted LLSD string escape"));
            switch (e) {
                case 'a':
                    s += '\a';
                    break;
                case 'b':
                    s += '\b';
                    break;
                case 'f':
                    s += '\f';
                    break;
                case 'n':
                    s += '\n';
                    break;
                case 'r':
                    s += '\r';
                    break;
                case 't':
                    s += '\t';
                    break;
                case 'v':
                    s += '\v';
                    break;
                case 'x': {
                    int v = 0;
                    for (int i = 0; i < 2; ++i) {
                        const char h = static_cast<char>(r_.u8("hex escape"));
                        v <<= 4;
                        if (h >= '0' && h <= '9')
                            v |= h - '0';
                        else if (h >= 'a' && h <= 'f')
                            v |= h - 'a' + 10;
                        else if (h >= 'A' && h <= 'F')
                            v |= h - 'A' + 10;
                        else
                            r_.fail(errc::kLlsd, "bad \\x escape in a quoted LLSD string");
                    }
                    s += static_cast<char>(v);
                    break;
                }
                default:
                    s += e;
                    break;
            }
        }
    }

    std::string readKey() {
        const std::size_t at = r_.pos();
        const char c = static_cast<char>(r_.u8("LLSD map key"));
        if (c == 'k' || c == 's') {
            const std::uint32_t n = readLength("LLSD map key");
            return std::string(r_.string(n, "LLSD map key"));
        }
        if (c == '\'' || c == '"') return readDelimited(c);
        r_.failAt(at, errc::kLlsd, "LLSD map key expected ('k'), found " + describeByte(c));
    }

    void count(std::uint64_t n) {
        values_ += n;
        if (values_ > options_.maxValues) {
            r_.fail(errc::kLimit, "LLSD document holds more than " +
                                      std::to_string(options_.maxValues) + " values");
        }
    }

    void readValue(Llsd& out) {
        const std::size_t at = r_.pos();
        out.offset = at;
        const char t = static_cast<char>(r_.u8("LLSD type byte"));
        switch (t) {
            case '!':
                out.type_ = Llsd::Type::Undef;
                break;
            case '1':
                out.type_ = Llsd::Type::Boolean;
                out.boolean_ = true;
                break;
            case '0':
                out.type_ = Llsd::Type::Boolean;
                out.boolean_ = false;
                break;
            case 'i':
                out.type_ = Llsd::Type::Integer;
                out.number_ = r_.i32be("LLSD integer");
                break;
            case 'r':
                out.type_ = Llsd::Type::Real;
                out.number_ = r_.f64be("LLSD real");
                break;
            case 'd':
                // Surprising: dates are little-endian although integers and reals are big.
                out.type_ = Llsd::Type::Date;
                out.number_ = r_.f64("LLSD date");
                break;
            case 'u': {
                out.type_ = Llsd::Type::Uuid;
                const ByteSpan b = r_.bytes(16, "LLSD uuid");
                out.data_.assign(b.begin(), b.end());
                break;
            }
            case 's':
            case 'l':
            case 'b': {
                out.type_ = t == 's' ? Llsd::Type::String
                                     : (t == 'l' ? Llsd::Type::Uri : Llsd::Type::Binary);
                const std::uint32_t n = readLength(t == 'b' ? "LLSD binary" : "LLSD string");
                const ByteSpan b = r_.bytes(n, "LLSD data");
                out.data_.assign(b.begin(), b.end());
                break;
            }
            case '\'':
            case '"': {
                out.type_ = Llsd::Type::String;
                const std::string s = readDelimited(t);
                out.data_.assign(s.begin(), s.end());
                break;
            }
            case '[':
            case '{': {
                const bool isMap = t == '{';
                out.type_ = isMap ? Llsd::Type::Map : Llsd::Type::Array;
                if (stack_.size() + 1 > options_.maxDepth) {
                    r_.failAt(at, errc::kLimit,
                              "LLSD nesting deeper than " + std::to_string(options_.maxDepth) +
                                  " levels (Limits::maxDepth)");
                }
                const std::uint32_t n = r_.u32be(isMap ? "LLSD map size" : "LLSD array size");
                // Smallest encodings: a map entry is 'k' + u32 + 1-byte value, an array item one
                // byte; plus the closing byte.
                r_.checkCount(n, isMap ? 6 : 1, isMap ? "LLSD map entries" : "LLSD array items");
                r_.context().checkAllocation(r_.offset(), n, sizeof(Llsd), "LLSD values");
                count(n);
                out.items_.reserve(n);
                if (isMap) out.keys_.reserve(n);
                stack_.push_back({&out, n, isMap ? '}' : ']'});
                return;  // length is set when the container closes
            }
            default:
                r_.failAt(at, errc::kLlsd, "unknown LLSD type byte " + describeByte(t));
        }
        out.length = r_.pos() - at;
    }

    ByteReader& r_;
    const LlsdParseOptions& options_;
    std::vector<Frame> stack_;
    std::uint64_t values_ = 1;
};

Llsd parseBinaryLlsd(ByteReader& reader, const LlsdParseOptions& options) {
    return LlsdParser(reader, options).run();
}

// ---------------------------------------------------------------------------------------------
// Serializer

namespace {

void putU32be(Bytes& out, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}
void putU64be(Bytes& out, std::uint64_t v) {
    for (int s = 56; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}
void putSized(Bytes& out, char tag, const Bytes& data) {
    out.push_back(static_cast<std::uint8_t>(tag));
    putU32be(out, static_cast<std::uint32_t>(data.size()));
    out.insert(out.end(), data.begin(), data.end());
}

}  // namespace

void appendBinaryLlsd(Bytes& out, const Llsd& v) {
    switch (v.type()) {
        case Llsd::Type::Undef:
            out.push_back('!');
            break;
        case Llsd::Type::Boolean:
            out.push_back(v.asBoolean() ? '1' : '0');
            break;
        case Llsd::Type::Integer:
            out.push_back('i');
            putU32be(out, static_cast<std::uint32_t>(static_cast<std::int32_t>(*v.asInteger())));
            break;
        case Llsd::Type::Real:
            out.push_back('r');
            putU64be(out, std::bit_cast<std::uint64_t>(*v.asReal()));
            break;
        case Llsd::Type::Date: {
            out.push_back('d');
            const auto bits = std::bit_cast<std::uint64_t>(v.dateValue());
            for (int s = 0; s < 64; s += 8) out.push_back(static_cast<std::uint8_t>(bits >> s));
            break;
        }
        case Llsd::Type::Uuid:
            out.push_back('u');
            out.insert(out.end(), v.bytes().begin(), v.bytes().end());
            break;
        case Llsd::Type::String:
            putSized(out, 's', v.bytes());
            break;
        case Llsd::Type::Uri:
            putSized(out, 'l', v.bytes());
            break;
        case Llsd::Type::Binary:
            putSized(out, 'b', v.bytes());
            break;
        case Llsd::Type::Array:
            out.push_back('[');
            putU32be(out, static_cast<std::uint32_t>(v.size()));
            for (const auto& item : v.items()) appendBinaryLlsd(out, item);
            out.push_back(']');
            break;
        case Llsd::Type::Map:
            out.push_back('{');
            putU32be(out, static_cast<std::uint32_t>(v.size()));
            for (std::size_t i = 0; i < v.size(); ++i) {
                out.push_back('k');
                const std::string& k = v.keys()[i];
                putU32be(out, static_cast<std::uint32_t>(k.size()));
                out.insert(out.end(), k.begin(), k.end());
                appendBinaryLlsd(out, v.items()[i]);
            }
            out.push_back('}');
            break;
    }
}

}  // namespace meshscope
