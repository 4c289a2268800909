// app/options/settings_store.h — the settings kept between runs: a plain key=value file at
// $XDG_CONFIG_HOME/satdof/settings.ini (else ~/.config/satdof/settings.ini).
//
//   # comments and blank lines are ignored
//   focal=14          any persisted live option (live_options.h), read by the same parser
//   cuda.scan=warp-shuffle   a backend's own option, kept per backend: applied only when
//                     that backend runs (a cpu run's sat=reference never reaches gl-compute)
//   ui.panel-width=380   the panel's own state (keys starting with "ui.")
//
// Read at start (flags on the command line win over it), written when the window closes.
// A file that does not parse gives one warning line and the defaults. A value that is
// refused, or does not fit the rest (a thin lens focused closer than its focal length,
// a blur the SAT format cannot sum), or a backend's choice that backend does not have, is
// dropped with one line naming it, and the run goes on with the rest. --no-settings neither reads nor writes it. F12 screenshots write the same format
// beside the PNG, so a screenshot's settings can be copied into the file.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "options/cli.h"
#include "options/settings_text.h"  // parseSettings, formatSettings

namespace satdof {

// Where the file lives; empty when neither XDG_CONFIG_HOME nor HOME is set.
std::filesystem::path settingsPath();

// Applies the file's live options that the command line did not give to `o` (a backend's
// options into o.savedSelections); returns its ui.* entries (key without the prefix).
std::map<std::string, std::string> loadSettings(const std::filesystem::path& path, Options& o);

// The live options worth keeping, as entries (plus `ui`, prefixed "ui.").
SettingsEntries settingsOf(const Options& o, const std::map<std::string, std::string>& ui);
// Writes the file (creating its folder); the reason on failure.
std::optional<std::string> writeSettings(const std::filesystem::path& path, const SettingsEntries& entries);

}  // namespace satdof
