// app/options/settings_text.cpp — see settings_text.h.
#include "options/settings_text.h"

#include <algorithm>

#include "parse.h"

namespace satdof {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<SettingsEntries> parseSettings(std::string_view text, std::string& error) {
  SettingsEntries entries;
  int number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    const std::string_view raw = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    const std::string where = "line " + std::to_string(number) + ": ";
    for (char c : raw)
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') || c == 0x7f) {
        error = where + "a control character in " + quoteForMessage(raw);
        return std::nullopt;
      }
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      error = where + "expected key=value, got " + quoteForMessage(line);
      return std::nullopt;
    }
    const std::string key(trim(line.substr(0, eq)));
    if (key.empty()) {
      error = where + "a value without a key: " + quoteForMessage(line);
      return std::nullopt;
    }
    for (const auto& [k, v] : entries)
      if (k == key) {
        error = where + "'" + key + "' is given twice";
        return std::nullopt;
      }
    entries.emplace_back(key, std::string(trim(line.substr(eq + 1))));
  }
  return entries;
}

std::string formatSettings(const SettingsEntries& entries) {
  std::string text = "# satdof settings (key=value; see README: Settings)\n";
  for (const auto& [k, v] : entries) text += k + "=" + v + "\n";
  return text;
}

}  // namespace satdof
