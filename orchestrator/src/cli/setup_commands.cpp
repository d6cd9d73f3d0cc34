// `bootbench completion bash` and `bootbench manpage`: files for a shell and for man(1),
// generated from the program's own command definitions when asked (and by the build, which
// installs them: orchestrator/CMakeLists.txt).
#include "cli/bash_completion.h"
#include "cli/commands.h"
#include "cli/man_page.h"
#include "store/boot_store.h"
#include "util/error.h"

#include <cstdio>
#include <memory>
#include <string>

namespace bb {

namespace {
int print(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return k_exit_ok;
}

const CLI::App& program(const CLI::App* command) {
    return *command->get_parent();
}
} // namespace

void add_setup_commands(CLI::App& app, GlobalOptions& /*global*/, int& exit_status) {
    auto shell = std::make_shared<std::string>();
    CLI::App* completion = app.add_subcommand(
        "completion",
        "Print a shell completion script (bash): source <(bootbench completion bash)");
    completion->add_option("shell", *shell, "the shell")
        ->required()
        ->check(CLI::IsMember({"bash"}));
    // The callback owns `shell`: CLI11 writes the parsed value into it after this function
    // returns (found by the sanitizer build: a use after free).
    completion->callback([completion, shell, &exit_status] {
        exit_status = print(bash_completion(program(completion)));
    });
    CLI::App* manpage =
        app.add_subcommand("manpage", "Print the man page bootbench(1) in roff: bootbench manpage "
                                      "| man -l -");
    manpage->callback([manpage, &exit_status] {
        exit_status = print(man_page(program(manpage), tool_version()));
    });
}

} // namespace bb
