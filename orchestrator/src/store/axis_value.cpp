#include "store/axis_value.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace bb {

namespace {

double as_number(const AxisValue& value) {
    return value.kind == AxisValue::Kind::Integer ? static_cast<double>(value.integer) : value.real;
}

bool is_number(const AxisValue& value) {
    return value.kind == AxisValue::Kind::Integer || value.kind == AxisValue::Kind::Real;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// Text in natural order: runs of digits compare as numbers, so cell keys and values stored as
// text read hz=100, hz=250, hz=1000 (not 1000, 100, 250), in tables and charts alike. A digit
// run is compared by its length without leading zeros, then digit by digit: no overflow on a
// run of any length. Texts equal in this order ("01" and "1") fall back to bytes: a total order.
bool natural_less(const std::string& a, const std::string& b) {
    size_t i = 0;
    size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (!is_digit(a[i]) || !is_digit(b[j])) {
            if (a[i] != b[j]) {
                return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
            }
            ++i;
            ++j;
            continue;
        }
        const size_t a_start = i;
        const size_t b_start = j;
        while (i < a.size() && is_digit(a[i])) {
            ++i;
        }
        while (j < b.size() && is_digit(b[j])) {
            ++j;
        }
        std::string_view x(a.data() + a_start, i - a_start);
        std::string_view y(b.data() + b_start, j - b_start);
        x.remove_prefix(std::min(x.find_first_not_of('0'), x.size()));
        y.remove_prefix(std::min(y.find_first_not_of('0'), y.size()));
        if (x.size() != y.size()) {
            return x.size() < y.size();
        }
        if (x != y) {
            return x < y;
        }
    }
    if ((i < a.size()) != (j < b.size())) {
        return j < b.size(); // the shorter rest first
    }
    return a < b;
}

} // namespace

bool axis_value_less(const AxisValue& a, const AxisValue& b) {
    using Kind = AxisValue::Kind;
    if ((a.kind == Kind::Null) != (b.kind == Kind::Null)) {
        return b.kind == Kind::Null;
    }
    if (is_number(a) && is_number(b)) {
        if (as_number(a) != as_number(b)) {
            return as_number(a) < as_number(b);
        }
        return a.kind == Kind::Integer && b.kind == Kind::Real; // 1 before 1.0: a total order
    }
    if (is_number(a) != is_number(b)) {
        return is_number(a);
    }
    return natural_less(a.text, b.text);
}

bool group_key_less(const std::vector<AxisValue>& a, const std::vector<AxisValue>& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), axis_value_less);
}

} // namespace bb
