// settings/settings_text.h — the settings file's text (settings_store.h): key=value
// lines, parsed and written. Pure (no registries, no files), so that the tests and the
// fuzzers take it alone; what the values mean is settings_store.cpp's.
//
// A line that cannot be read costs that line alone: it is reported by its number and the
// others are kept. A save changes the file's text line by line (updateSettings): the
// lines it has no new value for (comments, keys this version does not know, lines it
// could not read) are written back byte for byte.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace satdof {

using SettingsEntries = std::vector<std::pair<std::string, std::string>>;

struct ParsedSettings {
  struct Entry {
    int line = 0;  // 1-based
    std::string key, value;
  };
  struct Problem {
    int line = 0;
    std::string what;  // "expected key=value, got 'nonsense'; ignored"
  };
  // The key=value lines, key and value trimmed of blanks, in the file's order; a key given
  // more than once only at its last line (the last value wins).
  std::vector<Entry> entries;
  // Each line that is not read (a line without '=', an empty key, a control character),
  // and once for each key given more than once (at its last line), in line order.
  std::vector<Problem> problems;
};

// Blank lines and '#' comments are no entries. A UTF-8 byte-order mark at the start is
// skipped; '\r' before a line's end (CRLF) is a blank. Linear in the text's size.
ParsedSettings parseSettings(std::string_view text);

// `text` with each entry of `changes` written in: a key the text gives a value already
// gets the new value in that line (its last, the one read), the key and the blanks around
// '=' as they were; a key it does not give is added at the end. Every other line, the
// byte-order mark and the line ends stay as they were (added lines end as the first one).
// A key given twice in `changes` gets its last value. An empty text starts with a comment
// line, as formatSettings.
std::string updateSettings(std::string_view text, const SettingsEntries& changes);

// A new file's text: a comment line, then a key=value line per entry.
std::string formatSettings(const SettingsEntries& entries);

}  // namespace satdof
