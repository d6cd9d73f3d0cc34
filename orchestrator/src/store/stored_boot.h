#pragma once
#include "store/database.h"

#include <optional>
#include <string>
#include <vector>

namespace bb {

// One stored sample as a replay needs it: what was booted (each input with its hash), how
// (the recorded qemu argv), and what was measured.
struct StoredBoot {
    long long id = 0;
    long long run_id = 0;
    std::string experiment; // "" for `bootbench boot`
    std::string cell_key;
    int repeat_index = 0;
    std::string arch;
    std::string kernel_path;
    std::string kernel_sha256;
    std::optional<std::string> build_key;
    std::optional<std::string> initrd_path;
    std::optional<std::string> initrd_sha256;
    std::optional<std::string> firmware_name;
    std::optional<std::string> firmware_sha256;
    std::vector<std::string> argv;
    std::string launcher; // qemu | libvirt
    std::string outcome;
    std::optional<double> boot_seconds;
    std::optional<std::string> timing_marker; // unset: stored before schema 10
    std::optional<std::string> start_marker;  // "": timed from spawn; unset: before schema 10
    std::string console;                      // the whole filtered console
    std::optional<double> foreign_load;
    std::string started_at;
};

std::optional<StoredBoot> find_stored_boot(Database& db, long long boot_id);

} // namespace bb
