// store/axis_value: the order every grouped report lists its groups in (issue 49: `hz=1000,
// hz=100, hz=250` came out in byte order from cell keys and values stored as text).
#include "store/axis_value.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {
std::vector<std::string> sorted_texts(std::vector<std::string> texts) {
    std::vector<bb::AxisValue> values;
    for (auto& text : texts) {
        values.push_back(bb::text_sql_value(text));
    }
    std::sort(values.begin(), values.end(), bb::axis_value_less);
    std::vector<std::string> out;
    for (const auto& value : values) {
        out.push_back(value.text);
    }
    return out;
}
} // namespace

TEST_CASE("axis values: text sorts in natural order, digit runs as numbers") {
    CHECK(sorted_texts({"hz=1000", "hz=100", "hz=250"}) ==
          std::vector<std::string>{"hz=100", "hz=250", "hz=1000"});
    CHECK(sorted_texts({"hz=250;smp=16", "hz=250;smp=2", "hz=1000;smp=1"}) ==
          std::vector<std::string>{"hz=250;smp=2", "hz=250;smp=16", "hz=1000;smp=1"});
    CHECK(sorted_texts({"stock", "before", "after"}) ==
          std::vector<std::string>{"after", "before", "stock"});
    // A digit run longer than any integer type, and leading zeros: still an order, and total.
    CHECK(sorted_texts({"x" + std::string(40, '9'), "x10"}) ==
          std::vector<std::string>{"x10", "x" + std::string(40, '9')});
    CHECK(sorted_texts({"1", "01", "a"}) == std::vector<std::string>{"01", "1", "a"});
    CHECK(sorted_texts({"a1b", "a1"}) == std::vector<std::string>{"a1", "a1b"});
}

TEST_CASE("axis values: numbers before text, a missing value last") {
    std::vector<bb::AxisValue> values{bb::text_sql_value("250"), bb::AxisValue{},
                                      bb::integer_sql_value(1000), bb::integer_sql_value(100)};
    std::sort(values.begin(), values.end(), bb::axis_value_less);
    CHECK(values[0].integer == 100);
    CHECK(values[1].integer == 1000);
    CHECK(values[2].text == "250");
    CHECK(values[3].kind == bb::AxisValue::Kind::Null);
}
