#pragma once
#include <string>
#include <vector>

namespace bb {

// A boot's value on one grouping axis, as json_extract returned it: typed, so that 100 sorts
// before 1000 and the text "250" stays apart from the integer 250.
struct AxisValue {
    enum class Kind { Missing, Integer, Real, Text };
    Kind kind = Kind::Missing;
    long long integer = 0;
    double real = 0;
    std::string text;

    std::string display() const; // "(none)" when the boot lacks the axis
    bool operator==(const AxisValue& other) const;
};

// Missing last, numbers numerically before text, text lexicographically.
bool axis_value_less(const AxisValue& a, const AxisValue& b);
bool group_key_less(const std::vector<AxisValue>& a, const std::vector<AxisValue>& b);

} // namespace bb
