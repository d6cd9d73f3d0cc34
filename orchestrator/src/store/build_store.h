#pragma once
#include "store/database.h"

#include <optional>
#include <string>
#include <vector>

namespace bb {

struct BuildRow {
    std::string key;
    std::string arch;
    std::string source_identity;
    std::string patches_json = "[]";
    std::string base_config;
    std::string fragments_json = "[]";
    std::optional<int> hz;
    std::optional<std::string> preempt;
    std::string config_sha256;
    std::string toolchain;
    std::string target;
    std::string artifact_dir;
    std::string image_sha256;
    long long image_bytes = 0;
    double build_seconds = 0;
    std::string explain;
    std::string created_at;
    std::string last_used_at;
};

// The `builds` table: what each cached kernel was built from and when it was last used.
class BuildStore {
  public:
    explicit BuildStore(Database& db) : m_db(db) {}
    void record(const BuildRow& row); // insert or replace
    void touch(const std::string& key);
    std::vector<BuildRow> list();
    // A unique key prefix (at least 6 characters), as with git commits.
    std::optional<BuildRow> find(const std::string& key_or_prefix);
    void remove(const std::string& key);

  private:
    Database& m_db;
};

} // namespace bb
