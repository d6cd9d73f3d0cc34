#pragma once
// Renderings of the phase views: `report --view phases` (phase medians side by side per group;
// text, Markdown, CSV, JSON, HTML with a stacked bar chart) and `compare --phases` (which phases
// carry the endpoint's shift; text, Markdown, JSON). The numbers come from phase_samples.h and
// phase_attribution.h; the phases themselves from boot_phases.h.
#include "report/estimates.h"
#include "report/phase_attribution.h"
#include "report/phase_samples.h"
#include "report/report_format.h"
#include "report/text_table.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bb {

struct HtmlContext;
struct StackedBarChart;

// "firmware = qemu start → first byte, pre-banner = first byte → banner, …"
std::string phase_spans_text();

// One row per group: its boots, then each phase's median and the endpoint's, in one unit.
Table phase_table(const PhaseSet& set);
std::string phase_heading(const PhaseSet& set);
// What the medians rest on: boots lacking a phase's moment, boots left out (timed from a start
// marker), that medians of parts need not add up to the median of the whole.
std::vector<std::string> phase_notes(const PhaseSet& set);
std::string render_phase_view(const PhaseSet& set, ReportFormat format,
                              const EstimateOptions& options = {});
nlohmann::json phase_view_json(const PhaseSet& set, const EstimateOptions& options = {});
// The page: one stacked bar per group (phase medians, the endpoint's median as an outline),
// then the table and the notes (phase_html.cpp).
std::string render_phase_html(const PhaseSet& set, const HtmlContext& context);
// The chart alone: one bar per group, the phases' medians stacked, the endpoint's as its outline.
StackedBarChart phase_chart(const PhaseSet& set);

// compare --phases: per group in both sets one row per phase and one for the endpoint.
Table attribution_table(const PhaseAttribution& attribution);
// Per group: "variant=x: the shift is carried by kernel (its interval excludes 0); not by …".
std::vector<std::string> attribution_lines(const PhaseAttribution& attribution);
std::string render_attribution(const PhaseAttribution& attribution, ReportFormat format);
nlohmann::json attribution_json(const PhaseAttribution& attribution);

} // namespace bb
