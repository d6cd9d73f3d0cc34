#pragma once
#include "store/sql_value.h"

#include <vector>

namespace bb {

// A boot's value on one grouping axis, as json_extract returned it (Null: the boot lacks it).
using AxisValue = SqlValue;

// Null (missing) last, numbers numerically before text, text in natural order (digit runs as
// numbers: "hz=100" before "hz=1000").
bool axis_value_less(const AxisValue& a, const AxisValue& b);
bool group_key_less(const std::vector<AxisValue>& a, const std::vector<AxisValue>& b);

} // namespace bb
