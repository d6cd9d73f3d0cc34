// `bootbench completion bash|zsh|fish` and `bootbench manpage`: files for a shell and for
// man(1), generated from the program's own command definitions when asked (and by the build,
// which installs them: orchestrator/CMakeLists.txt); and the hidden `bootbench __complete`, which
// the completion scripts call on every Tab.
#include "cli/cli_outline.h"
#include "cli/commands.h"
#include "cli/man_page.h"
#include "completion/completion.h"
#include "completion/completion_scripts.h"
#include "completion/stored_values.h"
#include "completion/value_kind.h"
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

// The program's global options as a command outline (their owner has no name).
CommandOutline global_outline(const CLI::App& app) {
    return {"", "", "", outline_options(app)};
}

// The database the completed command line names with --db, else the one `__complete` itself
// was given (`bootbench --db X __complete …`), else $BOOTBENCH_DB's or the default.
Completion complete_command_line(const CLI::App& app, const GlobalOptions& global,
                                 const std::vector<std::string>& words) {
    const StoredValues stored = [&global](const std::string& kind,
                                          const std::optional<std::string>& db) {
        return stored_values(db ? std::filesystem::path(*db) : global.db_path(), kind);
    };
    return complete_words(global_outline(app), outline_commands(app), words, stored);
}

void add_complete_command(CLI::App& app, const GlobalOptions& global, int& exit_status) {
    auto words = std::make_shared<std::vector<std::string>>();
    // No group: hidden from --help, the man page and completion itself.
    CLI::App* complete = app.add_subcommand("__complete", "")->group("");
    complete->add_option("words", *words, "the words after `bootbench`, the last being completed");
    complete->callback([complete, words, &global, &exit_status] {
        exit_status =
            print(completion_lines(complete_command_line(program(complete), global, *words)));
    });
}
} // namespace

void add_setup_commands(CLI::App& app, GlobalOptions& global, int& exit_status) {
    auto shell = std::make_shared<std::string>();
    CLI::App* completion = app.add_subcommand(
        "completion", "Print a shell completion script: source <(bootbench completion bash); "
                      "zsh and fish alike");
    completion->footer(R"(
  source <(bootbench completion bash)    # bash, this shell only
  source <(bootbench completion zsh)     # zsh, after compinit
  bootbench completion fish | source     # fish

cmake --install puts all three where the shells look (share/bash-completion/completions,
share/zsh/vendor-completions, share/fish/vendor_completions.d). Each Tab asks bootbench for the
words: commands, options, an option's values (--format, --view, --arch …), and run ids,
experiment names and build keys from the database --db or $BOOTBENCH_DB names (read-only).)");
    completion->add_option("shell", *shell, "bash, zsh or fish")
        ->required()
        ->type_name(choice_of(completion_shells()));
    // The callback owns `shell`: CLI11 writes the parsed value into it after this function
    // returns (found by the sanitizer build: a use after free).
    completion->callback([shell, &exit_status] { exit_status = print(completion_script(*shell)); });
    CLI::App* manpage =
        app.add_subcommand("manpage", "Print the man page bootbench(1) in roff: bootbench manpage "
                                      "| man -l -");
    manpage->callback([manpage, &exit_status] {
        exit_status = print(man_page(program(manpage), tool_version()));
    });
    add_complete_command(app, global, exit_status);
}

} // namespace bb
