// Decimal text to float or double, with std::from_chars's result for every input (the same value,
// end and error), faster on the short decimals that text formats write ("-0.0744674355",
// "0.996000886", "1e-05"): XML models and FileMesh 1.00 hold hundreds of thousands of them.
//
// libstdc++ 12 parses a float with fast_float, whose exact shortcut takes mantissas up to 2^24
// only, so every 9-digit float of a Roblox XML file goes through its general (Eisel-Lemire) path:
// about 190 instructions a number here. This one reads a fraction eight digits at a time and
// takes the shortcut for any mantissa up to 2^53 and power of ten up to 10^22 (Clinger): a double
// made from two exact doubles by one division or multiplication is the correctly rounded double
// of the text. For a float, that double is rounded again, which gives the correctly rounded float
// of the text unless the double fell exactly halfway between two floats (the text and its double
// are then on the same side of every such halfway point); that case, subnormal and out-of-range
// results, more than 19 digits, and anything else (INF, NAN, hex, a bare sign or point) go to
// std::from_chars. tests/core/common/decimal_test.cpp compares the two on millions of texts.
#pragma once

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace meshscope {

namespace decimal_detail {

// All eight bytes are '0'..'9'.
inline bool eightDigits(std::uint64_t v) {
    return ((v & 0xF0F0F0F0F0F0F0F0ull) |
            (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) == 0x3333333333333333ull;
}

// The value of eight ASCII digits, the first in the lowest byte (a little-endian load).
inline std::uint32_t eightDigitsValue(std::uint64_t v) {
    v -= 0x3030303030303030ull;
    v = v * 10 + (v >> 8);
    v = (((v & 0x000000FF000000FFull) * 0x000F424000000064ull) +
         (((v >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >>
        32;
    return std::uint32_t(v);
}

// Reads digits into m from p, eight at a time while eight are there; returns how many.
inline int readDigits(const char*& p, const char* last, std::uint64_t& m) {
    const char* start = p;
    if constexpr (std::endian::native == std::endian::little) {
        while (last - p >= 8) {
            std::uint64_t v;
            std::memcpy(&v, p, 8);
            if (!eightDigits(v)) break;
            m = m * 100000000u + eightDigitsValue(v);
            p += 8;
        }
    }
    while (p != last && unsigned(*p - '0') < 10) m = m * 10 + unsigned(*p++ - '0');
    return int(p - start);
}

}  // namespace decimal_detail

template <typename T>
std::from_chars_result decimalFromChars(const char* first, const char* last, T& out) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
    static constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* p = first;
    const bool negative = p != last && *p == '-';
    p += negative;
    std::uint64_t m = 0;
    // The integer part digit by digit (one or two digits, as a rule), the fraction eight at a
    // time.
    const char* intStart = p;
    while (p != last && unsigned(*p - '0') < 10) m = m * 10 + unsigned(*p++ - '0');
    int digits = int(p - intStart);
    int exp10 = 0;
    if (p != last && *p == '.') {
        ++p;
        const int fraction = decimal_detail::readDigits(p, last, m);
        digits += fraction;
        exp10 = -fraction;
    }
    // No digit, or more than m holds without overflow (leading zeros are counted too).
    if (digits == 0 || digits > 19) return std::from_chars(first, last, out);
    if (p != last && (*p | 0x20) == 'e') {
        const char* q = p + 1;
        const bool minus = q != last && *q == '-';
        q += q != last && (*q == '-' || *q == '+');
        int e = 0;
        const char* digitsAt = q;
        while (q != last && unsigned(*q - '0') < 10 && e < 100000) e = e * 10 + (*q++ - '0');
        if (q == digitsAt || (q != last && unsigned(*q - '0') < 10))
            return std::from_chars(first, last, out);  // "1e" ends before the 'e'; a huge one
        exp10 += minus ? -e : e;
        p = q;
    }
    if (m == 0) {
        out = negative ? -T(0) : T(0);
        return {p, std::errc()};
    }
    if (m > (std::uint64_t(1) << 53) || exp10 < -22 || exp10 > 22)
        return std::from_chars(first, last, out);
    const double d = exp10 < 0 ? double(m) / kPow10[-exp10] : double(m) * kPow10[exp10];
    if constexpr (std::is_same_v<T, float>) {
        std::uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        // A double halfway between two floats has its 29 bits below the float's last one
        // exactly 1000…0; and the float must be normal and finite.
        if ((bits & ((std::uint64_t(1) << 29) - 1)) == (std::uint64_t(1) << 28) ||
            d < double(std::numeric_limits<float>::min()) ||
            d > double(std::numeric_limits<float>::max()))
            return std::from_chars(first, last, out);
        out = negative ? -float(d) : float(d);
    } else {
        out = negative ? -d : d;
    }
    return {p, std::errc()};
}

}  // namespace meshscope
