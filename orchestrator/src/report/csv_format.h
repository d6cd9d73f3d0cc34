#pragma once
// The report as CSV: every raw sample, so a spreadsheet or R redoes any statistic.
#include "report/sample_query.h"
#include "report/text_table.h"

#include <string>
#include <string_view>

namespace bb {

// RFC 4180 field: quoted (with quotes doubled) when it holds a comma, quote, CR or LF.
std::string csv_field(std::string_view text);

// Every sample, used or not, one row each: axis values, boot id, run id, cell, outcome,
// foreign load, use, metric, value, unit, params (JSON text).
std::string render_report_csv(const SampleSet& set);

// A table as it stands (headers, then rows), every field escaped; for views whose rows are
// results, not samples (the verdict).
std::string render_table_csv(const Table& table);

} // namespace bb
