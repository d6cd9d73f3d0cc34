#include "store/axis_value.h"

#include <algorithm>

namespace bb {

namespace {

double as_number(const AxisValue& value) {
    return value.kind == AxisValue::Kind::Integer ? static_cast<double>(value.integer) : value.real;
}

bool is_number(const AxisValue& value) {
    return value.kind == AxisValue::Kind::Integer || value.kind == AxisValue::Kind::Real;
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
    return a.text < b.text;
}

bool group_key_less(const std::vector<AxisValue>& a, const std::vector<AxisValue>& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), axis_value_less);
}

} // namespace bb
