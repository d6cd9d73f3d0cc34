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

namespace {
nlohmann::json endpoint_json(const Endpoint& endpoint) {
    return {{"kind", kind_name(endpoint.kind)}, {"name", endpoint.name}};
}

Endpoint endpoint_from(const nlohmann::json& json) {
    return {kind_from(json.at("kind").get<std::string>()), json.at("name").get<std::string>()};
}

// Stored only when declared, so that every analysis stored before secondary endpoints existed
// is written back byte for byte.
void add_secondary(const Analysis& analysis, nlohmann::json& json) {
    if (analysis.secondary.empty()) {
        return;
    }
    nlohmann::json list = nlohmann::json::array();
    for (const auto& secondary : analysis.secondary) {
        list.push_back({{"endpoint", endpoint_json(secondary.endpoint)},
                        {"within", secondary.within ? nlohmann::json(*secondary.within)
                                                    : nlohmann::json(nullptr)}});
    }
    json["secondary"] = list;
}

std::vector<SecondaryEndpoint> secondary_from(const nlohmann::json& json) {
    std::vector<SecondaryEndpoint> list;
    if (!json.contains("secondary")) {
        return list;
    }
    for (const auto& item : json.at("secondary")) {
        SecondaryEndpoint secondary{endpoint_from(item.at("endpoint")), std::nullopt};
        if (!item.at("within").is_null()) {
            const double within = item.at("within").get<double>();
            if (!std::isfinite(within) || within <= 0 || within >= 1) {
                throw Error(fmt::format("stored analysis: a premise's margin {} is not a "
                                        "fraction between 0 and 1",
                                        within));
            }
            secondary.within = within;
        }
        list.push_back(secondary);
    }
    return list;
}
} // namespace

nlohmann::json analysis_to_json(const Analysis& analysis) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const auto& pair : analysis.pairs) {
        pairs.push_back({pair.a, pair.b});
    }
    nlohmann::json json = {{"endpoint", endpoint_json(analysis.endpoint)},
                           {"axis", analysis.axis},
                           {"pairs", pairs},
                           {"trend", analysis.trend},
                           {"paired", analysis.paired},
                           {"alpha", analysis.alpha},
                           {"family", to_string(analysis.family)},
                           {"ratio", analysis.ratio},
                           {"direction", to_string(analysis.direction)}};
    add_secondary(analysis, json);
    return json;
}

Analysis analysis_from_json(const nlohmann::json& json) {
    try {
        Analysis analysis;
        analysis.endpoint = endpoint_from(json.at("endpoint"));
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
        analysis.secondary = secondary_from(json);
        // The parser's rules, for a stored analysis that did not come from it.
        if (!analysis.secondary.empty() && analysis.is_trend()) {
            throw Error("stored analysis: secondary endpoints with a trend");
        }
        for (const auto& secondary : analysis.secondary) {
            if (secondary.within && !analysis.ratio) {
                throw Error("stored analysis: a premise's margin without ratio: true");
            }
        }
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
