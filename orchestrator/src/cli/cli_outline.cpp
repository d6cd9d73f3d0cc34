#include "cli/cli_outline.h"

namespace bb {

std::vector<OptionOutline> outline_options(const CLI::App& app) {
    std::vector<OptionOutline> options;
    for (const CLI::Option* option : app.get_options()) {
        if (option->get_group().empty()) {
            continue; // hidden
        }
        OptionOutline outline;
        for (const auto& name : option->get_snames()) {
            outline.names.push_back("-" + name);
        }
        for (const auto& name : option->get_lnames()) {
            outline.names.push_back("--" + name);
        }
        if (outline.names.empty()) {
            outline.positional = option->get_name();
        }
        if (option->get_type_size() != 0) {
            outline.value = option->get_type_name();
        }
        outline.description = option->get_description();
        options.push_back(std::move(outline));
    }
    return options;
}

std::vector<CommandOutline> outline_commands(const CLI::App& app) {
    std::vector<CommandOutline> commands;
    for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (command->get_group().empty()) {
            continue; // hidden
        }
        commands.push_back({command->get_name(), command->get_description(), command->get_footer(),
                            outline_options(*command)});
    }
    return commands;
}

} // namespace bb
