#include "experiment/analysis.h"

#include "util/error.h"

#include <cmath>
#include <fmt/format.h>

namespace bb {

namespace {

std::string_view kind_name(EndpointKind kind) {
    switch (kind) {
    case EndpointKind::BootSeconds:
        return "boot_seconds";
    case EndpointKind::Metric:
        return "metric";
    case EndpointKind::Geomean:
        return "geomean";
    }
    return "?";
}

EndpointKind kind_from(const std::string& text) {
    for (const auto kind :
         {EndpointKind::BootSeconds, EndpointKind::Metric, EndpointKind::Geomean}) {
        if (kind_name(kind) == text) {
            return kind;
        }
    }
    throw Error(fmt::format("stored analysis: unknown endpoint kind \"{}\"", text));
}

} // namespace

std::string Endpoint::label() const {
    switch (kind) {
    case EndpointKind::BootSeconds:
        return "boot_seconds";
    case EndpointKind::Metric:
        return name;
    case EndpointKind::Geomean:
        return fmt::format("geomean({}.*)", name);
    }
    return name;
}

std::string_view to_string(HolmFamily family) {
    return family == HolmFamily::All ? "all" : "condition";
}

std::string_view to_string(Direction direction) {
    return direction == Direction::Lower ? "lower" : "higher";
}

nlohmann::json analysis_to_json(const Analysis& analysis) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto& pair : analysis.pairs) {
        pairs.push_back({pair.a, pair.b});
    }
    return {{"endpoint",
             {{"kind", kind_name(analysis.endpoint.kind)}, {"name", analysis.endpoint.name}}},
            {"axis", analysis.axis},
            {"pairs", pairs},
            {"trend", analysis.trend},
            {"paired", analysis.paired},
            {"alpha", analysis.alpha},
            {"family", to_string(analysis.family)},
            {"ratio", analysis.ratio},
            {"direction", to_string(analysis.direction)}};
}

Analysis analysis_from_json(const nlohmann::json& json) {
    try {
        Analysis analysis;
        analysis.endpoint.kind = kind_from(json.at("endpoint").at("kind").get<std::string>());
        analysis.endpoint.name = json.at("endpoint").at("name").get<std::string>();
        analysis.axis = json.at("axis").get<std::string>();
        for (const auto& pair : json.at("pairs")) {
            analysis.pairs.push_back(
                {pair.at(0).get<std::string>(), pair.at(1).get<std::string>()});
        }
        // Runs stored before trend analyses existed have no "trend" (schema 9's first form).
        if (json.contains("trend")) {
            analysis.trend = json.at("trend").get<std::vector<std::string>>();
        }
        if (analysis.pairs.empty() == analysis.trend.empty()) {
            throw Error("stored analysis: expected either compared pairs or a trend's values");
        }
        analysis.paired = json.at("paired").get<bool>();
        analysis.alpha = json.at("alpha").get<double>();
        if (!std::isfinite(analysis.alpha) || analysis.alpha <= 0 || analysis.alpha >= 0.5) {
            throw Error(fmt::format("stored analysis: alpha {} is not a significance level "
                                    "(0 < alpha < 0.5)",
                                    analysis.alpha));
        }
        analysis.family = json.at("family").get<std::string>() == "condition"
                              ? HolmFamily::Condition
                              : HolmFamily::All;
        analysis.ratio = json.at("ratio").get<bool>();
        analysis.direction = json.at("direction").get<std::string>() == "higher" ? Direction::Higher
                                                                                 : Direction::Lower;
        return analysis;
    } catch (const nlohmann::json::exception& e) {
        throw Error(fmt::format("stored analysis is not readable: {}", e.what()));
    }
}

Analysis analysis_from_json(const std::string& stored) {
    const auto json = nlohmann::json::parse(stored, nullptr, false);
    if (json.is_discarded()) {
        throw Error(fmt::format("stored analysis is not JSON (the run's analysis_json column "
                                "was edited or is damaged): {}",
                                stored.substr(0, 80)));
    }
    return analysis_from_json(json);
}

} // namespace bb
