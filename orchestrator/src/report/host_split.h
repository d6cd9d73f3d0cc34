#pragma once
// Samples of a fleet run come from several hosts, and boot times of different machines are
// different quantities: reports keep them apart. Defined in sample_query.cpp, beside the
// selection SQL and the "host" pseudo-axis they share.
#include "report/sample_query.h"

#include <string>
#include <vector>

namespace bb {

// The query grouped by host as well (the pseudo-axis "host": libvirt URI, else hostname) when
// its selection spans more than one host; unchanged otherwise or when it already groups by it.
SampleQuery split_by_host(Database& db, SampleQuery query);

// One line per fleet host lost during the selected runs: how many samples it left behind
// (stored as infra-error, booted again on another host) and why.
std::vector<std::string> lost_host_notes(Database& db, const SampleQuery& query);

} // namespace bb
