#pragma once
// Where two experiment files differ, for commands that put two runs side by side (`compare`,
// `plan --pilot`): the settings a cell key does not carry (an L2 command line, a workload, the
// analysis) still change what a cell's boots measure.
#include <string>
#include <vector>

namespace bb {

// The dotted paths (`nested.l2_cmdline`, `axes.hz`) at which the two files' values differ,
// compared as parsed YAML (comments, quoting and layout aside), in the first file's key order
// and then the second's; `name` and `description` are left out. Text that is not YAML compares
// as a whole ("(the file)").
std::vector<std::string> experiment_differences(const std::string& yaml_a,
                                                const std::string& yaml_b);

} // namespace bb
