#pragma once
// The ids of the KCIDB objects bootbench writes (docs/kcidb.md). KCIDB ids are
// "<origin>:<anything unique among that origin's objects of the kind>"; these are made from what
// the database holds about each object, never from its row ids, so exporting the same data again
// — from the database or from an `export --format sqlite` copy of it — gives the same ids.
#include "store/build_store.h"
#include "store/kcidb_rows.h"

#include <string>
#include <string_view>
#include <vector>

namespace bb {

// The fixed `origin` of every object (the schema's pattern: [a-z0-9_]+).
inline constexpr std::string_view k_kcidb_origin = "bootbench";

// A stored build's patches, in order of application: the names its patches_json lists, each
// with the 16-hex sha256 prefix its explanation recorded ("" when it recorded none). Error when
// patches_json is not a list of names.
struct KcidbPatch {
    std::string name;
    std::string sha256_prefix;
};
std::vector<KcidbPatch> kcidb_patches(const BuildRow& build);

// "bootbench:<source identity>", and "+patches-<32 hex>" when patched: a hash of the patches'
// names and sha256 prefixes. The schema's patchset_hash needs every patch's whole sha256,
// which a database does not keep, so the id carries what it does keep.
// A source identity as a KCIDB document may carry it: a local tree's "local:/home/u/linux@…" has
// a host path and becomes "local-<sha256 prefix>"; anything else outside printable ASCII
// without spaces (a newline would break the ids' pattern) becomes "source-<sha256 prefix>".
std::string kcidb_source_identity(const std::string& identity);
// Whether a stored time is the RFC 3339 date-time the schema asks for (2026-12-02T00:26:09.768Z).
bool kcidb_date_time(std::string_view text);
std::string kcidb_checkout_id(const BuildRow& build);
// The checkout of a kernel bootbench did not build (`boot --kernel`): its source is unknown.
std::string kcidb_unknown_checkout_id();

// "bootbench:<build key>", or "bootbench:kernel-<image sha256>" for a boot without a build key.
std::string kcidb_build_id(const KcidbBootRow& boot);
std::string kcidb_build_id(const BuildRow& build);

// "bootbench:boot-<32 hex>": a hash of the host, the run's and the boot's start times, the cell,
// the repeat and the kernel image — what tells one stored boot from every other.
std::string kcidb_test_id(const KcidbBootRow& boot);

// "boot.<experiment>" ("boot" for ad-hoc boots), each character the schema's path pattern does
// not allow written as "_": every boot of one experiment is the same test, on its build.
std::string kcidb_test_path(std::string_view experiment);

} // namespace bb
