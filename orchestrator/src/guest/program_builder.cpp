#include "guest/program_builder.h"

#include "guest/elf_check.h"
#include "util/arch.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

namespace bb {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view k_key_version = "guest-program-v1";
constexpr auto k_compile_timeout = std::chrono::seconds(300);

std::vector<std::string> compiler_argv(Arch arch, std::vector<std::string> tail) {
    std::vector<std::string> argv{guest_compiler(arch)};
    const auto& flags = guest_program_flags();
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), tail.begin(), tail.end());
    return argv;
}

CommandResult run_compiler(Arch arch, const fs::path& source, std::vector<std::string> tail) {
    const std::string compiler = guest_compiler(arch);
    if (find_program(compiler).empty()) { // a missing tool: the environment, not the program
        throw RuntimeFailure(fmt::format("guest program {}: the {} C compiler {} is not "
                                         "installed (run scripts/setup.sh)",
                                         source.string(), to_string(arch), compiler));
    }
    return run_command(compiler_argv(arch, std::move(tail)), k_compile_timeout);
}

// Compiler messages for an error: the first ones are the ones that matter.
std::string head_of(const std::string& text) {
    constexpr size_t k_limit = 4000;
    return text.size() <= k_limit ? text : text.substr(0, k_limit) + "\n[...]";
}

// The C library that -static links in is an input too: a libc6-dev upgrade changes the binary.
std::string static_libc_hash(Arch arch, const fs::path& source) {
    const CommandResult found = run_compiler(arch, source, {"-print-file-name=libc.a"});
    std::string path = found.output.substr(0, found.output.find('\n'));
    return fs::is_regular_file(path) ? sha256_file(path) : "absent";
}
} // namespace

std::string guest_compiler(Arch arch) {
    return cross_prefix(arch) + "gcc";
}

const std::vector<std::string>& guest_program_flags() {
    static const std::vector<std::string> flags{"-static", "-O2", "-pthread", "-Wall"};
    return flags;
}

std::string guest_program_name(const fs::path& source) {
    return source.stem().string();
}

GuestProgram build_guest_program(Arch arch, const fs::path& source, const fs::path& cache) {
    if (!fs::is_regular_file(source)) {
        throw Error("guest program not found: " + source.string());
    }
    GuestProgram program;
    program.name = guest_program_name(source);
    program.source = source;

    // -P: no line markers, so the key does not depend on where the checkout lives.
    const CommandResult preprocessed = run_compiler(arch, source, {"-E", "-P", source.string()});
    if (preprocessed.exit_code != 0) {
        throw Error(fmt::format("guest program {}: the preprocessor failed:\n{}", source.string(),
                                head_of(preprocessed.output)));
    }
    Sha256 hash;
    hash.tagged("key-format", k_key_version);
    hash.tagged("arch", to_string(arch));
    hash.tagged("compiler", version_of(guest_compiler(arch)));
    for (const auto& flag : guest_program_flags()) {
        hash.tagged("flag", flag);
    }
    hash.tagged("libc", static_libc_hash(arch, source));
    hash.tagged("preprocessed", preprocessed.output);
    program.key = hash.hex();
    program.binary =
        cache / "programs" /
        fmt::format("{}-{}-{}", program.name, to_string(arch), program.key.substr(0, 16));
    if (fs::exists(program.binary)) {
        program.cache_hit = true;
        return program;
    }
    fs::create_directories(program.binary.parent_path());
    fs::path temp = program.binary;
    temp += ".tmp." + std::to_string(getpid());
    const CommandResult compiled =
        run_compiler(arch, source, {"-o", temp.string(), source.string()});
    if (compiled.exit_code != 0) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw Error(fmt::format("guest program {} does not compile for {} ({}):\n{}",
                                source.string(), to_string(arch), guest_compiler(arch),
                                head_of(compiled.output)));
    }
    try {
        require_static_elf(temp, arch);
    } catch (...) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw;
    }
    fs::rename(temp, program.binary);
    return program;
}

} // namespace bb
