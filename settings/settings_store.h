// settings/settings_store.h — the settings kept between runs: a plain key=value file at
// $XDG_CONFIG_HOME/satdof/settings.ini (else ~/.config/satdof/settings.ini).
//
//   # comments and blank lines are ignored
//   focal=14          any persisted live option (live_options.h), read by the same parser
//   cuda.scan=warp-shuffle   a backend's own option, kept per backend: applied only when
//                     that backend runs (a cpu run's sat=reference never reaches gl-compute)
//   ui.panel-width=380   the panel's own state (keys starting with "ui.")
//
// Read at start (flags on the command line win over it), written when the window closes.
// Nothing the user wrote is lost to a mistake in it: a line that does not parse, a value
// that is refused or does not fit the rest (a thin lens focused closer than its focal
// length, a blur the SAT format cannot sum) is ignored alone, with one line on stderr
// naming the file and the line ("satdof: settings file 'PATH' line 7: ...; ignored"; after
// 20 such lines, one more says how many were not listed); a key given twice takes its last
// value, said once. The save keeps the file's own text: only the lines of values that
// changed are rewritten (in place), new keys are added at the end, and every other line
// (comments, unknown keys, lines not understood, refused values whose option kept its
// value) is written back byte for byte, atomically (engine/files/safe_write.h), through a link
// to the file it names. A UTF-8 byte-order mark is skipped and kept. Only a regular file of
// at most 1 MiB is read, opened without waiting (a FIFO there never blocks the start);
// anything else at the path is said in one line and never written over.
// --no-settings neither reads nor writes it. F12 screenshots write the same format beside
// the PNG, so a screenshot's settings can be copied into the file.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "settings/cli.h"
#include "settings/settings_text.h"  // parseSettings, updateSettings, formatSettings

namespace satdof {

// Where the file lives; empty when neither XDG_CONFIG_HOME nor HOME is set.
std::filesystem::path settingsPath();

// Applies the file's live options that the command line did not give to `o` (a backend's
// options into o.savedSelections); returns its ui.* entries (key without the prefix).
// Linear in the file's size.
std::map<std::string, std::string> loadSettings(const std::filesystem::path& path, Options& o);

// The live options worth keeping, as entries (plus `ui`, prefixed "ui.").
SettingsEntries settingsOf(const Options& o, const std::map<std::string, std::string>& ui);
// Writes `entries` into the file as above (creating its folder); the reason on failure. A
// thing at the path that loadSettings did not read (not a regular file, unreadable, too
// large) is left as it is, without a word: loadSettings said so at the start.
std::optional<std::string> writeSettings(const std::filesystem::path& path, const SettingsEntries& entries);

}  // namespace satdof
