// satdof/registry.h — what every registry in the project shares: an explicit list of
// entries, each with a stable `name`, looked up by that name. (Explicit lists, not
// self-registering statics in the libraries: the static libraries would drop unreferenced
// objects. An optional part of the build fills in its entries by an explicit call instead:
// engine/parts/optional_parts.h. An executable's own objects are never dropped: a file
// linked into one, as tests/add_one_more's are, may add an entry from a static
// initialiser through the registry's register function, which appends with appendEntry.)
#pragma once

#include <span>
#include <stdexcept>
#include <string>
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

// An entry added from outside the list (before the registry is first used: the spans it
// gave out would not see it, and may dangle): appended; a name already listed is refused.
template <class Entry>
void appendEntry(std::vector<Entry>& entries, Entry added) {
  if (findByName<Entry>(entries, added.name))
    throw std::invalid_argument("'" + std::string(added.name) + "' is already registered");
  entries.push_back(std::move(added));
}

}  // namespace satdof
