// settings/live_options.h — every setting a user can change while satdof runs, each
// declared once (live_options.cpp): its name, one line of help, its range and default, how
// a value is read into Options and written back as text, whether the settings file keeps
// it, and where it applies (a camera model, a filter, bokeh on, a view, the window). The
// command line (cli.cpp: the flags and --help), the script's `set OPTION VALUE`
// (script.h), the settings file (settings_store.h), the checks of what applies where
// (cli_checks.h) and the panel's generic widgets (app/ui/widgets.h) all read the declarations,
// so a value is checked, explained and defaulted the same way wherever it comes from.
//
//   focal, focal-range, max-blur      depth of field
//   camera, focal-length, f-number, sensor-width   the circle-of-confusion model
//   sat-format                        the table's layout
//   view, divider, diff-gain          what is shown (diff-gain: a number or "auto")
//   filter, radius, sigma, border, weights, conv    the convolution
//   compare-b                         configuration B of a comparison: key=name,... over
//                                     A's (engine/pipeline/pipeline_config.h); compare NAME: its conv
//   dof                               the DoF implementation
//   aperture                          the blur's shape: box or disc
//   autofocus, animate, msaa          focus controller and scene
//   stage                             a lone glTF model's ground and lamps (engine/content/stage.h)
//   render-scale                      the window's frame size against its image area
//   panel                             the window's panel: shown or hidden
//   bokeh, bokeh-threshold, bokeh-contrast, bokeh-min-radius, bokeh-max, bokeh-blades, bokeh-intensity
//   bokeh-shape                       bokeh-blades' older name (disc: 0, hexagon: 6)
//   <backend keys> (scan, sat, ...)   a backend option: declared by the backends
//                                     (engine/backends/compute_backend.h), checked against every
//                                     registry here and against the running backend by it
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "settings/cli.h"
#include "satdof/reference/coc.h"

namespace satdof {

// Where an option has an effect; a flag given where it has none is refused.
enum class AppliesTo { Always, Window, LinearCamera, ThinLensCamera, Filter, GaussianFilter, Bokeh, SplitView,
                       DifferenceView, ComparingView };

// A slider's range in the panel (a subset of the option's range that a hand can reach).
struct PanelRange {
  float lo = 0, hi = 0;
  bool logarithmic = false;
  const char* format = "%.2f";
  const char* label = nullptr;  // the panel's words for it (null: the option's name)
};

struct LiveOption {
  using Set = std::optional<std::string> (*)(const LiveOption& self, Options& o, std::string_view value);
  using Get = std::string (*)(const Options& o);
  std::string_view name;  // --name, the script's `set name`, the settings file's key, the panel's label
  std::string_view help;  // one line; describe() adds the range, the listing and the default
  float lo = 0, hi = 0;   // a number's range (lo == hi: none to state: not a number, or a
                          // distance in the content's units, any above 0); `set` checks it
  std::string_view defaultValue;  // read into every fresh Options; shown in --help (empty: none)
  Set set = nullptr;
  Get get = nullptr;
  bool persisted = true;  // kept in the settings file
  AppliesTo appliesTo = AppliesTo::Always;
  PanelRange panel;       // for the panel's slider, where it has one
  // The registry's entries, for options whose values are a registry's names ("\n  name:
  // description" lines and the default), built when --help asks.
  std::string (*listing)() = nullptr;
  // This is an older name of option `sameAs` (still read): given on the command line,
  // either one wins over a settings file's line of the other.
  std::string_view sameAs = {};
};

// The declarations, in --help's order.
std::span<const LiveOption* const> liveOptions();
const LiveOption* findLiveOption(std::string_view name);
// Appends a declaration (of static storage; after the table's, in --help's order) before
// the table's first use: an executable's own file does it from a static initialiser, as
// tests/add_one_more does. A name already declared, or a backend's key, throws.
void registerLiveOption(const LiveOption& option);
// "help, range [default]" for --help.
std::string describe(const LiveOption& option);
// Why `option` has no effect with `o` ("applies only to --camera thin-lens"); nullopt: it has.
std::optional<std::string> whyNotApplies(const LiveOption& option, const Options& o);
// The declared defaults, read into `o` (Options' constructor).
void applyLiveDefaults(Options& o);

// The declarations the rest of the app names in code (the panel's widgets, the checks).
namespace opt {
extern const LiveOption focal, focalRange, maxBlur, camera, focalLength, fNumber, sensorWidth, msaa, renderScale, bokeh,
    bokehThreshold, bokehContrast, bokehMinRadius, bokehMax, bokehBlades, bokehIntensity, filter, weights, view, aperture, stage;
}  // namespace opt

// The options' camera with its focus resolved: the option's focal distance, else (--focal
// scene) `sceneFocalDistance`.
reference::DofParams dofParamsOf(const Options& o, float sceneFocalDistance);

// Whether `key` names an option some backend offers (scan, sat, ...).
bool isBackendOptionKey(std::string_view key);

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
