#include "kcidb/kcidb_document.h"

#include "kcidb/json_finite.h"
#include "kcidb/kcidb_ids.h"
#include "kcidb/kcidb_objects.h"
#include "kcidb/kcidb_schema.h"
#include "util/error.h"
#include "util/interrupt.h"

#include <map>

namespace bb {

namespace {
using nlohmann::json;

// By id: a map keeps one object per id (two builds of one source share their checkout) and
// orders them.
using ById = std::map<std::string, json>;

json values(const ById& objects) {
    json list = json::array();
    for (const auto& [id, object] : objects) {
        list.push_back(object);
    }
    return list;
}

bool has_build_row(const KcidbRows& rows, const KcidbBootRow& boot) {
    for (const auto& build : rows.builds) {
        if (boot.build_key && build.key == *boot.build_key) {
            return true;
        }
    }
    return false;
}
} // namespace

json kcidb_document(const KcidbRows& rows) {
    ById checkouts;
    ById builds;
    for (const auto& build : rows.builds) {
        checkouts.emplace(kcidb_checkout_id(build), kcidb_checkout(build));
        builds.emplace(kcidb_build_id(build), kcidb_build(build));
    }
    json tests = json::array();
    for (const auto& boot : rows.boots) {
        if (interrupted()) { // a 200k-boot export stops at Ctrl-C (exit 130), writing nothing
            throw Interrupted("the KCIDB export was not written");
        }
        if (!has_build_row(rows, boot)) {
            checkouts.emplace(kcidb_unknown_checkout_id(), kcidb_unknown_checkout());
            builds.emplace(kcidb_build_id(boot), kcidb_unbuilt_build(boot));
        }
        tests.push_back(kcidb_test(boot));
    }
    json document = {{"version", {{"major", k_kcidb_major}, {"minor", k_kcidb_minor}}},
                     {"checkouts", values(checkouts)},
                     {"builds", values(builds)},
                     {"tests", tests}};
    require_finite_numbers(document);
    require_kcidb_schema(document);
    return document;
}

} // namespace bb
