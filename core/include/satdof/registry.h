// satdof/registry.h — what every registry in the project shares: an explicit array of
// entries, each with a stable `name`, looked up by that name. (Explicit arrays, not
// self-registering statics: the static libraries would drop unreferenced objects. An
// optional part of the build fills in its entries by an explicit call instead:
// engine/parts/optional_parts.h.)
#pragma once

#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace satdof {

// The entry called `name`, or nullptr.
template <class Entry>
const Entry* findByName(std::span<const Entry> entries, std::string_view name) {
  for (const Entry& e : entries)
    if (e.name == name) return &e;
  return nullptr;
}

// An optional part's entry into a registry that lists it in every build: `part` replaces
// the listed entry of the same name, once `keep(listed, part)` has copied into it what the
// list holds for every build (its texts: --help reads the same with and without the part);
// a name the list lacks is appended.
template <class Entry, class Keep>
void fillIn(std::vector<Entry>& entries, Entry part, Keep keep) {
  for (Entry& listed : entries)
    if (listed.name == part.name) {
      keep(listed, part);
      listed = std::move(part);
      return;
    }
  entries.push_back(std::move(part));
}

}  // namespace satdof
