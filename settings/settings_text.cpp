// settings/settings_text.cpp — see settings_text.h. One pass over the lines; a key given
// again is found through a hash map (its first line and how often), so that the time stays
// linear however many keys the file has.
#include "settings/settings_text.h"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "engine/text/parse.h"

namespace satdof {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
constexpr std::string_view kHeader = "# satdof settings (key=value; see docs/USING.md: Settings)";

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// A line of the text: where it starts and ends (its '\n' not included).
struct LineSpan {
  std::size_t begin = 0, end = 0;
};

// The text after a byte-order mark, cut into lines; a text that ends in '\n' has no empty
// line after it.
std::vector<LineSpan> linesOf(std::string_view body) {
  std::vector<LineSpan> lines;
  for (std::size_t begin = 0; begin < body.size();) {
    const std::size_t end = std::min(body.find('\n', begin), body.size());
    lines.push_back({begin, end});
    begin = end + 1;
  }
  return lines;
}

// A control character (not a tab; a '\r' only among the blanks that end the line).
bool hasControlCharacter(std::string_view raw) {
  std::size_t end = raw.size();
  while (end > 0 && blank(raw[end - 1])) --end;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if ((c < 0x20 && c != '\t' && !(c == '\r' && i >= end)) || c == 0x7f) return true;
  }
  return false;
}

// A line read: its key and value, or why it is not an entry (empty `why` and key: a blank
// line or a comment).
struct LineRead {
  std::string_view key, value;
  std::string why;
};

LineRead readLine(std::string_view raw) {
  LineRead r;
  if (hasControlCharacter(raw)) {
    r.why = "a control character in " + quoteForMessage(raw);
    return r;
  }
  const std::string_view line = trim(raw);
  if (line.empty() || line.front() == '#') return r;
  const std::size_t eq = line.find('=');
  if (eq == std::string_view::npos) {
    r.why = "expected key=value, got " + quoteForMessage(line);
    return r;
  }
  r.key = trim(line.substr(0, eq));
  if (r.key.empty()) {
    r.why = "a value without a key: " + quoteForMessage(line);
    return r;
  }
  r.value = trim(line.substr(eq + 1));
  return r;
}

std::string_view withoutMark(std::string_view text) {
  if (text.starts_with(kByteOrderMark)) text.remove_prefix(kByteOrderMark.size());
  return text;
}

}  // namespace

ParsedSettings parseSettings(std::string_view text) {
  const std::string_view body = withoutMark(text);
  struct Seen {
    int first = 0, last = 0, times = 0;
  };
  std::unordered_map<std::string_view, Seen> seen;  // keys point into `text`
  std::vector<ParsedSettings::Entry> all;
  ParsedSettings parsed;
  int number = 0;
  for (const LineSpan& span : linesOf(body)) {
    ++number;
    const LineRead r = readLine(body.substr(span.begin, span.end - span.begin));
    if (!r.why.empty()) {
      parsed.problems.push_back({number, r.why + "; ignored"});
      continue;
    }
    if (r.key.empty()) continue;
    Seen& s = seen[r.key];
    if (s.times++ == 0) s.first = number;
    s.last = number;
    all.push_back({number, std::string(r.key), std::string(r.value)});
  }
  // Each key at its last line; a key given more than once said there, once.
  for (ParsedSettings::Entry& e : all) {
    const Seen& s = seen.at(e.key);
    if (s.last != e.line) continue;
    if (s.times > 1)
      parsed.problems.push_back({e.line, quoteForMessage(e.key) + " is given " +
                                             (s.times == 2 ? std::string("twice") : std::to_string(s.times) + " times") +
                                             " (first on line " + std::to_string(s.first) + "); the last one is used"});
    parsed.entries.push_back(std::move(e));
  }
  std::stable_sort(parsed.problems.begin(), parsed.problems.end(),
                   [](const auto& a, const auto& b) { return a.line < b.line; });
  return parsed;
}

std::string updateSettings(std::string_view text, const SettingsEntries& given) {
  // A key changed twice: its last value, at its first place.
  SettingsEntries changes;
  std::unordered_map<std::string_view, std::size_t> at;
  for (const auto& [key, value] : given)
    if (const auto [it, added] = at.emplace(key, changes.size()); added)
      changes.emplace_back(key, value);
    else
      changes[it->second].second = value;
  if (text.empty()) return formatSettings(changes);
  const std::string_view mark = text.starts_with(kByteOrderMark) ? kByteOrderMark : std::string_view();
  const std::string_view body = text.substr(mark.size());
  const std::vector<LineSpan> lines = linesOf(body);
  auto lineText = [&](std::size_t i) { return body.substr(lines[i].begin, lines[i].end - lines[i].begin); };
  // Where each key's value is read from: its last line, the value's place in it.
  struct Place {
    std::size_t line = 0, valueBegin = 0, valueEnd = 0;
  };
  std::unordered_map<std::string_view, Place> places;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view raw = lineText(i);
    const LineRead r = readLine(raw);
    if (!r.why.empty() || r.key.empty()) continue;
    // The value's place: an empty value's after '=' and its spaces (before a line end's '\r').
    const std::size_t eq = raw.find('=');
    std::size_t begin = eq + 1;
    while (begin < raw.size() && (raw[begin] == ' ' || raw[begin] == '\t')) ++begin;
    const std::size_t valueBegin = r.value.empty() ? begin : std::size_t(r.value.data() - raw.data());
    places[r.key] = {i, valueBegin, valueBegin + r.value.size()};
  }
  const bool crlf = !lines.empty() && lines.front().end > lines.front().begin && body[lines.front().end - 1] == '\r';
  const char* eol = crlf ? "\r\n" : "\n";
  std::unordered_map<std::size_t, std::string> replaced;  // by line
  std::string added;
  for (const auto& [key, value] : changes) {
    const auto it = places.find(key);
    if (it == places.end()) {
      added += key + "=" + value + eol;
      continue;
    }
    const Place& p = it->second;
    const std::string_view raw = lineText(p.line);
    if (raw.substr(p.valueBegin, p.valueEnd - p.valueBegin) != value)
      replaced[p.line] = std::string(raw.substr(0, p.valueBegin)) + value + std::string(raw.substr(p.valueEnd));
  }
  std::string out(mark);
  out.reserve(text.size() + added.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto r = replaced.find(i);
    out += r != replaced.end() ? std::string_view(r->second) : lineText(i);
    if (lines[i].end < body.size()) out += '\n';  // a last line without one stays so
  }
  if (!added.empty()) {
    if (!body.empty() && body.back() != '\n') out += eol;
    out += added;
  }
  return out;
}

std::string formatSettings(const SettingsEntries& entries) {
  std::string text = std::string(kHeader) + "\n";
  for (const auto& [k, v] : entries) text += k + "=" + v + "\n";
  return text;
}

}  // namespace satdof
