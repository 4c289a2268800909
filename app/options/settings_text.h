// app/options/settings_text.h — the settings file's text (settings_store.h): key=value
// lines, parsed and written. Pure (no registries, no files), so that the tests and the
// fuzzers take it alone; what the values mean is settings_store.cpp's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace satdof {

using SettingsEntries = std::vector<std::pair<std::string, std::string>>;

// key=value lines, key and value trimmed of blanks; blank lines and '#' comments ignored.
// Error: "line N: ..." (a line without '=', an empty key, a key given twice, a control
// character).
std::optional<SettingsEntries> parseSettings(std::string_view text, std::string& error);
// The file's text: a comment line, then a key=value line per entry.
std::string formatSettings(const SettingsEntries& entries);

}  // namespace satdof
