// app/options/settings_store.cpp — see settings_store.h.
#include "options/settings_store.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "options/cli_checks.h"
#include "options/live_options.h"
#include "parse.h"

namespace satdof {

std::filesystem::path settingsPath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "satdof" / "settings.ini";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".config" / "satdof" / "settings.ini";
  return {};
}

namespace {

// "cpu.sat" -> {"cpu", "sat"} when the prefix names a backend.
std::optional<std::pair<std::string, std::string>> backendKey(const std::string& key) {
  const std::size_t dot = key.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string backend = key.substr(0, dot);
  if (!findComputeBackend(backend)) return std::nullopt;
  return std::pair{backend, key.substr(dot + 1)};
}

}  // namespace

std::map<std::string, std::string> loadSettings(const std::filesystem::path& path, Options& o) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return {};
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string error;
  const auto entries = in ? parseSettings(text.str(), error) : std::nullopt;
  if (!in) error = "cannot read it";
  if (!entries) {
    std::fprintf(stderr, "satdof: warning: ignoring the settings file %s (%s); using the defaults\n",
                 path.c_str(), error.c_str());
    return {};
  }
  // Each entry on its own: one that is refused, or that makes the settings so far no
  // camera (thin lens focused closer than its focal length) or a blur the format cannot
  // sum, is dropped with one line; the others stay.
  std::map<std::string, std::string> ui;
  for (const auto& [key, value] : *entries) {
    if (key.starts_with("ui.")) {
      ui[key.substr(3)] = value;
      continue;
    }
    if (auto bk = backendKey(key)) {  // a backend's own option: applied if that backend runs
      if (!o.given.count(bk->second)) o.savedSelections[bk->first][bk->second] = value;
      continue;
    }
    if (isBackendOptionKey(key)) {  // without its backend (an older file): for whichever has it
      if (!o.given.count(key)) o.savedSelections[""][key] = value;
      continue;
    }
    if (o.given.count(key)) continue;  // the command line wins
    Options trial = o;
    auto why = setLiveOption(trial, key, value);
    if (!why) why = whyNotRunnable(trial);
    if (why) {
      std::fprintf(stderr, "satdof: the settings file's %s=%s: %s; dropped\n", key.c_str(), value.c_str(),
                   why->c_str());
      continue;
    }
    o = std::move(trial);
    o.fromSettings.insert(key);
  }
  return ui;
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
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return "cannot create " + path.parent_path().string() + ": " + ec.message();
  std::ofstream out(path);
  out << formatSettings(entries);
  if (!out) return "cannot write " + path.string();
  return std::nullopt;
}

}  // namespace satdof
