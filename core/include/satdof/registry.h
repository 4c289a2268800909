// satdof/registry.h — what every registry in the project shares: an explicit array of
// entries, each with a stable `name`, looked up by that name. (Explicit arrays, not
// self-registering statics: the static libraries would drop unreferenced objects.)
#pragma once

#include <span>
#include <string_view>

namespace satdof {

// The entry called `name`, or nullptr.
template <class Entry>
const Entry* findByName(std::span<const Entry> entries, std::string_view name) {
  for (const Entry& e : entries)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace satdof
