#include "report/csv_format.h"

#include <fmt/format.h>

namespace bb {

std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
        return std::string(text);
    }
    std::string quoted = "\"";
    for (char c : text) {
        quoted += c;
        if (c == '"') {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

std::string render_report_csv(const SampleSet& set) {
    std::string out;
    for (const auto& axis : set.axes) {
        out += csv_field(axis) + ",";
    }
    out += "boot_id,run_id,cell_key,outcome,foreign_load,use,metric,value,unit,params_json\n";
    for (const auto& group : set.groups) {
        std::string prefix;
        for (const auto& value : group.key) {
            prefix += csv_field(value.kind == AxisValue::Kind::Null ? "" : value.label()) + ",";
        }
        for (const auto& sample : group.samples) {
            // "{}" prints the shortest text that reads back as the same double.
            out += fmt::format("{}{},{},{},{},{},{},{},{},{},{}\n", prefix, sample.boot_id,
                               sample.run_id, csv_field(sample.cell_key), csv_field(sample.outcome),
                               sample.foreign_load ? fmt::format("{}", *sample.foreign_load) : "",
                               to_string(sample.use), csv_field(set.metric),
                               sample.value ? fmt::format("{}", *sample.value) : "",
                               csv_field(set.unit), csv_field(sample.params_json));
        }
    }
    return out;
}

std::string render_table_csv(const Table& table) {
    const auto line = [](const std::vector<std::string>& cells) {
        std::string text;
        for (size_t i = 0; i < cells.size(); ++i) {
            text += (i == 0 ? "" : ",") + csv_field(cells[i]);
        }
        return text + "\n";
    };
    std::string out = line(table.headers);
    for (const auto& row : table.rows) {
        out += line(row);
    }
    return out;
}

} // namespace bb
