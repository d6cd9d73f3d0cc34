// build.json, the row each cached kernel carries so any database can import it.
#include "artifacts/build_manifest.h"
#include "test_support.h"
#include "util/error.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using bb::test::TempDir;
using bb::test::thrown_message;
using bb::test::write_bytes;

namespace {
const std::string k_key(64, 'a');

bb::BuildRow sample_row(const fs::path& dir) {
    bb::BuildRow row;
    row.key = k_key;
    row.arch = "arm64";
    row.source_identity = "debian-package:linux-source-6.12=6.12.117-1~deb12u1";
    row.patches_json = R"(["0001-a.patch","0002-b.patch"])";
    row.base_config = "tinyconfig";
    row.fragments_json = R"(["arm64-virt-minimal.config"])";
    row.hz = 250;
    row.config_sha256 = std::string(64, 'c');
    row.toolchain = "gcc 12";
    row.target = "Image";
    row.artifact_dir = dir.string();
    row.image_sha256 = std::string(64, 'd');
    row.image_bytes = 7139840;
    row.build_seconds = 1025.5;
    row.explain = "config key inputs:\n  hz 250\n";
    return row;
}
} // namespace

TEST_CASE("a build manifest reads back the row it was written from") {
    TempDir temp;
    const fs::path dir = temp.path() / k_key;
    fs::create_directories(dir);
    const auto written = sample_row(dir);
    bb::write_build_manifest(written);
    const auto read = bb::read_build_manifest(dir);
    REQUIRE(read);
    CHECK(read->key == written.key);
    CHECK(read->patches_json == written.patches_json);
    CHECK(read->fragments_json == written.fragments_json);
    CHECK(read->hz == 250);
    CHECK_FALSE(read->preempt);
    CHECK(read->image_bytes == written.image_bytes);
    CHECK(read->build_seconds == Approx(1025.5));
    CHECK(read->explain == written.explain);
    CHECK(read->artifact_dir == dir.string());
}

TEST_CASE("a directory without build.json has no manifest") {
    TempDir temp;
    CHECK_FALSE(bb::read_build_manifest(temp.path()));
}

TEST_CASE("a manifest naming another build's key is refused") {
    TempDir temp;
    const fs::path real = temp.path() / k_key;
    fs::create_directories(real);
    bb::write_build_manifest(sample_row(real));
    const fs::path other = temp.path() / std::string(64, 'b');
    fs::create_directories(other);
    fs::copy_file(real / bb::k_build_manifest, other / bb::k_build_manifest);
    CHECK(thrown_message<bb::Error>([&] {
              bb::read_build_manifest(other);
          }).find("describes build aaaaaaaaaaaa, not the directory's bbbbbbbbbbbb") !=
          std::string::npos);
}

TEST_CASE("a garbled manifest is an error naming the file") {
    TempDir temp;
    write_bytes(temp.path() / bb::k_build_manifest, "{\"key\": ");
    CHECK(thrown_message<bb::Error>([&] {
              bb::read_build_manifest(temp.path());
          }).find("build.json: not a bootbench build manifest") != std::string::npos);
}
