// settings/script.cpp — see script.h. A hand-written line splitter: linear, nothing throws.
#include "settings/script.h"

#include "engine/text/parse.h"

namespace satdof {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !isSpace(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// The words after the first `skip`, joined by single spaces (set's value, a path).
std::string rest(const std::vector<std::string_view>& w, std::size_t skip) {
  std::string s;
  for (std::size_t i = skip; i < w.size(); ++i) s += (s.empty() ? "" : " ") + std::string(w[i]);
  return s;
}

struct Shape {
  std::string_view name;
  ScriptCommand::Kind kind;
  std::size_t minWords, maxWords;  // including the command
  std::string_view usage;
};
constexpr Shape kShapes[] = {
    {"set", ScriptCommand::Kind::Set, 3, 1000, "set OPTION VALUE"},
    {"select", ScriptCommand::Kind::Select, 3, 3, "select KEY NAME"},
    {"focus", ScriptCommand::Kind::Focus, 3, 3, "focus X Y"},
    {"view", ScriptCommand::Kind::View, 2, 2, "view NAME"},
    {"preset", ScriptCommand::Kind::Preset, 2, 2, "preset NAME"},
    {"key", ScriptCommand::Kind::Key, 2, 2, "key NAME"},
    {"screenshot", ScriptCommand::Kind::Screenshot, 2, 1000, "screenshot PATH"},
    {"wait", ScriptCommand::Kind::Wait, 2, 2, "wait N"},
    {"resize", ScriptCommand::Kind::Resize, 3, 3, "resize W H"},
    {"race", ScriptCommand::Kind::Race, 1, 1, "race"},
    {"adopt", ScriptCommand::Kind::Adopt, 2, 2, "adopt N"},
    {"drop", ScriptCommand::Kind::Drop, 2, 1000, "drop PATH"},
    {"time-scans", ScriptCommand::Kind::TimeScans, 1, 1, "time-scans"},
    {"sections", ScriptCommand::Kind::Sections, 2, 2, "sections open|fold"},
    {"quit", ScriptCommand::Kind::Quit, 1, 1, "quit"},
};

std::optional<int> readCount(std::string_view text, int lo, int hi, std::string& error) {
  const auto v = parseInteger(text, error);
  if (!v) return std::nullopt;
  if (*v < lo || *v > hi) {
    error = quoteForMessage(text) + " is out of range: must be between " + std::to_string(lo) + " and " +
            std::to_string(hi);
    return std::nullopt;
  }
  return v;
}

}  // namespace

std::optional<std::vector<ScriptCommand>> parseScript(std::string_view text, std::string& error) {
  std::vector<ScriptCommand> commands;
  int number = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    const std::string where = "line " + std::to_string(number) + ": ";
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto w = words(line);
    if (w.empty()) continue;
    const Shape* shape = nullptr;
    for (const Shape& s : kShapes)
      if (w[0] == s.name) shape = &s;
    if (!shape) {
      error = where + "no command " + quoteForMessage(w[0]) +
              "; valid: set, select, focus, view, preset, key, screenshot, wait, resize, race, adopt, drop, quit";
      return std::nullopt;
    }
    if (w.size() < shape->minWords || w.size() > shape->maxWords) {
      error = where + "expected '" + std::string(shape->usage) + "', got " + quoteForMessage(rest(w, 0));
      return std::nullopt;
    }
    ScriptCommand c;
    c.kind = shape->kind;
    c.line = number;
    std::string why;
    switch (c.kind) {
      case ScriptCommand::Kind::Set:
      case ScriptCommand::Kind::Select:
        c.name = std::string(w[1]);
        c.value = rest(w, 2);
        break;
      case ScriptCommand::Kind::Focus:
      case ScriptCommand::Kind::Resize: {
        const bool resize = c.kind == ScriptCommand::Kind::Resize;
        const int lo = resize ? 1 : 0, hi = resize ? kMaxScriptWindowSide : 65535;
        const auto x = readCount(w[1], lo, hi, why), y = x ? readCount(w[2], lo, hi, why) : std::nullopt;
        if (!x || !y) {
          error = where + (resize ? "resize: " : "focus: ") + why;
          return std::nullopt;
        }
        c.x = *x;
        c.y = *y;
        break;
      }
      case ScriptCommand::Kind::Wait:
      case ScriptCommand::Kind::Adopt: {
        const bool wait = c.kind == ScriptCommand::Kind::Wait;
        const auto n = readCount(w[1], 1, wait ? kMaxScriptWait : kMaxScriptRaceRow, why);
        if (!n) {
          error = where + (wait ? "wait: " : "adopt: ") + why;
          return std::nullopt;
        }
        c.x = *n;
        break;
      }
      case ScriptCommand::Kind::View:
      case ScriptCommand::Kind::Preset:
      case ScriptCommand::Kind::Key:
      case ScriptCommand::Kind::Screenshot:
      case ScriptCommand::Kind::Drop:
        c.name = rest(w, 1);
        break;
      case ScriptCommand::Kind::Sections:
        if (w[1] != "open" && w[1] != "fold") {
          error = where + "sections: " + quoteForMessage(w[1]) + " is neither open nor fold";
          return std::nullopt;
        }
        c.name = std::string(w[1]);
        break;
      case ScriptCommand::Kind::TimeScans:
      case ScriptCommand::Kind::Race:
      case ScriptCommand::Kind::Quit: break;
    }
    commands.push_back(std::move(c));
  }
  return commands;
}

}  // namespace satdof
