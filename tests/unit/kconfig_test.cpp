#include "kernel/kconfig.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using bb::KconfigValues;
using bb::test::TempDir;
using bb::test::thrown_message;

namespace {
// "NAME=value" lines in map order: a readable form for comparing whole maps.
std::string dump(const KconfigValues& values) {
    std::string out;
    for (const auto& [name, value] : values) {
        out += name + "=" + value + "\n";
    }
    return out;
}

std::size_t count_of(const std::string& haystack, const std::string& needle) {
    std::size_t count = 0;
    for (auto at = haystack.find(needle); at != std::string::npos;
         at = haystack.find(needle, at + 1)) {
        ++count;
    }
    return count;
}
} // namespace

// ---------------------------------------------------------------------------------------------
// parse_kconfig

TEST_CASE("parse_kconfig reads assignments, not-set comments, strings and numbers", "[kconfig]") {
    const std::string text = "#\n"
                             "# Automatically generated file; DO NOT EDIT.\n"
                             "#\n"
                             "CONFIG_A=y\n"
                             "\n"
                             "CONFIG_B=m\n"
                             "# CONFIG_C is not set\n"
                             "CONFIG_CMDLINE=\"console=ttyS0 quiet\"\n"
                             "CONFIG_HZ=250\n"
                             "CONFIG_PHYS=0x1000000\n"
                             "# CONFIG_D is set somewhere else (just a comment)\n"
                             "CONFIG_LAST=y"; // no final newline
    const KconfigValues values = bb::parse_kconfig(text);
    CHECK(dump(values) == "CONFIG_A=y\n"
                          "CONFIG_B=m\n"
                          "CONFIG_C=n\n"
                          "CONFIG_CMDLINE=\"console=ttyS0 quiet\"\n"
                          "CONFIG_HZ=250\n"
                          "CONFIG_LAST=y\n"
                          "CONFIG_PHYS=0x1000000\n");
    CHECK(values.count("CONFIG_D") == 0);
}

TEST_CASE("parse_kconfig accepts CRLF line endings and trailing blanks", "[kconfig]") {
    const KconfigValues values =
        bb::parse_kconfig("CONFIG_A=y\r\n# CONFIG_B is not set\r\n\r\nCONFIG_S=\"x\"  \r\n");
    CHECK(dump(values) == "CONFIG_A=y\nCONFIG_B=n\nCONFIG_S=\"x\"\n");
}

TEST_CASE("parse_kconfig: a later assignment of the same option wins", "[kconfig]") {
    const KconfigValues values = bb::parse_kconfig("CONFIG_A=y\n# CONFIG_A is not set\n");
    CHECK(dump(values) == "CONFIG_A=n\n");
}

TEST_CASE("parse_kconfig on empty or comment-only text gives no options", "[kconfig]") {
    CHECK(bb::parse_kconfig("").empty());
    CHECK(bb::parse_kconfig("\n\n# only a comment\n\r\n").empty());
}

TEST_CASE("parse_kconfig rejects a bad line naming source:line", "[kconfig]") {
    SECTION("free text") {
        const std::string message = thrown_message<bb::Error>([] {
            bb::parse_kconfig("CONFIG_A=y\n# comment\nfoo bar\nCONFIG_B=y\n", "frag.config");
        });
        CHECK_THAT(message, Catch::Contains("frag.config:3"));
        CHECK_THAT(message, Catch::Contains("foo bar"));
    }
    SECTION("line numbers count blank and CRLF lines") {
        const std::string message = thrown_message<bb::Error>(
            [] { bb::parse_kconfig("\r\n\r\nCONFIG_A=y\r\nbogus\r\n", "x.cfg"); });
        CHECK_THAT(message, Catch::Contains("x.cfg:4"));
    }
    SECTION("default source name") {
        const std::string message =
            thrown_message<bb::Error>([] { bb::parse_kconfig("CONFIG_A\n"); });
        CHECK_THAT(message, Catch::Contains("<config>:1"));
    }
    SECTION("assignment without the CONFIG_ prefix") {
        const std::string message =
            thrown_message<bb::Error>([] { bb::parse_kconfig("CONFIG_A=y\nHZ=100\n", "f"); });
        CHECK_THAT(message, Catch::Contains("f:2"));
        CHECK_THAT(message, Catch::Contains("HZ=100"));
    }
    SECTION("empty or invalid symbol names") {
        CHECK_THROWS_AS(bb::parse_kconfig("CONFIG_=y\n"), bb::Error);
        CHECK_THROWS_AS(bb::parse_kconfig("CONFIG_A-B=y\n"), bb::Error);
        CHECK_THROWS_AS(bb::parse_kconfig(" CONFIG_A=y\n"), bb::Error);
    }
}

// ---------------------------------------------------------------------------------------------
// hz_options / preempt_options

TEST_CASE("hz_options sets the whole HZ choice", "[kconfig]") {
    CHECK(dump(bb::hz_options(250)) == "CONFIG_HZ=250\n"
                                       "CONFIG_HZ_100=n\n"
                                       "CONFIG_HZ_1000=n\n"
                                       "CONFIG_HZ_250=y\n"
                                       "CONFIG_HZ_300=n\n");
    const KconfigValues thousand = bb::hz_options(1000);
    CHECK(thousand.at("CONFIG_HZ_1000") == "y");
    CHECK(thousand.at("CONFIG_HZ_100") == "n");
    CHECK(thousand.at("CONFIG_HZ") == "1000");
    CHECK(bb::hz_options(100).at("CONFIG_HZ_100") == "y");
    CHECK(bb::hz_options(300).at("CONFIG_HZ_300") == "y");
}

TEST_CASE("hz_options rejects a value that is not a Kconfig choice", "[kconfig]") {
    const std::string message = thrown_message<bb::Error>([] { bb::hz_options(123); });
    CHECK_THAT(message, Catch::Contains("123"));
    CHECK_THAT(message, Catch::Contains("100, 250, 300 or 1000"));
    CHECK_THROWS_AS(bb::hz_options(0), bb::Error);
    CHECK_THROWS_AS(bb::hz_options(-250), bb::Error);
}

TEST_CASE("preempt_options sets the whole preemption choice", "[kconfig]") {
    CHECK(dump(bb::preempt_options("none")) == "CONFIG_PREEMPT=n\n"
                                               "CONFIG_PREEMPT_NONE=y\n"
                                               "CONFIG_PREEMPT_VOLUNTARY=n\n");
    CHECK(dump(bb::preempt_options("voluntary")) == "CONFIG_PREEMPT=n\n"
                                                    "CONFIG_PREEMPT_NONE=n\n"
                                                    "CONFIG_PREEMPT_VOLUNTARY=y\n");
    CHECK(dump(bb::preempt_options("full")) == "CONFIG_PREEMPT=y\n"
                                               "CONFIG_PREEMPT_NONE=n\n"
                                               "CONFIG_PREEMPT_VOLUNTARY=n\n");
}

TEST_CASE("preempt_options rejects an unknown model", "[kconfig]") {
    const std::string message = thrown_message<bb::Error>([] { bb::preempt_options("rt"); });
    CHECK_THAT(message, Catch::Contains("'rt'"));
    CHECK_THAT(message, Catch::Contains("none, voluntary, full"));
    CHECK_THROWS_AS(bb::preempt_options(""), bb::Error);
    CHECK_THROWS_AS(bb::preempt_options("Full"), bb::Error);
}

// ---------------------------------------------------------------------------------------------
// requested_options

TEST_CASE("requested_options: fragments in order, then hz, then preempt, then --set", "[kconfig]") {
    TempDir dir;
    bb::test::write_bytes(dir / "first.config", "CONFIG_A=y\n"
                                                "CONFIG_B=y\n"
                                                "CONFIG_HZ_100=y\n"
                                                "CONFIG_PREEMPT_NONE=y\n");
    bb::test::write_bytes(dir / "second.config", "# CONFIG_B is not set\n"
                                                 "CONFIG_C=m\n");
    bb::ConfigRequest request;

    SECTION("fragments only: the later fragment overrides the earlier one") {
        request.fragments = {dir / "first.config", dir / "second.config"};
        CHECK(dump(bb::requested_options(request)) == "CONFIG_A=y\n"
                                                      "CONFIG_B=n\n"
                                                      "CONFIG_C=m\n"
                                                      "CONFIG_HZ_100=y\n"
                                                      "CONFIG_PREEMPT_NONE=y\n");
    }
    SECTION("fragment order matters") {
        request.fragments = {dir / "second.config", dir / "first.config"};
        CHECK(bb::requested_options(request).at("CONFIG_B") == "y");
    }
    SECTION("hz and preempt override fragments; --set overrides everything") {
        request.fragments = {dir / "first.config", dir / "second.config"};
        request.hz = 250;
        request.preempt = "full";
        request.overrides = {"CONFIG_C=y", "CONFIG_HZ=1000", "# CONFIG_A is not set"};
        CHECK(dump(bb::requested_options(request)) == "CONFIG_A=n\n"
                                                      "CONFIG_B=n\n"
                                                      "CONFIG_C=y\n"
                                                      "CONFIG_HZ=1000\n"
                                                      "CONFIG_HZ_100=n\n"
                                                      "CONFIG_HZ_1000=n\n"
                                                      "CONFIG_HZ_250=y\n"
                                                      "CONFIG_HZ_300=n\n"
                                                      "CONFIG_PREEMPT=y\n"
                                                      "CONFIG_PREEMPT_NONE=n\n"
                                                      "CONFIG_PREEMPT_VOLUNTARY=n\n");
    }
    SECTION("--set overrides hz") {
        request.hz = 250;
        request.overrides = {"CONFIG_HZ_250=n", "CONFIG_HZ_300=y"};
        const KconfigValues wanted = bb::requested_options(request);
        CHECK(wanted.at("CONFIG_HZ_250") == "n");
        CHECK(wanted.at("CONFIG_HZ_300") == "y");
        CHECK(wanted.at("CONFIG_HZ") == "250");
    }
    SECTION("an empty request asks for nothing") {
        CHECK(bb::requested_options(request).empty());
    }
}

TEST_CASE("requested_options reports bad input with its source", "[kconfig]") {
    TempDir dir;
    bb::ConfigRequest request;
    SECTION("a bad fragment line names the fragment and the line") {
        bb::test::write_bytes(dir / "bad.config", "CONFIG_A=y\nnot an option\n");
        request.fragments = {dir / "bad.config"};
        const std::string message =
            thrown_message<bb::Error>([&] { bb::requested_options(request); });
        CHECK_THAT(message, Catch::Contains((dir / "bad.config").string() + ":2"));
    }
    SECTION("a missing fragment names the file") {
        request.fragments = {dir / "missing.config"};
        const std::string message =
            thrown_message<bb::Error>([&] { bb::requested_options(request); });
        CHECK_THAT(message, Catch::Contains("missing.config"));
    }
    SECTION("a bad --set names --set") {
        request.overrides = {"CONFIG_A=y", "A=y"};
        const std::string message =
            thrown_message<bb::Error>([&] { bb::requested_options(request); });
        CHECK_THAT(message, Catch::Contains("--set:2"));
    }
    SECTION("a bad hz or preemption model") {
        request.hz = 200;
        CHECK_THROWS_AS(bb::requested_options(request), bb::Error);
        request.hz.reset();
        request.preempt = "lazy";
        CHECK_THROWS_AS(bb::requested_options(request), bb::Error);
    }
}

// ---------------------------------------------------------------------------------------------
// merge_into_config

TEST_CASE("merge_into_config replaces in place and appends new options", "[kconfig]") {
    const std::string config = "#\n"
                               "# Linux/x86 6.6.0 Kernel Configuration\n"
                               "#\n"
                               "CONFIG_A=y\n"
                               "# CONFIG_B is not set\n"
                               "CONFIG_C=m\n"
                               "CONFIG_D=\"old\"\n"
                               "\n"
                               "CONFIG_HZ=100\n";
    const KconfigValues wanted{
        {"CONFIG_A", "n"},    {"CONFIG_B", "y"},   {"CONFIG_D", "\"new text\""},
        {"CONFIG_HZ", "250"}, {"CONFIG_E", "100"}, {"CONFIG_F", "n"}};
    CHECK(bb::merge_into_config(config, wanted) == "#\n"
                                                   "# Linux/x86 6.6.0 Kernel Configuration\n"
                                                   "#\n"
                                                   "# CONFIG_A is not set\n"
                                                   "CONFIG_B=y\n"
                                                   "CONFIG_C=m\n"
                                                   "CONFIG_D=\"new text\"\n"
                                                   "\n"
                                                   "CONFIG_HZ=250\n"
                                                   "CONFIG_E=100\n"
                                                   "# CONFIG_F is not set\n");
}

TEST_CASE("merge_into_config writes each option once", "[kconfig]") {
    // A .config naming the same option twice ends up with one line for it, at the first place.
    const std::string config = "CONFIG_A=y\nCONFIG_X=y\n# CONFIG_A is not set\nCONFIG_A=m\n";
    const std::string merged = bb::merge_into_config(config, {{"CONFIG_A", "m"}});
    CHECK(merged == "CONFIG_A=m\nCONFIG_X=y\n");

    // Merging twice changes nothing more.
    const KconfigValues wanted{{"CONFIG_A", "n"}, {"CONFIG_NEW", "y"}};
    const std::string once = bb::merge_into_config(config, wanted);
    CHECK(bb::merge_into_config(once, wanted) == once);
    CHECK(count_of(once, "CONFIG_A ") + count_of(once, "CONFIG_A=") == 1);
    CHECK(count_of(once, "CONFIG_NEW=y") == 1);
}

TEST_CASE("merge_into_config does not confuse options sharing a prefix", "[kconfig]") {
    const std::string config = "CONFIG_AB=y\n# CONFIG_ABC is not set\n";
    CHECK(bb::merge_into_config(config, {{"CONFIG_A", "n"}}) ==
          "CONFIG_AB=y\n# CONFIG_ABC is not set\n# CONFIG_A is not set\n");
}

TEST_CASE("merge_into_config on empty text lists every wanted option", "[kconfig]") {
    CHECK(bb::merge_into_config("", {}) == "");
    const KconfigValues wanted = bb::hz_options(300);
    const std::string merged = bb::merge_into_config("", wanted);
    CHECK(merged == "CONFIG_HZ=300\n"
                    "# CONFIG_HZ_100 is not set\n"
                    "# CONFIG_HZ_1000 is not set\n"
                    "# CONFIG_HZ_250 is not set\n"
                    "CONFIG_HZ_300=y\n");
    // What is written parses back to what was wanted.
    CHECK(bb::parse_kconfig(merged) == wanted);
}

// ---------------------------------------------------------------------------------------------
// verify_config

TEST_CASE("verify_config treats a requested n and an absent option as equal", "[kconfig]") {
    const KconfigValues wanted{{"CONFIG_A", "n"}, {"CONFIG_B", "y"}, {"CONFIG_HZ", "250"}};
    const KconfigValues got{{"CONFIG_B", "y"}, {"CONFIG_HZ", "250"}, {"CONFIG_OTHER", "y"}};
    CHECK(bb::verify_config(wanted, got).empty());
    CHECK(bb::verify_config({}, got).empty());
}

TEST_CASE("verify_config reports absent and changed options", "[kconfig]") {
    const KconfigValues wanted{{"CONFIG_A", "n"},        // absent: fine
                               {"CONFIG_B", "y"},        // absent: reported
                               {"CONFIG_C", "m"},        // became y
                               {"CONFIG_D", "n"},        // became y
                               {"CONFIG_E", "\"text\""}, // unchanged
                               {"CONFIG_HZ", "250"}};    // became 100
    const KconfigValues got{
        {"CONFIG_C", "y"}, {"CONFIG_D", "y"}, {"CONFIG_E", "\"text\""}, {"CONFIG_HZ", "100"}};
    const auto mismatches = bb::verify_config(wanted, got);
    REQUIRE(mismatches.size() == 4);
    CHECK(mismatches[0].option == "CONFIG_B");
    CHECK(mismatches[0].wanted == "y");
    CHECK(mismatches[0].got == "(absent)");
    CHECK(mismatches[1].option == "CONFIG_C");
    CHECK(mismatches[1].wanted == "m");
    CHECK(mismatches[1].got == "y");
    CHECK(mismatches[2].option == "CONFIG_D");
    CHECK(mismatches[2].wanted == "n");
    CHECK(mismatches[2].got == "y");
    CHECK(mismatches[3].option == "CONFIG_HZ");
    CHECK(mismatches[3].wanted == "250");
    CHECK(mismatches[3].got == "100");
}

TEST_CASE("verify_config against a parsed .config with not-set lines", "[kconfig]") {
    const KconfigValues got = bb::parse_kconfig("CONFIG_A=y\n# CONFIG_B is not set\n");
    CHECK(bb::verify_config({{"CONFIG_B", "n"}, {"CONFIG_A", "y"}}, got).empty());
    const auto mismatches = bb::verify_config({{"CONFIG_B", "y"}}, got);
    REQUIRE(mismatches.size() == 1);
    CHECK(mismatches[0].got == "n");
}
