#include "repro/repro_script.h"

#include "util/error.h"
#include "util/shell_quote.h"

#include <cctype>
#include <fmt/format.h>

namespace bb {

namespace {

std::string header(const ReproPlan& plan, const std::string& tool_version) {
    const BootRecord& boot = plan.boot.record;
    const std::string& experiment = plan.boot.experiment;
    const std::string what =
        experiment.empty()
            ? fmt::format("run {} (bootbench boot), repeat {}", boot.run_id, boot.repeat_index)
            : fmt::format("run {}, experiment {}, cell {}, repeat {}", boot.run_id, experiment,
                          boot.cell_key.empty() ? "-" : boot.cell_key, boot.repeat_index);
    const std::string stored =
        !boot.boot_seconds ? std::string("no time (the marker never came)")
        : plan.start_marker.empty()
            ? fmt::format("{:.3f} s from qemu's spawn to marker '{}'", *boot.boot_seconds,
                          plan.marker)
            : fmt::format("{:.3f} s from marker '{}' to '{}'", *boot.boot_seconds,
                          plan.start_marker, plan.marker);
    const std::string load =
        boot.foreign_load ? fmt::format(", foreign load {:.2f}", *boot.foreign_load) : "";
    return fmt::format(
        "#!/usr/bin/env bash\n"
        "# bootbench repro of boot {} in {}: {}.\n"
        "# Stored: {}, {}{}, started {}.\n"
        "# Written by bootbench {}. Every input is checked against the sha256 the boot recorded.\n"
        "#\n"
        "#   bash THIS                        check the inputs, boot once, print the new time\n"
        "#   bash THIS --rebuild-kernel       first build the kernel again from Debian's source,\n"
        "#                                    the recorded patches and .config, and boot that\n"
        "#   bash THIS --rebuild-kernel --check-only\n"
        "#                                    check source, toolchain, patches and .config; no "
        "make\n"
        "#\n"
        "# REPRO_KERNEL, REPRO_INITRD and REPRO_FIRMWARE name other copies of the inputs (checked\n"
        "# by hash all the same); REPRO_WORK is where a rebuild happens (default: a new /tmp "
        "dir).\n"
        "# Exit status, as bootbench's: 0 the marker came; 1 the boot did not reach it; 2 a usage\n"
        "# error; 3 the environment: an input that does not match, a rebuild step that failed.\n"
        "set -euo pipefail\n"
        "export LC_ALL=C # one decimal point for $EPOCHREALTIME and awk\n\n",
        plan.boot.id, shell_comment_text(plan.database), shell_comment_text(what),
        to_string(boot.outcome), shell_comment_text(stored), load,
        shell_comment_text(boot.started_at), shell_comment_text(tool_version));
}

constexpr const char* k_helpers = R"SH(fail() { echo "repro: $*" >&2; exit 3; }
usage() { echo "repro: $*" >&2; exit 2; }
say() { echo "repro: $*" >&2; }
sha256_of() { sha256sum "$1" | cut -d' ' -f1; }
verify() { # ROLE FILE SHA256
  [ -f "$2" ] || fail "input $1: $2 does not exist"
  local got
  got=$(sha256_of "$2")
  [ "$got" = "$3" ] || fail "input $1: $2 has sha256 $got, the boot used $3"
}

rebuild=0 check_only=0
for arg in "$@"; do
  case $arg in
    --rebuild-kernel) rebuild=1 ;;
    --check-only) check_only=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) usage "unknown option $arg (see --help)" ;;
  esac
done
[ $check_only = 0 ] || [ $rebuild = 1 ] || usage "--check-only goes with --rebuild-kernel"

)SH";

// The script's variable for an input (kernel, initrd, firmware); REPRO_<NAME> overrides it.
std::string variable_of(const ReproInput& input) {
    return input.role == "initramfs" ? "initrd" : input.role;
}

std::string override_of(const ReproInput& input) {
    std::string name = "REPRO_" + variable_of(input);
    for (char& c : name) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return name;
}

std::string recorded_inputs(const ReproPlan& plan) {
    std::string out = "# The inputs as the boot recorded them.\n";
    for (const auto& input : plan.inputs) {
        const std::string variable = variable_of(input);
        const std::string env = override_of(input);
        out += fmt::format("{0}=${{{1}:-{2}}}\n{0}_recorded={2}\n{0}_sha256={3}\n", variable, env,
                           shell_quote(input.path), shell_quote(input.sha256));
    }
    return out + "\n";
}

// A file's exact bytes as one single-quoted word: printf '%s' writes them back verbatim.
std::string write_bytes(const std::string& bytes, const std::string& target,
                        const std::string& what) {
    if (bytes.find('\0') != std::string::npos) {
        throw Error(what + " holds a NUL byte: a shell script cannot carry it");
    }
    return fmt::format("printf '%s' {} >{}\n", shell_quote(bytes), target);
}

std::string source_step(const KernelRecipe& recipe) {
    const std::string identity = recipe.source_package + "=" + recipe.source_version;
    return fmt::format(
        R"SH(  # The source: Debian's {0}, from bootbench's unpacked copy when it is here, else apt.
  local pristine={1} package={3}
  if [ -n "$pristine" ] && [ -f "$pristine/.bootbench-complete" ] &&
     [ "$(cat "$pristine/.bootbench-complete")" = {2} ]; then
    say "source: copying $pristine"
    cp -a "$pristine" "$work/src"
  else
    say "source: apt-get download $package"
    mkdir -p "$work/deb" "$work/root"
    if [ "$(id -u)" = 0 ]; then chown _apt "$work/deb"; fi
    (cd "$work/deb" && apt-get download -q "$package") >&2 ||
      fail "source: apt cannot download $package (apt-get update? a mirror that still has it?)"
    dpkg -x "$work"/deb/*.deb "$work/root"
    mkdir -p "$work/unpacked"
    tar -xf "$work"/root/usr/src/*.tar* -C "$work/unpacked"
    mv "$work"/unpacked/* "$work/src"
  fi
  rm -f "$work/src/.bootbench-complete"
)SH",
        shell_comment_text(identity), shell_quote(recipe.pristine_tree),
        shell_quote("debian-package:" + identity), shell_quote(identity));
}

std::string patch_steps(const KernelRecipe& recipe) {
    std::string out;
    for (size_t i = 0; i < recipe.patches.size(); ++i) {
        const ReproPatch& patch = recipe.patches[i];
        const std::string file = fmt::format("\"$work/patch-{}\"", i + 1);
        out += fmt::format("  # Patch {}/{}: {}\n  ", i + 1, recipe.patches.size(),
                           shell_comment_text(patch.name));
        out += write_bytes(patch.bytes, file, "patch " + patch.name);
        out += fmt::format("  verify {} {} {}\n", shell_quote("patch " + patch.name), file,
                           shell_quote(patch.sha256));
        out += fmt::format("  patch -p1 --forward --batch --no-backup-if-mismatch -r - -d "
                           "\"$work/src\" -i {} >&2 ||\n    fail {}\n",
                           file,
                           shell_quote(fmt::format("patch {}/{} {} does not apply", i + 1,
                                                   recipe.patches.size(), patch.name)));
    }
    return out;
}

std::string make_line(const KernelRecipe& recipe, const std::string& targets) {
    std::string env;
    for (const auto& [name, value] : recipe.make_env) {
        env += name + "=" + shell_quote(value) + " ";
    }
    return fmt::format("{}make -C \"$work/src\" O=\"$work/build\" ARCH={} CROSS_COMPILE={} "
                       "CC=\"$cc\" {}",
                       env, recipe.make_arch, shell_quote(recipe.cross_prefix), targets);
}

std::string rebuild_function(const KernelRecipe& recipe) {
    std::string out = "rebuild_kernel() {\n";
    out += "  if [ -n \"${REPRO_WORK:-}\" ]; then\n"
           "    work=$REPRO_WORK\n"
           "  else # a source tree and a build: ~2 GB, gone when the script ends\n"
           "    work=$(mktemp -d /tmp/bootbench-repro.XXXXXX)\n"
           "    trap 'rm -rf \"$work\"' EXIT\n"
           "  fi\n";
    out += "  mkdir -p \"$work/build\"\n";
    out += "  say " + shell_quote("rebuilding kernel " + recipe.build_key.substr(0, 12) + " in") +
           " \"$work\"\n";
    const std::string cc = recipe.cross_prefix + "gcc";
    const std::string ld = recipe.cross_prefix + "ld";
    out += fmt::format(
        "  # The toolchain: the same compiler and linker versions.\n"
        "  command -v {0} >/dev/null || fail \"toolchain: {0} is not installed\"\n"
        "  local toolchain expected={2}\n"
        "  toolchain=\"$({0} --version | head -n1) / $({1} --version | head -n1)\"\n"
        "  [ \"$toolchain\" = \"$expected\" ] ||\n"
        "    fail \"toolchain: this machine has '$toolchain', the build used '$expected'\"\n"
        "  cc={0}\n"
        "  # bootbench's compiler cache, used the way bootbench uses it, when it is here.\n"
        "  if command -v ccache >/dev/null && [ -d {3} ]; then\n"
        "    cc=\"ccache {0}\"\n"
        "    export CCACHE_DIR={3} CCACHE_BASEDIR=\"$work\" CCACHE_NOHASHDIR=1\n"
        "  fi\n",
        cc, ld, shell_quote(recipe.toolchain), shell_quote(recipe.ccache_dir));
    out += source_step(recipe);
    out += patch_steps(recipe);
    out += "  # The final .config, as built; olddefconfig must leave it as it is.\n  ";
    out += write_bytes(recipe.config, "\"$work/config\"", "the .config");
    out += fmt::format("  verify .config \"$work/config\" {}\n", shell_quote(recipe.config_sha256));
    out += "  cp \"$work/config\" \"$work/build/.config\"\n";
    out += "  " + make_line(recipe, "olddefconfig") + " >&2\n";
    out += "  cmp -s \"$work/config\" \"$work/build/.config\" ||\n"
           "    fail \".config: olddefconfig changed the recorded configuration here (diff "
           "$work/config $work/build/.config)\"\n";
    out += fmt::format(
        "  if [ $check_only = 1 ]; then\n"
        "    say \"source, toolchain, {} patch(es) and .config match the build; --check-only: "
        "no make, no boot\"\n"
        "    exit 0\n"
        "  fi\n",
        recipe.patches.size());
    out += "  " + make_line(recipe, "-j\"$(nproc)\" " + shell_quote(recipe.target)) + " >&2\n";
    out += fmt::format("  kernel=\"$work/build/{}\"\n", recipe.image_path);
    out += "  if [ \"$(sha256_of \"$kernel\")\" = \"$kernel_sha256\" ]; then\n"
           "    say \"the rebuilt image is bit-identical to the one the boot used\"\n"
           "  else\n"
           "    say \"the rebuilt image differs from the one the boot used (sha256 "
           "$(sha256_of \"$kernel\"), booted $kernel_sha256): booting the rebuilt one\"\n"
           "  fi\n"
           "  kernel_sha256=$(sha256_of \"$kernel\")\n";
    out += "}\n\n";
    return out;
}

std::string no_rebuild_function(const std::string& reason) {
    return fmt::format("rebuild_kernel() {{\n  usage {}\n}}\n\n",
                       shell_quote("--rebuild-kernel: this boot's kernel cannot be rebuilt from "
                                   "the script: " +
                                   reason));
}

// The recorded argv with each input's recorded path replaced by the file this run uses.
std::string replay_argv(const ReproPlan& plan) {
    std::string out = "argv=(";
    for (const auto& word : plan.boot.record.argv) {
        std::string replaced = shell_quote(word);
        for (const auto& input : plan.inputs) {
            if (word == input.path) {
                replaced = "\"$" + variable_of(input) + "\"";
            }
        }
        out += "\n  " + replaced;
    }
    return out + "\n)\n";
}

std::string replay(const ReproPlan& plan) {
    std::string out = "[ $rebuild = 0 ] || rebuild_kernel\n";
    for (const auto& input : plan.inputs) {
        out += fmt::format("verify {0} \"${1}\" \"${1}_sha256\"\n", input.role, variable_of(input));
    }
    out += replay_argv(plan);
    out += fmt::format("marker_name={}\nmarker=\"BOOTBENCH-MARKER $marker_name \"\n",
                       shell_quote(plan.marker));
    const auto& stored_seconds = plan.boot.record.boot_seconds;
    out += fmt::format("stored={}\n",
                       stored_seconds ? fmt::format("{:.6f}", *stored_seconds) : std::string("''"));
    out += fmt::format("start_name={}\n", shell_quote(plan.start_marker));
    out += R"SH(log=$(mktemp /tmp/bootbench-repro-console.XXXXXX)
fifo=$(mktemp -u /tmp/bootbench-repro-fifo.XXXXXX)
mkfifo "$fifo"
say "booting (console: $log)"
started=${start_name:+no}
reached=''
limit=${REPRO_TIMEOUT:-1800}
# Not under timeout(1): there the same nested boot ran ~1.3x slower here (L1 reached l2-exit
# at uptime 31 s against 23-26 s without it; cause not found). The loop below keeps the limit.
start=$EPOCHREALTIME
"${argv[@]}" </dev/null >"$fifo" 2>&1 &
qemu=$!
# The host clock from qemu's spawn (or the start marker's line) to the marker's line, as
# bootbench times a boot; the marker counts only after the start. Bash builtins only, so the
# loop forks nothing per line.
while true; do
  left=$((${start%.*} + limit - EPOCHSECONDS))
  if ((left <= 0)); then
    say "no exit after $limit s (REPRO_TIMEOUT): stopping qemu"
    kill "$qemu" 2>/dev/null || true
    break
  fi
  status=0
  IFS= read -r -t "$left" line || status=$?
  if ((status > 128)); then continue; fi # read timed out: the limit decides
  if ((status != 0)) && [ -z "$line" ]; then break; fi # qemu closed its output
  printf '%s\n' "$line" >>"$log"
  if [ "$started" = no ] && [[ $line == *"BOOTBENCH-MARKER $start_name "* ]]; then
    start=$EPOCHREALTIME started=yes
  elif [ "$started" != no ] && [ -z "$reached" ] && [[ $line == *"$marker"* ]]; then
    reached=$EPOCHREALTIME
  fi
done <"$fifo"
wait "$qemu" 2>/dev/null || true
rm -f "$fifo"
if [ -z "$reached" ]; then
  say "the marker '$marker_name' never came; the console's last lines:"
  tail -n 20 "$log" >&2
  exit 1
fi
seconds=$(awk -v a="$start" -v b="$reached" 'BEGIN { printf "%.3f", b - a }')
if [ -n "$stored" ]; then
  ratio=$(awk -v a="$seconds" -v b="$stored" 'BEGIN { printf "%.2f", a / b }')
  printf 'marker %s after %s s; stored %.3f s (%sx)\n' "$marker_name" "$seconds" "$stored" \
    "$ratio"
else
  printf 'marker %s after %s s; the stored boot never reached it\n' "$marker_name" "$seconds"
fi
)SH";
    return out;
}
} // namespace

std::string render_repro_script(const ReproPlan& plan, const std::string& tool_version) {
    std::string script = header(plan, tool_version) + k_helpers + recorded_inputs(plan);
    script +=
        plan.kernel ? rebuild_function(*plan.kernel) : no_rebuild_function(plan.no_recipe_reason);
    return script + replay(plan);
}

} // namespace bb
