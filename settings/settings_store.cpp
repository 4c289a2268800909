// settings/settings_store.cpp — see settings_store.h. Index: reading the file (a regular
// file only, never waited on, capped), applying its entries line by line, the save (the
// file's own text with the changed values written in, atomically).
#include "settings/settings_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <system_error>
#include <unordered_map>

#include "engine/text/parse.h"  // quotedPath
#include "engine/files/safe_write.h"
#include "settings/cli_checks.h"
#include "settings/live_options.h"

namespace satdof {

std::filesystem::path settingsPath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "satdof" / "settings.ini";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".config" / "satdof" / "settings.ini";
  return {};
}

namespace {

constexpr std::size_t kMaxSettingsBytes = std::size_t(1) << 20;
constexpr std::size_t kMaxLinesSaid = 20;  // then one line says how many more

// =====================================================================================
// reading the file
// =====================================================================================

// The file's text; `why` when there is something at the path that is not read (then it is
// never written either); neither when there is no file.
struct FileText {
  bool exists = false;
  std::string text;
  std::string why;
};

const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a plain file";
}

// Opened without waiting (a FIFO's open would wait for a writer), then looked at: a
// regular file of at most kMaxSettingsBytes is read, anything else is not.
FileText readFileText(const std::filesystem::path& path) {
  FileText f;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) f.why = std::string("cannot be read: ") + std::strerror(errno);
    return f;
  }
  f.exists = true;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    f.why = std::string("cannot be read: ") + std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    f.why = std::string("is not a regular file (") + kindOf(st.st_mode) + ")";
  } else {
    char buffer[1 << 16];
    while (f.text.size() <= kMaxSettingsBytes) {
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        f.why = std::string("cannot be read: ") + std::strerror(errno);
        break;
      }
      if (n == 0) break;
      f.text.append(buffer, std::size_t(n));
    }
    if (f.why.empty() && f.text.size() > kMaxSettingsBytes) {
      char size[32];
      std::snprintf(size, sizeof size, "%.1f MiB", double(std::max(std::size_t(st.st_size), f.text.size())) / (1 << 20));
      f.why = std::string("is larger than the 1 MiB a settings file may be (") + size + ")";
    }
  }
  ::close(fd);
  if (!f.why.empty()) f.text.clear();
  return f;
}

// Where a save writes: through links to the file they name, so that a settings file kept
// elsewhere and linked here stays a link.
std::filesystem::path linkTarget(std::filesystem::path path) {
  std::error_code ec;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(path, ec); ++hops) {
    const std::filesystem::path to = std::filesystem::read_symlink(path, ec);
    if (ec) break;
    path = to.is_absolute() ? to : path.parent_path() / to;
  }
  return path;
}

// =====================================================================================
// the entries
// =====================================================================================

// "cpu.sat" -> {"cpu", "sat"} when the prefix names a backend.
std::optional<std::pair<std::string, std::string>> backendKey(const std::string& key) {
  const std::size_t dot = key.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string backend = key.substr(0, dot);
  if (!findComputeBackend(backend)) return std::nullopt;
  return std::pair{backend, key.substr(dot + 1)};
}

// "key=value" as the messages show it: as written when it is short and printable.
std::string shown(const std::string& key, const std::string& value) {
  const std::string entry = key + "=" + value;
  const bool plain = entry.size() <= 60 && std::all_of(entry.begin(), entry.end(), [](char c) {
                       return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
                     });
  return plain ? entry : quoteForMessage(entry);
}

using Refusal = std::function<void(const ParsedSettings::Entry&, const std::string& why)>;

struct Applied {
  std::map<std::string, std::string> ui;
  std::set<std::string> refused;  // the keys whose value the options did not take
};

// Whether the command line gave option `key` under its name or an older one of the same option.
bool givenUnderAnyName(const Options& o, const std::string& key) {
  if (o.given.count(key)) return true;
  const LiveOption* option = findLiveOption(key);
  for (const LiveOption* other : liveOptions())
    if (o.given.count(std::string(other->name)) &&
        ((option && other->name == option->sameAs) || other->sameAs == key))
      return true;
  return false;
}

// The entries applied to `o` one by one: one that is refused, or that makes the settings so
// far no camera (a thin lens focused closer than its focal length) or a blur the format
// cannot sum, goes to `refused`; the others stay. The command line's options are left.
Applied apply(const ParsedSettings& parsed, Options& o, const Refusal& refused) {
  Applied applied;
  for (const ParsedSettings::Entry& e : parsed.entries) {
    const std::string& key = e.key;
    if (key.starts_with("ui.")) {
      applied.ui[key.substr(3)] = e.value;
      continue;
    }
    if (auto bk = backendKey(key)) {  // a backend's own option: applied if that backend runs
      if (!o.given.count(bk->second)) o.savedSelections[bk->first][bk->second] = e.value;
      continue;
    }
    if (isBackendOptionKey(key)) {  // without its backend (an older file): for whichever has it
      if (!o.given.count(key)) o.savedSelections[""][key] = e.value;
      continue;
    }
    if (givenUnderAnyName(o, key)) continue;  // the command line wins
    Options trial = o;
    auto why = setLiveOption(trial, key, e.value);
    if (!why) why = whyNotRunnable(trial);
    if (why) {
      applied.refused.insert(key);
      refused(e, *why);
      continue;
    }
    o = std::move(trial);
    o.fromSettings.insert(key);
  }
  return applied;
}

}  // namespace

std::map<std::string, std::string> loadSettings(const std::filesystem::path& path, Options& o) {
  if (path.empty()) return {};
  const std::string file = "satdof: settings file " + quotedPath(path);
  const FileText read = readFileText(path);
  if (!read.why.empty()) {
    std::fprintf(stderr, "%s %s; ignored, and left as it is\n", file.c_str(), read.why.c_str());
    return {};
  }
  const ParsedSettings parsed = parseSettings(read.text);
  std::vector<std::pair<int, std::string>> said;  // (line, what), in line order when said
  for (const ParsedSettings::Problem& p : parsed.problems) said.emplace_back(p.line, p.what);
  const Applied applied = apply(parsed, o, [&](const ParsedSettings::Entry& e, const std::string& why) {
    said.emplace_back(e.line, shown(e.key, e.value) + ": " + why + "; ignored");
  });
  std::stable_sort(said.begin(), said.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < said.size() && i < kMaxLinesSaid; ++i)
    std::fprintf(stderr, "%s line %d: %s\n", file.c_str(), said[i].first, said[i].second.c_str());
  if (said.size() > kMaxLinesSaid)
    std::fprintf(stderr, "%s: %zu more lines like these, not listed\n", file.c_str(), said.size() - kMaxLinesSaid);
  return applied.ui;
}

// The live options the file keeps: what the panel, the keys and the script change.
// Filter settings are left out on purpose: a filter is a deliberate, per-run choice.
SettingsEntries settingsOf(const Options& o, const std::map<std::string, std::string>& ui) {
  SettingsEntries entries;
  for (const LiveOption* option : liveOptions()) {
    if (!option->persisted) continue;
    if (option == &opt::view && showsFilterOutput(o.view.mode)) continue;  // needs this run's filter
    const std::string v = option->get(o);
    if (!v.empty() && !(option == &opt::focal && v == option->defaultValue)) entries.emplace_back(option->name, v);
  }
  for (const auto& [backend, selections] : o.savedSelections)
    for (const auto& [key, name] : selections) entries.emplace_back(backend + "." + key, name);
  for (const auto& [key, value] : ui) entries.emplace_back("ui." + key, value);
  return entries;
}

std::optional<std::string> writeSettings(const std::filesystem::path& path, const SettingsEntries& entries) {
  const std::filesystem::path target = linkTarget(path);
  const FileText read = readFileText(target);
  if (!read.why.empty()) return std::nullopt;  // not read at the start (it said so): left as it is
  // What changed: an entry the file gives with another value, or does not give. A line
  // whose value the options refused stays while its option keeps the value a start from
  // this file gives it (the user did not choose another).
  const ParsedSettings parsed = parseSettings(read.text);
  std::unordered_map<std::string_view, std::string_view> inFile;
  for (const ParsedSettings::Entry& e : parsed.entries) inFile[e.key] = e.value;
  Options fresh;
  const Applied applied = apply(parsed, fresh, [](const ParsedSettings::Entry&, const std::string&) {});
  std::unordered_map<std::string, std::string> started;
  if (!applied.refused.empty())
    for (auto& [key, value] : settingsOf(fresh, applied.ui))
      if (applied.refused.count(key)) started[key] = value;
  SettingsEntries changes;
  for (const auto& [key, value] : entries) {
    const auto it = inFile.find(key);
    if (it != inFile.end() && it->second == value) continue;
    if (const auto s = started.find(key); it != inFile.end() && s != started.end() && s->second == value) continue;
    changes.emplace_back(key, value);
  }
  const std::string text = updateSettings(read.text, changes);
  if (read.exists && text == read.text) return std::nullopt;
  try {
    if (target.has_parent_path()) files::createFolders(target.parent_path());
    files::writeFileAtomically(target, text);
  } catch (const files::WriteError& e) {
    return e.what();
  }
  return std::nullopt;
}

}  // namespace satdof
