// app/option_table.h — the settings a user can change while satdof runs, by name, with
// one parser per value. The command line (cli.cpp) reads these flags through it, the
// script's `set OPTION VALUE` (script.h) and the settings file (settings_store.h) too, so
// a value is checked and explained the same way wherever it comes from.
//
//   focal, focal-range, max-blur      depth of field
//   camera, focal-length, f-number, sensor-width   the circle-of-confusion model
//   sat-format                        the table's layout
//   view, divider, diff-gain          what is shown (diff-gain: a number or "auto")
//   filter, radius, sigma, border, weights, conv    the convolution
//   compare-b                         configuration B of a comparison: key=name,... over
//                                     A's (compare_config.h); compare NAME: its conv
//   dof                               the DoF implementation
//   autofocus, animate, msaa          focus controller and scene
//   panel                             the window's panel: shown or hidden
//   bokeh, bokeh-threshold, bokeh-min-radius, bokeh-max, bokeh-shape, bokeh-intensity
//   <backend keys> (scan, sat, ...)   a backend option: the name is checked against the
//                                     registries here, against the running backend by it
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli.h"

namespace satdof {

// The names setLiveOption takes (the backend keys of every backend included), sorted.
std::vector<std::string> liveOptionNames();

// Parses `value` for option `name` (without "--") into `o`. nullopt when it was set;
// else one line saying what is wrong, without the flag's name ("'banana' is not a
// number", "no view 'x'; valid: final, ...").
std::optional<std::string> setLiveOption(Options& o, std::string_view name, std::string_view value);

// The current value of `name` as setLiveOption reads it back (for the settings file);
// nullopt for an unknown name.
std::optional<std::string> liveOptionValue(const Options& o, std::string_view name);

// Shared with cli.cpp for the options that are not live (--frames): a parsed number in
// [lo, hi], or the one-line reason.
std::optional<std::string> readNumber(std::string_view text, float lo, float hi, float& out);
std::optional<std::string> readInteger(std::string_view text, int lo, int hi, int& out);

// "a, b, c".
std::string joinNames(const std::vector<std::string>& names);

}  // namespace satdof
