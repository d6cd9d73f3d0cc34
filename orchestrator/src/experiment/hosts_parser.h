#pragma once
#include "experiment/experiment.h"

#include <filesystem>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace bb {

// A fleet: the value of an experiment's `hosts:` key, or a fleet file (`--hosts FILE`) that
// holds only that key. A non-empty list of {uri: LIBVIRT-URI, slots: N}; errors say
// FILE:LINE:COLUMN like every other experiment key.
std::vector<FleetHost> parse_hosts(const YAML::Node& list, const std::string& file_name);
std::vector<FleetHost> parse_fleet_file(std::string_view text, const std::string& file_name);
std::vector<FleetHost> load_fleet_file(const std::filesystem::path& path);

} // namespace bb
