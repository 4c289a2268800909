// fuzz/fuzz_settings.cpp — parseSettings and updateSettings (settings/settings_text.h: the
// settings file's key=value lines) on arbitrary bytes. The entries have non-empty keys, each
// once, trimmed, none a comment, in line order; each problem names a line of the text in
// one line; what formatSettings writes reads back as the same entries. A save of new values
// (updateSettings) reads back with exactly those values, every other entry and every
// problem as before, and the text unchanged up to where it added lines when no value
// changed.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "settings/settings_text.h"

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool trimmed(const std::string& s) { return s.empty() || (!blank(s.front()) && !blank(s.back())); }

std::map<std::string, std::string> valuesOf(const satdof::ParsedSettings& p) {
  std::map<std::string, std::string> values;
  for (const auto& e : p.entries) values[e.key] = e.value;
  return values;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const satdof::ParsedSettings parsed = satdof::parseSettings(text);
  const long lines = long(std::count(text.begin(), text.end(), '\n')) + 1;
  int previous = 0;
  for (const auto& e : parsed.entries) {
    FUZZ_CHECK(!e.key.empty() && e.key.front() != '#' && e.key.find('=') == std::string::npos);
    FUZZ_CHECK(trimmed(e.key) && trimmed(e.value));
    FUZZ_CHECK(e.key.find('\n') == std::string::npos && e.value.find('\n') == std::string::npos);
    FUZZ_CHECK(e.line > previous && e.line <= lines);
    previous = e.line;
  }
  FUZZ_CHECK(valuesOf(parsed).size() == parsed.entries.size());  // each key once
  for (const auto& p : parsed.problems) {
    FUZZ_CHECK(p.line >= 1 && p.line <= lines);
    FUZZ_CHECK(!p.what.empty() && p.what.find('\n') == std::string::npos);
  }

  // What the app writes reads back as what it wrote.
  satdof::SettingsEntries entries;
  for (const auto& e : parsed.entries) entries.emplace_back(e.key, e.value);
  const satdof::ParsedSettings again = satdof::parseSettings(satdof::formatSettings(entries));
  FUZZ_CHECK(again.problems.empty() && valuesOf(again) == valuesOf(parsed));

  // The same values written in: the text as it was.
  FUZZ_CHECK(parsed.entries.empty() || satdof::updateSettings(text, entries) == text);

  // New values for every other entry, and a new key: read back with those, the rest as it was.
  satdof::SettingsEntries changes;
  std::map<std::string, std::string> expected = valuesOf(parsed);
  for (std::size_t i = 0; i < parsed.entries.size(); i += 2) {
    const std::string value = "v" + std::to_string(i);
    changes.emplace_back(parsed.entries[i].key, value);
    expected[parsed.entries[i].key] = value;
  }
  changes.emplace_back("fuzz.added", "1");
  expected["fuzz.added"] = "1";
  const std::string updated = satdof::updateSettings(text, changes);
  const satdof::ParsedSettings after = satdof::parseSettings(updated);
  FUZZ_CHECK(valuesOf(after) == expected);
  if (!text.empty()) FUZZ_CHECK(after.problems.size() == parsed.problems.size());
  return 0;
}
