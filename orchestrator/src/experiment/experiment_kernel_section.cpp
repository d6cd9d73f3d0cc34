// The `kernel:` section: source, base, fragments, preemption, --set lines and variants.
#include "experiment/experiment_reader.h"
#include "kernel/source_spec.h"

#include <filesystem>

namespace bb::experiment_reading {

std::string ExperimentReader::resolved_source(const Entry& entry) const {
    const std::string source = resolved_source_text(entry);
    // The build's own check, so that --validate refuses what a build would (issue 48 item 12).
    // A local tree may be made after the file is checked; a path that is something else (a
    // file, /etc/passwd) is refused now.
    std::error_code error;
    const bool local = !source.starts_with("debian:") && !source.starts_with("git:");
    if (local ? std::filesystem::exists(source, error) &&
                    !std::filesystem::is_directory(source, error)
              : false) {
        fail(entry.value, fmt::format("source: {} is not a directory (expected a kernel tree, "
                                      "debian:linux-source-X.Y or git:REPOSITORY@REF)",
                                      in_quotes(source)));
    }
    if (!local) {
        try {
            (void)parse_source_spec(source);
        } catch (const Error& e) {
            fail(entry.value, "source: " + std::string(e.what()));
        }
    }
    return source;
}

std::string ExperimentReader::resolved_source_text(const Entry& entry) const {
    const std::string text = string_value(entry);
    if (text.rfind("debian:", 0) == 0) {
        if (text.rfind("debian:linux-source-", 0) != 0 || text.size() == 20) {
            fail(entry.value,
                 fmt::format("source: expected debian:linux-source-X.Y, got {}", in_quotes(text)));
        }
        return text;
    }
    if (text.rfind("git:", 0) == 0) {
        const auto at = text.rfind('@');
        if (at == std::string::npos || at <= 4 || at + 1 == text.size()) {
            fail(entry.value,
                 fmt::format("source: expected git:REPOSITORY@REF, got {}", in_quotes(text)));
        }
        if (text[at + 1] == '-') {
            // git would read such a ref as one of its own options.
            fail(entry.value, fmt::format("source: the REF of {} starts with '-' (expected a "
                                          "branch, tag or commit)",
                                          in_quotes(text)));
        }
        const std::string repository = text.substr(4, at - 4);
        if (repository.find("://") != std::string::npos) {
            return text;
        }
        return "git:" + resolved(repository).string() + text.substr(at);
    }
    if (text.empty()) {
        fail(entry.value, "source: expected debian:linux-source-X.Y, a path or git:REPOSITORY@REF");
    }
    return resolved(text).string();
}

std::string ExperimentReader::resolved_base(const Entry& entry) const {
    const std::string text = string_value(entry);
    if (contains(k_bases, text)) {
        return text;
    }
    // Paths are told from names by a '/', as for fragments: a typo is not mistaken for a file.
    if (text.find('/') == std::string::npos) {
        const auto suggestion = did_you_mean(text, k_bases);
        fail(entry.value,
             fmt::format("base: {} is not a base config ({})", in_quotes(text),
                         suggestion ? fmt::format("did you mean {}?", in_quotes(*suggestion))
                                    : "expected tinyconfig, defconfig, allnoconfig or a path "
                                      "containing '/'"));
    }
    return resolved(text).string();
}

std::vector<std::string> ExperimentReader::fragments(const Entry& entry) const {
    std::vector<std::string> items = string_list(entry);
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].find('/') != std::string::npos) {
            items[i] = resolved(items[i]).string();
        } else if (!is_name(items[i])) {
            fail(entry.value[i],
                 fmt::format("fragments: {} is not a fragment name (expected a name from "
                             "kernels/fragments or a path containing '/')",
                             in_quotes(items[i])));
        }
    }
    return items;
}

std::vector<std::string> ExperimentReader::assignments(const Entry& entry) const {
    std::vector<std::string> items = string_list(entry);
    for (size_t i = 0; i < items.size(); ++i) {
        if (!is_assignment(items[i])) {
            fail(entry.value[i],
                 fmt::format("set: expected CONFIG_NAME=value, got {}", in_quotes(items[i])));
        }
    }
    return items;
}

void ExperimentReader::read_kernel(const Entry& entry, KernelSettings& kernel) const {
    const Entries entries = mapping(entry.value, "kernel", k_kernel_keys);
    const Entry& arch = required(entries, entry.value, "kernel", "arch", "arm64 or x86_64");
    const std::string arch_text = string_value(arch);
    const auto parsed_arch = arch_from_string(arch_text);
    if (!parsed_arch) {
        fail(arch.value, fmt::format("arch: {} is not a supported architecture (expected arm64 "
                                     "or x86_64)",
                                     in_quotes(arch_text)));
    }
    kernel.arch = *parsed_arch;
    if (const auto found = entries.find("source"); found != entries.end()) {
        kernel.source = resolved_source(found->second);
    }
    if (const auto found = entries.find("base"); found != entries.end()) {
        kernel.base = resolved_base(found->second);
    }
    if (const auto found = entries.find("fragments"); found != entries.end()) {
        kernel.fragments = fragments(found->second);
    }
    if (const auto found = entries.find("preempt"); found != entries.end()) {
        const std::string model = string_value(found->second);
        if (!contains(k_preempt_model_names, model)) {
            fail(found->second.value,
                 fmt::format("preempt: {} is not a preemption model (expected {})",
                             in_quotes(model), alternatives(k_preempt_model_names)));
        }
        kernel.preempt = model;
    }
    if (const auto found = entries.find("set"); found != entries.end()) {
        kernel.set = assignments(found->second);
    }
    const auto variants = entries.find("variants");
    if (variants == entries.end()) {
        kernel.variants.push_back(Variant{"stock", {}, {}, {}, {}});
        return;
    }
    const YAML::Node& list = variants->second.value;
    if (!list.IsSequence() || list.size() == 0) {
        fail(list, fmt::format("variants: expected a non-empty list of variants such as "
                               "{{name: stock}}, got {}",
                               describe(list)));
    }
    std::set<std::string> taken;
    for (const auto& item : list) {
        kernel.variants.push_back(read_variant(item, taken));
        taken.insert(kernel.variants.back().name);
    }
}

Variant ExperimentReader::read_variant(const YAML::Node& node,
                                       const std::set<std::string>& taken) const {
    const Entries entries = mapping(node, "variants", k_variant_keys);
    const Entry& name = required(entries, node, "variants", "name", "the variant's name");
    Variant variant;
    variant.name = name_value(name, "variant name");
    if (taken.count(variant.name) != 0) {
        fail(name.value, fmt::format("name: variant {} is defined twice (variant names must be "
                                     "unique)",
                                     in_quotes(variant.name)));
    }
    if (const auto found = entries.find("patches"); found != entries.end()) {
        for (const auto& patch : string_list(found->second)) {
            variant.patches.push_back(resolved(patch));
        }
    }
    if (const auto found = entries.find("fragments"); found != entries.end()) {
        variant.fragments = fragments(found->second);
    }
    if (const auto found = entries.find("set"); found != entries.end()) {
        variant.set = assignments(found->second);
    }
    if (const auto found = entries.find("cmdline"); found != entries.end()) {
        variant.cmdline = string_value(found->second);
    }
    return variant;
}

} // namespace bb::experiment_reading
