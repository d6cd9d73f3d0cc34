#pragma once
// Two group lists sorted by key (store/axis_value.h's order), walked together: the pairs a
// comparison of A and B is made of, with a null for the side that lacks a key.
#include "store/axis_value.h"

#include <vector>

namespace bb {

// Calls visit(a, b) once per key of either list, in key order; a or b is null when that list
// lacks the key. Group needs a `key` member.
template <typename Group, typename Visit>
void merge_by_key(const std::vector<Group>& a, const std::vector<Group>& b, Visit&& visit) {
    size_t i = 0;
    size_t j = 0;
    while (i < a.size() || j < b.size()) {
        if (j == b.size() || (i < a.size() && group_key_less(a[i].key, b[j].key))) {
            visit(&a[i++], static_cast<const Group*>(nullptr));
        } else if (i == a.size() || group_key_less(b[j].key, a[i].key)) {
            visit(static_cast<const Group*>(nullptr), &b[j++]);
        } else {
            visit(&a[i++], &b[j++]);
        }
    }
}

} // namespace bb
