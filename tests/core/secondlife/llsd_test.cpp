// Binary LLSD reader: every type from hand-written bytes, serializer round trip, key forms,
// bounds checks before allocation, and nesting depth without recursion.
#include "formats/secondlife/llsd.h"

#include <gtest/gtest.h>

#include <cstring>

#include "io/decode_context.h"
#include "meshscope/core/error_codes.h"

namespace meshscope {
namespace {

struct Parsed {
    std::optional<Llsd> value;
    std::optional<DecodeError> error;
    std::size_t end = 0;
};

Parsed parse(const Bytes& bytes, LlsdParseOptions o = {}) {
    Asset asset;
    DecodeOptions options;
    DecodeContext ctx(bytes, options, asset);
    ByteReader r(ctx, bytes);
    Parsed p;
    try {
        p.value = parseBinaryLlsd(r, o);
        p.end = r.pos();
    } catch (const DecodeFailure& f) {
        p.error = f.error;
    }
    return p;
}

Bytes bytesOf(std::initializer_list<int> v) {
    Bytes b;
    for (int x : v) b.push_back(static_cast<std::uint8_t>(x));
    return b;
}

void append(Bytes& b, std::string_view s) {
    b.insert(b.end(), s.begin(), s.end());
}

TEST(Llsd, EveryScalarTypeFromHandWrittenBytes) {
    // An array of 12 values written byte by byte from the format description.
    Bytes b = bytesOf({'[', 0, 0, 0, 12});
    append(b, "!");                                    // undef
    append(b, "1");                                    // true
    append(b, "0");                                    // false
    b.insert(b.end(), {'i', 0xff, 0xff, 0xff, 0xfe});  // i32be -2
    // r: 1.5 big-endian = 3f f8 00 00 00 00 00 00
    b.insert(b.end(), {'r', 0x3f, 0xf8, 0, 0, 0, 0, 0, 0});
    b.insert(b.end(), {'s', 0, 0, 0, 3});
    append(b, "abc");
    b.push_back('u');
    for (int i = 0; i < 16; ++i) b.push_back(static_cast<std::uint8_t>(i));
    // d: 2.0 as a LITTLE-endian double = 00 .. 00 40
    b.insert(b.end(), {'d', 0, 0, 0, 0, 0, 0, 0, 0x40});
    b.insert(b.end(), {'l', 0, 0, 0, 4});
    append(b, "http");
    b.insert(b.end(), {'b', 0, 0, 0, 2, 0xde, 0xad});
    append(b, "'q\\'\\x41'");  // quoted string q'A
    b.insert(b.end(), {'{', 0, 0, 0, 0, '}'});
    b.push_back(']');

    const Parsed p = parse(b);
    ASSERT_FALSE(p.error) << p.error->toString();
    const Llsd& a = *p.value;
    EXPECT_EQ(p.end, b.size());
    ASSERT_TRUE(a.isArray());
    ASSERT_EQ(a.size(), 12u);
    EXPECT_EQ(a.items()[0].type(), Llsd::Type::Undef);
    EXPECT_TRUE(a.items()[1].asBoolean());
    EXPECT_EQ(a.items()[2].type(), Llsd::Type::Boolean);
    EXPECT_FALSE(a.items()[2].asBoolean());
    EXPECT_EQ(a.items()[3].asInteger(), -2);
    EXPECT_EQ(a.items()[4].asReal(), 1.5);
    EXPECT_EQ(a.items()[5].text(), "abc");
    EXPECT_EQ(a.items()[6].type(), Llsd::Type::Uuid);
    EXPECT_EQ(formatUuid(a.items()[6].bytes()), "00010203-0405-0607-0809-0a0b0c0d0e0f");
    EXPECT_EQ(a.items()[7].type(), Llsd::Type::Date);
    EXPECT_EQ(a.items()[7].dateValue(), 2.0);
    EXPECT_EQ(a.items()[8].type(), Llsd::Type::Uri);
    EXPECT_EQ(a.items()[8].text(), "http");
    EXPECT_EQ(a.items()[9].bytes(), bytesOf({0xde, 0xad}));
    EXPECT_EQ(a.items()[10].text(), "q'A");
    EXPECT_TRUE(a.items()[11].isMap());
    // Offsets: the integer starts after '[', count, '!', '1', '0'.
    EXPECT_EQ(a.items()[3].offset, 8u);
    EXPECT_EQ(a.items()[3].length, 5u);
}

TEST(Llsd, MapKeysInEveryForm) {
    Bytes b = bytesOf({'{', 0, 0, 0, 3, 'k', 0, 0, 0, 1, 'a', 'i', 0, 0, 0, 1});
    b.insert(b.end(), {'s', 0, 0, 0, 1, 'b', 'i', 0, 0, 0, 2});
    append(b, "\"c\"i");
    b.insert(b.end(), {0, 0, 0, 3, '}'});
    const Parsed p = parse(b);
    ASSERT_FALSE(p.error) << p.error->toString();
    EXPECT_EQ(p.value->find("a")->asInteger(), 1);
    EXPECT_EQ(p.value->find("b")->asInteger(), 2);
    EXPECT_EQ(p.value->find("c")->asInteger(), 3);
    EXPECT_EQ(p.value->find("d"), nullptr);
}

TEST(Llsd, SerializerRoundTripsEveryType) {
    const std::uint8_t id[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};
    Llsd m = Llsd::map();
    m.set("undef", Llsd());
    m.set("t", Llsd::boolean(true));
    m.set("i", Llsd::integer(-123456));
    m.set("r", Llsd::real(-0.25));
    m.set("s", Llsd::string("text"));
    m.set("u", Llsd::uuid(id));
    m.set("d", Llsd::date(1300000000.5));
    m.set("l", Llsd::uri("https://example.invalid/"));
    m.set("b", Llsd::binary({1, 2, 3}));
    Llsd inner = Llsd::array();
    inner.push(Llsd::reals({1, 2, 3}));
    m.set("a", inner);
    Bytes b;
    appendBinaryLlsd(b, m);
    const Parsed p = parse(b);
    ASSERT_FALSE(p.error) << p.error->toString();
    const Llsd& v = *p.value;
    ASSERT_EQ(v.size(), 10u);
    EXPECT_EQ(v.find("undef")->type(), Llsd::Type::Undef);
    EXPECT_TRUE(v.find("t")->asBoolean());
    EXPECT_EQ(v.find("i")->asInteger(), -123456);
    EXPECT_EQ(v.find("r")->asReal(), -0.25);
    EXPECT_EQ(v.find("s")->text(), "text");
    EXPECT_EQ(v.find("u")->bytes(), Bytes(id, id + 16));
    EXPECT_EQ(v.find("d")->dateValue(), 1300000000.5);
    EXPECT_EQ(v.find("l")->text(), "https://example.invalid/");
    EXPECT_EQ(v.find("b")->bytes(), bytesOf({1, 2, 3}));
    EXPECT_EQ(v.find("a")->items()[0].items()[2].asReal(), 3.0);
    // Integers big-endian, dates little-endian in the written bytes.
    const Bytes i = [] {
        Bytes x;
        appendBinaryLlsd(x, Llsd::integer(0x01020304));
        return x;
    }();
    EXPECT_EQ(i, bytesOf({'i', 1, 2, 3, 4}));
    Bytes d;
    appendBinaryLlsd(d, Llsd::date(2.0));
    EXPECT_EQ(d, bytesOf({'d', 0, 0, 0, 0, 0, 0, 0, 0x40}));
}

Bytes nested(std::size_t depth) {
    Bytes b;
    for (std::size_t i = 0; i < depth; ++i) b.insert(b.end(), {'[', 0, 0, 0, 1});
    b.push_back('!');
    for (std::size_t i = 0; i < depth; ++i) b.push_back(']');
    return b;
}

TEST(Llsd, NestingTenThousandDeepIsRefusedAtMaxDepth) {
    const Parsed p = parse(nested(10000));
    ASSERT_TRUE(p.error);
    EXPECT_EQ(p.error->code, errc::kLimit);
    EXPECT_NE(p.error->message.find("512"), std::string::npos) << p.error->message;
    // The 513th '[' is where the limit is hit.
    EXPECT_EQ(p.error->offset, 512u * 5);
}

TEST(Llsd, NestingTenThousandDeepParsesWithoutRecursionWhenAllowed) {
    // With the cap raised, the iterative parser (and the iterative destructor) handle 10 000
    // levels; a recursive parser would need ~10 000 stack frames here.
    const Parsed p = parse(nested(10000), {20000, 1u << 20});
    ASSERT_FALSE(p.error) << p.error->toString();
    const Llsd* v = &*p.value;
    std::size_t depth = 0;
    while (v->isArray()) {
        ASSERT_EQ(v->size(), 1u);
        v = &v->items()[0];
        ++depth;
    }
    EXPECT_EQ(depth, 10000u);
    EXPECT_EQ(v->type(), Llsd::Type::Undef);
}

TEST(Llsd, CountsAndLengthsAreCheckedBeforeAllocation) {
    // An array claiming 4 billion items in 6 bytes, a string claiming 4 GiB, a binary of 100
    // bytes with 3 present: each is refused before anything is reserved.
    for (const Bytes& b :
         {bytesOf({'[', 0xff, 0xff, 0xff, 0xff, '!'}), bytesOf({'s', 0xff, 0xff, 0xff, 0xff, 'a'}),
          bytesOf({'b', 0, 0, 0, 100, 1, 2, 3}),
          bytesOf({'{', 0, 0, 0x10, 0, 'k', 0, 0, 0, 0, '!', '}'})}) {
        const Parsed p = parse(b);
        ASSERT_TRUE(p.error);
        EXPECT_EQ(p.error->code, errc::kCountTooLarge) << p.error->toString();
    }
}

TEST(Llsd, ValueCapRefusesHugeDocuments) {
    Bytes b = bytesOf({'[', 0, 0, 0, 100});
    b.insert(b.end(), 100, '!');
    b.push_back(']');
    EXPECT_FALSE(parse(b).error);
    const Parsed p = parse(b, {512, 50});
    ASSERT_TRUE(p.error);
    EXPECT_EQ(p.error->code, errc::kLimit);
}

TEST(Llsd, MalformedInputFailsWithOffsets) {
    const Parsed unknown = parse(bytesOf({'[', 0, 0, 0, 2, '!', 'Z', ']'}));
    ASSERT_TRUE(unknown.error);
    EXPECT_EQ(unknown.error->code, errc::kLlsd);
    EXPECT_EQ(unknown.error->offset, 6u);
    const Parsed unclosed = parse(bytesOf({'[', 0, 0, 0, 1, '!', '}'}));
    ASSERT_TRUE(unclosed.error);
    EXPECT_EQ(unclosed.error->code, errc::kLlsd);
    EXPECT_EQ(unclosed.error->offset, 6u);
    const Parsed badKey = parse(bytesOf({'{', 0, 0, 0, 1, 'i', 0, 0, 0, 1, '!', '}'}));
    ASSERT_TRUE(badKey.error);
    EXPECT_EQ(badKey.error->code, errc::kLlsd);
    const Parsed cut = parse(bytesOf({'r', 0x3f, 0xf8}));
    ASSERT_TRUE(cut.error);
    EXPECT_EQ(cut.error->code, errc::kTruncated);
}

TEST(Llsd, EveryPrefixOfADocumentFailsCleanly) {
    Llsd m = Llsd::map();
    m.set("k", Llsd::reals({1, 2}));
    m.set("s", Llsd::string("hello"));
    m.set("n", Llsd::array());
    Bytes b;
    appendBinaryLlsd(b, m);
    for (std::size_t n = 0; n < b.size(); ++n) {
        const Parsed p = parse(Bytes(b.begin(), b.begin() + n));
        EXPECT_TRUE(p.error) << "prefix " << n;
    }
    EXPECT_FALSE(parse(b).error);
}

}  // namespace
}  // namespace meshscope
