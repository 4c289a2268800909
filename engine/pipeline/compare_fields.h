// engine/pipeline/compare_fields.h — configuration B's fields as text: `--compare-b
// dof=layered,sat-format=float32`, `set compare-b ...`, the settings file's compare-b.
// Pure (no registries): the key=name list split and written back; which keys and names
// are valid is live_options.cpp's (readCompareField), against the registries.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace satdof {

// The fields set for B: key (backend, sat-format, conv, dof, or a backend option's key)
// -> name.
using CompareFields = std::map<std::string, std::string>;

// "key=name,key=name" as its items, in order (an empty name gives the field back to A;
// a name may hold '='). Error, one line: an item that is not key=name (the message ends
// with "; keys: " and `keys`), or a key given twice.
std::optional<std::vector<std::pair<std::string, std::string>>> splitCompareFields(std::string_view text,
                                                                                   std::string_view keys,
                                                                                   std::string& error);
// "key=name,key=name", sorted by key (splitCompareFields reads it back).
std::string formatCompareFields(const CompareFields& fields);

}  // namespace satdof
