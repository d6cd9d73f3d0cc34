#include "experiment/experiment_parser.h"
#include "experiment/matrix.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>

using bb::Cell;
using bb::expand_matrix;
using bb::parse_experiment;

namespace {

// 2 variants x 3 HZ x 2 reader counts: 12 cells, 6 kernels.
const std::string k_srcu = R"(name: srcu
kernel:
  arch: arm64
  fragments: [rcuscale]
  variants:
    - name: stock
    - name: prefix
      patches: [p/0001.patch]
      cmdline: "v=1"
guest:
  cmdline: quiet
axes:
  hz: [100, 250, 1000]
  cmdline:
    rcuscale.nreaders: [0, 2]
)";

std::vector<Cell> cells_of(const std::string& yaml) {
    return expand_matrix(parse_experiment(yaml, "/e/exp.yaml"));
}

std::vector<std::string> keys_of(const std::vector<Cell>& cells) {
    std::vector<std::string> keys;
    for (const auto& cell : cells) {
        keys.push_back(cell.cell_key);
    }
    return keys;
}

std::vector<Cell> numbered_cells(size_t count) {
    std::vector<Cell> cells(count);
    for (size_t i = 0; i < count; ++i) {
        cells[i].cell_key = "variant=v" + std::to_string(i);
    }
    return cells;
}

} // namespace

TEST_CASE("the matrix is the product of the axes, builds only of what changes the kernel",
          "[matrix]") {
    const auto cells = cells_of(k_srcu);
    REQUIRE(cells.size() == 12);
    CHECK(bb::distinct_builds(cells).size() == 6);
    // The last axis varies fastest; variants are outermost.
    CHECK(keys_of(cells) == std::vector<std::string>{"variant=stock;hz=100;rcuscale.nreaders=0",
                                                     "variant=stock;hz=100;rcuscale.nreaders=2",
                                                     "variant=stock;hz=250;rcuscale.nreaders=0",
                                                     "variant=stock;hz=250;rcuscale.nreaders=2",
                                                     "variant=stock;hz=1000;rcuscale.nreaders=0",
                                                     "variant=stock;hz=1000;rcuscale.nreaders=2",
                                                     "variant=prefix;hz=100;rcuscale.nreaders=0",
                                                     "variant=prefix;hz=100;rcuscale.nreaders=2",
                                                     "variant=prefix;hz=250;rcuscale.nreaders=0",
                                                     "variant=prefix;hz=250;rcuscale.nreaders=2",
                                                     "variant=prefix;hz=1000;rcuscale.nreaders=0",
                                                     "variant=prefix;hz=1000;rcuscale.nreaders=2"});

    // A cmdline-only axis multiplies cells and adds no kernel.
    const std::string wider = k_srcu + "    srcutree.srcu_max_nodelay_phase: [100, 1000]\n";
    const auto more = cells_of(wider);
    CHECK(more.size() == 24);
    CHECK(bb::distinct_builds(more) == bb::distinct_builds(cells));
}

TEST_CASE("a cell carries its settings, command line, key, build and params", "[matrix]") {
    const auto cells = cells_of(k_srcu);
    const Cell& first = cells[0];
    CHECK(first.variant == "stock");
    CHECK(first.build.hz == std::optional<int>(100));
    CHECK_FALSE(first.smp.has_value());
    CHECK_FALSE(first.memory_mb.has_value());
    CHECK_FALSE(first.firmware.has_value());
    CHECK(first.machine.empty());
    CHECK(first.cpu.empty());
    CHECK(first.topology == bb::Topology::Guest);
    CHECK(first.cmdline_params ==
          std::vector<std::pair<std::string, std::string>>{{"rcuscale.nreaders", "0"}});
    CHECK(first.cmdline == "quiet rcuscale.nreaders=0");
    CHECK(first.params ==
          nlohmann::json{{"variant", "stock"}, {"hz", 100}, {"rcuscale.nreaders", 0}});
    CHECK(first.build_id == R"({"arch":"arm64","base":"tinyconfig","fragments":["rcuscale"],)"
                            R"("hz":100,"patches":[],"preempt":null,"set":[],"source":"",)"
                            R"("variant":"stock"})");

    const Cell& prefix = cells[7]; // prefix, hz 100, 2 readers
    CHECK(prefix.cell_key == "variant=prefix;hz=100;rcuscale.nreaders=2");
    CHECK(prefix.cmdline == "quiet v=1 rcuscale.nreaders=2");
    CHECK(prefix.build.variant == "prefix");
    CHECK(prefix.build.arch == bb::Arch::Arm64);
    CHECK(prefix.build.hz == std::optional<int>(100));
    CHECK(prefix.build.fragments == std::vector<std::string>{"rcuscale"});
    CHECK(prefix.build.patches == std::vector<std::filesystem::path>{"/e/p/0001.patch"});
    CHECK(prefix.build_id == bb::build_id(prefix.build));

    // Cells that differ only in boot parameters share a kernel; HZ or variant do not.
    CHECK(cells[6].build_id == cells[7].build_id);
    CHECK(cells[6].build_id != cells[8].build_id);
    CHECK(cells[0].build_id != cells[6].build_id);
}

TEST_CASE("kernel and variant config both reach the build", "[matrix]") {
    const auto cells = cells_of(R"(name: b
kernel:
  arch: x86_64
  source: debian:linux-source-6.1
  base: defconfig
  fragments: [a]
  preempt: voluntary
  set: [CONFIG_A=y]
  variants:
    - name: v
      fragments: [b]
      set: [CONFIG_B=m]
)");
    REQUIRE(cells.size() == 1);
    const bb::KernelBuildSpec& build = cells[0].build;
    CHECK(build.arch == bb::Arch::X86_64);
    CHECK(build.source == "debian:linux-source-6.1");
    CHECK(build.base == "defconfig");
    CHECK(build.fragments == std::vector<std::string>{"a", "b"});
    CHECK(build.preempt == std::optional<std::string>("voluntary"));
    CHECK(build.set == std::vector<std::string>{"CONFIG_A=y", "CONFIG_B=m"});
    CHECK_FALSE(build.hz.has_value());
    CHECK(cells[0].build_id ==
          R"({"arch":"x86_64","base":"defconfig","fragments":["a","b"],"hz":null,"patches":[],)"
          R"("preempt":"voluntary","set":["CONFIG_A=y","CONFIG_B=m"],)"
          R"("source":"debian:linux-source-6.1","variant":"v"})");
}

TEST_CASE("undeclared axes contribute one default value", "[matrix]") {
    const auto cells = cells_of("name: t\nkernel:\n  arch: arm64\n");
    REQUIRE(cells.size() == 1);
    CHECK(cells[0].cell_key == "variant=stock");
    CHECK(cells[0].cmdline.empty());
    CHECK_FALSE(cells[0].build.hz.has_value());
    CHECK(cells[0].params == nlohmann::json{{"variant", "stock"}});
    CHECK(bb::distinct_builds(cells).size() == 1);
}

TEST_CASE("every built-in axis appears in canonical order", "[matrix]") {
    const auto cells = cells_of(R"(name: t
kernel:
  arch: arm64
axes:
  topology: [nested]
  cpu: [max]
  machine: ["virt,acpi=off"]
  firmware: [QEMU_EFI.fd, none, ../fw/my.fd]
  memory: [512]
  smp: [4]
  hz: [300]
)");
    REQUIRE(cells.size() == 3);
    CHECK(cells[0].cell_key == "variant=stock;hz=300;smp=4;memory=512;firmware=QEMU_EFI.fd;"
                               "machine=virt,acpi=off;cpu=max;topology=nested");
    CHECK(cells[0].smp == std::optional<int>(4));
    CHECK(cells[0].memory_mb == std::optional<int>(512));
    CHECK(cells[0].machine == "virt,acpi=off");
    CHECK(cells[0].cpu == "max");
    CHECK(cells[0].topology == bb::Topology::Nested);
    CHECK(cells[0].params == nlohmann::json{{"variant", "stock"},
                                            {"hz", 300},
                                            {"smp", 4},
                                            {"memory", 512},
                                            {"firmware", "QEMU_EFI.fd"},
                                            {"machine", "virt,acpi=off"},
                                            {"cpu", "max"},
                                            {"topology", "nested"}});
    // Firmware: a known name as is, "none" is no -bios, a path is anchored at the file; the
    // key keeps what was written so it does not depend on where the checkout lives.
    CHECK(cells[0].firmware == std::optional<std::string>("QEMU_EFI.fd"));
    CHECK_FALSE(cells[1].firmware.has_value());
    CHECK(cells[1].cell_key.find(";firmware=none;") != std::string::npos);
    CHECK(cells[2].firmware == std::optional<std::string>("/fw/my.fd"));
    CHECK(cells[2].cell_key.find(";firmware=../fw/my.fd;") != std::string::npos);
}

TEST_CASE("cell keys are stable and unique", "[matrix]") {
    const auto a = cells_of(R"(name: t
kernel:
  arch: arm64
axes:
  hz: [100, 250]
  cmdline:
    b.param: [1, 2]
    a.param: [x, y]
  smp: [2]
)");
    // The same experiment written in another order: same keys, same kernels.
    const auto b = cells_of(R"(name: t
kernel:
  arch: arm64
axes:
  smp: [2]
  cmdline:
    a.param: [x, y]
    b.param: [1, 2]
  hz: [100, 250]
)");
    REQUIRE(a.size() == 8);
    CHECK(a[0].cell_key == "variant=stock;hz=100;smp=2;a.param=x;b.param=1");
    auto keys_a = keys_of(a);
    auto keys_b = keys_of(b);
    CHECK(std::set<std::string>(keys_a.begin(), keys_a.end()).size() == 8);
    std::sort(keys_a.begin(), keys_a.end());
    std::sort(keys_b.begin(), keys_b.end());
    CHECK(keys_a == keys_b);
    CHECK(bb::distinct_builds(a) == bb::distinct_builds(b));
    // The command line keeps the file's order.
    CHECK(a[0].cmdline == "b.param=1 a.param=x");
    CHECK(b[0].cmdline == "a.param=x b.param=1");

    // Separators inside values are escaped, so no two cells can share a key.
    const auto escaped =
        cells_of("name: t\nkernel:\n  arch: arm64\naxes:\n  machine: [\"a;cpu=b\", 'c\\d']\n");
    CHECK(escaped[0].cell_key == R"(variant=stock;machine=a\;cpu=b)");
    CHECK(escaped[1].cell_key == R"(variant=stock;machine=c\\d)");
}

TEST_CASE("cmdline values become JSON numbers only when they are plain integers", "[matrix]") {
    const auto cells = cells_of(
        "name: t\nkernel:\n  arch: arm64\naxes:\n  cmdline:\n    p: [-5, '007', 1e3, on]\n");
    REQUIRE(cells.size() == 4);
    CHECK(cells[0].params["p"] == nlohmann::json(-5));
    CHECK(cells[1].params["p"] == nlohmann::json("007"));
    CHECK(cells[2].params["p"] == nlohmann::json("1e3"));
    CHECK(cells[3].params["p"] == nlohmann::json("on"));
    CHECK(cells[1].cmdline == "p=007");
}

TEST_CASE("exclude drops cells matching every key of a rule", "[matrix]") {
    const auto cells = cells_of(k_srcu + "exclude:\n  - {variant: stock, rcuscale.nreaders: 2}\n");
    CHECK(cells.size() == 9);
    for (const auto& cell : cells) {
        CHECK_FALSE((cell.variant == "stock" && cell.cmdline_params[0].second == "2"));
    }
    // A partial match is not a match.
    CHECK(cells_of(k_srcu + "exclude:\n  - {variant: stock, hz: 100}\n  - {hz: 1000}\n").size() ==
          6);
}

TEST_CASE("include keeps only cells matching some rule, exclude still wins", "[matrix]") {
    const auto one = cells_of(k_srcu + "include:\n  - {variant: prefix, hz: 250}\n");
    CHECK(keys_of(one) == std::vector<std::string>{"variant=prefix;hz=250;rcuscale.nreaders=0",
                                                   "variant=prefix;hz=250;rcuscale.nreaders=2"});
    CHECK(bb::distinct_builds(one).size() == 1);

    const auto two =
        cells_of(k_srcu + "include:\n  - {variant: prefix, hz: 250}\n  - {hz: 1000}\n");
    CHECK(two.size() == 6);

    const auto both =
        cells_of(k_srcu + "include:\n  - {hz: 1000}\nexclude:\n  - {variant: stock}\n");
    CHECK(keys_of(both) == std::vector<std::string>{"variant=prefix;hz=1000;rcuscale.nreaders=0",
                                                    "variant=prefix;hz=1000;rcuscale.nreaders=2"});
}

TEST_CASE("distinct_builds lists each build once, in order of first use", "[matrix]") {
    std::vector<Cell> cells(4);
    cells[0].build_id = "b";
    cells[1].build_id = "a";
    cells[2].build_id = "b";
    cells[3].build_id = "c";
    CHECK(bb::distinct_builds(cells) == std::vector<std::string>{"b", "a", "c"});
    CHECK(bb::distinct_builds({}).empty());
}

TEST_CASE("schedule_order boots every cell once per round, shuffled by the seed", "[matrix]") {
    const auto cells = numbered_cells(12);
    const auto order = bb::schedule_order(cells, 5, 42, true);
    REQUIRE(order.size() == 60);
    std::vector<std::vector<size_t>> rounds(5);
    for (size_t i = 0; i < order.size(); ++i) {
        // Rounds are contiguous: all of round r before any of round r+1.
        CHECK(order[i].second == static_cast<int>(i / 12));
        rounds[i / 12].push_back(order[i].first);
    }
    std::vector<size_t> identity(12);
    for (size_t i = 0; i < identity.size(); ++i) {
        identity[i] = i;
    }
    for (const auto& round : rounds) {
        auto sorted = round;
        std::sort(sorted.begin(), sorted.end());
        CHECK(sorted == identity); // a permutation of the cells
    }
    // Each round is shuffled afresh.
    CHECK(std::set<std::vector<size_t>>(rounds.begin(), rounds.end()).size() > 1);
    CHECK(rounds[0] != identity);

    // Reproducible from the seed alone; another seed gives another order.
    CHECK(bb::schedule_order(cells, 5, 42, true) == order);
    CHECK(bb::schedule_order(cells, 5, 43, true) != order);
}

TEST_CASE("schedule_order is pinned for a recorded seed", "[matrix]") {
    // A stored run's seed must replay the same order on any machine and standard library.
    const auto order = bb::schedule_order(numbered_cells(5), 3, 42, true);
    const std::vector<std::pair<size_t, int>> expected{{2, 0}, {3, 0}, {4, 0}, {0, 0}, {1, 0}, //
                                                       {2, 1}, {3, 1}, {4, 1}, {0, 1}, {1, 1}, //
                                                       {2, 2}, {4, 2}, {3, 2}, {1, 2}, {0, 2}};
    CHECK(order == expected);
}

TEST_CASE("sequential order and degenerate schedules", "[matrix]") {
    const auto cells = numbered_cells(3);
    CHECK(bb::schedule_order(cells, 2, 42, false) ==
          std::vector<std::pair<size_t, int>>{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}});
    CHECK(bb::schedule_order(cells, 0, 42, true).empty());
    CHECK(bb::schedule_order({}, 3, 42, true).empty());
    CHECK(bb::schedule_order(numbered_cells(1), 2, 7, true) ==
          std::vector<std::pair<size_t, int>>{{0, 0}, {0, 1}});
}

TEST_CASE("run --only keeps the cells with the listed values and names bad axes and values",
          "[matrix]") {
    const auto experiment = parse_experiment(k_srcu, "/e/exp.yaml");
    const auto all = expand_matrix(experiment);
    const auto some = bb::restrict_cells(
        experiment, all, bb::parse_axis_restrictions({"hz=100,250", "variant=prefix"}));
    REQUIRE(some.size() == 4); // 2 HZ x 1 variant x 2 reader counts
    for (const auto& cell : some) {
        CHECK(cell.variant == "prefix");
        CHECK(*cell.build.hz != 1000);
    }
    const auto readers =
        bb::restrict_cells(experiment, all, bb::parse_axis_restrictions({"rcuscale.nreaders=2"}));
    CHECK(readers.size() == 6);
    CHECK(bb::restrict_cells(experiment, all, {}).size() == all.size());

    auto error_of = [&](const std::vector<std::string>& specs) {
        try {
            bb::restrict_cells(experiment, all, bb::parse_axis_restrictions(specs));
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error_of({"hz"}) == "--only hz: expected AXIS=VALUE[,VALUE...], e.g. hz=100,250");
    CHECK(error_of({"smp=2"}) ==
          "--only smp: the experiment has no axis 'smp' (axes: variant, hz, rcuscale.nreaders)");
    CHECK(error_of({"hz=300"}) ==
          "--only hz=300: '300' is not a value of hz (values: 100, 250, 1000)");
    // Near misses get the nearest name (issue 49 item 8).
    CHECK(error_of({"varaint=prefix"}) ==
          "--only varaint: the experiment has no axis 'varaint' (did you mean 'variant'?) (axes: "
          "variant, hz, rcuscale.nreaders)");
    CHECK(error_of({"variant=prefx"}) == "--only variant=prefx: 'prefx' is not a value of variant "
                                         "(did you mean 'prefix'?) (values: stock, prefix)");
}

TEST_CASE("nested cells build their kernel as a KVM host", "[matrix]") {
    const auto cells = cells_of(R"(name: t
kernel:
  arch: arm64
  fragments: [tracing]
axes:
  topology: [guest, nested]
)");
    REQUIRE(cells.size() == 2);
    CHECK(cells[0].build.fragments == std::vector<std::string>{"tracing"});
    CHECK(cells[1].build.fragments == std::vector<std::string>{"tracing", "arm64-kvm-host"});
    CHECK(cells[0].build_id != cells[1].build_id);
}

TEST_CASE("trace: initcalls puts initcall_debug on every cell's command line", "[matrix]") {
    const auto cells = expand_matrix(parse_experiment(
        "name: t\nkernel:\n  arch: arm64\n  variants: [{name: a}, {name: b, cmdline: x.y=1}]\n"
        "guest:\n  cmdline: quiet\ntrace: initcalls\n",
        "/e/exp.yaml"));
    REQUIRE(cells.size() == 2);
    CHECK(cells[0].cmdline == "quiet initcall_debug");
    CHECK(cells[1].cmdline == "quiet x.y=1 initcall_debug");
}
