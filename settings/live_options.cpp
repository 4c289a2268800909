// settings/live_options.cpp — see live_options.h: the declarations, one per option.
#include "settings/live_options.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "engine/dof/dof_implementation.h"
#include "engine/text/parse.h"

namespace satdof {
namespace {

std::string formatNumber(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(v));
  return text;
}

// "'banana' is not a number" from parse.h's "not a number: 'banana'".
std::string reword(const std::string& error, std::string_view text, const char* what) {
  if (error.starts_with("not a")) return quoteForMessage(text) + " is " + what;
  return error;
}

std::optional<std::string> member(std::string_view text, const std::vector<std::string>& names,
                                   const char* what, std::string& out) {
  if (std::find(names.begin(), names.end(), text) != names.end()) {
    out = std::string(text);
    return std::nullopt;
  }
  return std::string("no ") + what + " " + quoteForMessage(text) + "; valid: " + joinNames(names);
}

std::vector<std::string> viewNames() {
  std::vector<std::string> names;
  for (ViewMode m : viewModes()) names.emplace_back(toString(m));
  return names;
}

// Every backend's choices for a key (the running backend checks its own at select()).
std::vector<std::string> backendChoices(std::string_view key) {
  std::vector<std::string> names;
  for (const ComputeBackendInfo& b : computeBackends())
    for (const BackendOption& o : b.options())
      if (o.key == key)
        for (const Choice& c : o.choices)
          if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
  return names;
}

std::vector<std::string> backendKeys() {
  std::vector<std::string> keys;
  for (const ComputeBackendInfo& b : computeBackends())
    for (const BackendOption& o : b.options())
      if (std::find(keys.begin(), keys.end(), o.key) == keys.end()) keys.push_back(o.key);
  return keys;
}

// A backend this build lacks (no CUDA toolkit) lists nothing: its names cannot be checked
// here; choosing it fails later with its reason (exit code 3), as cli.cpp's checks do.
bool someBackendIsMissing() {
  for (const ComputeBackendInfo& b : computeBackends())
    if (b.options().empty() && b.filterImplementations().empty()) return true;
  return false;
}

std::vector<std::string> convolutionNames() {
  std::vector<std::string> names;
  for (const ComputeBackendInfo& b : computeBackends())
    for (const FilterImplementation& f : b.filterImplementations())
      if (std::find(names.begin(), names.end(), f.name) == names.end()) names.push_back(f.name);
  return names;
}

// The fields configuration B may set (engine/pipeline/pipeline_config.h).
std::vector<std::string> compareKeys() {
  std::vector<std::string> keys = {"backend", "sat-format", "conv", "dof", "aperture"};
  for (const std::string& k : backendKeys()) keys.push_back(k);
  return keys;
}

std::vector<std::string> satFormatNames() {
  std::vector<std::string> names;
  for (const SatFormatInfo& f : satFormats()) names.emplace_back(f.name);
  return names;
}

std::vector<std::string> dofNames() {
  std::vector<std::string> names;
  for (const DofEntry& e : dofImplementations()) names.emplace_back(e.name);
  return names;
}

// One field of B, checked against every registry that could run it (the backend that will
// run it checks its own when B is built); an empty name: the field follows A again.
std::optional<std::string> readCompareField(CompareFields& fields, std::string_view key, std::string_view name) {
  const std::vector<std::string> keys = compareKeys();
  if (std::find(keys.begin(), keys.end(), key) == keys.end())
    return "no field " + quoteForMessage(key) + " of a configuration; valid: " + joinNames(keys);
  if (name.empty()) {
    fields.erase(std::string(key));
    return std::nullopt;
  }
  std::vector<std::string> names;
  std::string what = std::string(key);
  if (key == "backend") {
    for (const ComputeBackendInfo& b : computeBackends()) names.emplace_back(b.name);
    what = "backend";
  } else if (key == "sat-format") {
    names = satFormatNames();
    what = "SAT format";
  } else if (key == "dof") {
    names = dofNames();
    what = "depth-of-field implementation";
  } else if (key == "aperture") {  // B's blur shape (Comparison::apertureB)
    names = {std::string(reference::apertureName(reference::Aperture::Box)),
             std::string(reference::apertureName(reference::Aperture::Disc))};
    what = "aperture";
  } else if (key == "conv") {
    if (someBackendIsMissing()) {  // its names cannot be checked in this build (see below)
      fields["conv"] = std::string(name);
      return std::nullopt;
    }
    names = convolutionNames();
    what = "convolution implementation";
  } else {
    names = backendChoices(key);
    for (const ComputeBackendInfo& b : computeBackends())
      for (const BackendOption& o : b.options())
        if (o.key == key) what = o.label;
  }
  std::string chosen;
  if (auto e = member(name, names, what.c_str(), chosen)) return std::string(key) + ": " + *e;
  fields[std::string(key)] = chosen;
  return std::nullopt;
}

std::string formatRange(float lo, float hi) { return formatNumber(lo) + ".." + formatNumber(hi); }

// A distance in the scene's units: above 0 and finite (parseNumber refuses nan, inf and
// what a float cannot hold, "1e39"). Declared with no range (lo == hi): its help says so.
std::optional<std::string> readDistance(std::string_view text, float& out) {
  float v = 0;
  if (auto e = readNumber(text, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), v)) return e;
  if (!(v > 0.0f)) return quoteForMessage(text) + " is out of range: must be above 0";
  out = v;
  return std::nullopt;
}

// The float a number option reads and writes: a member of Options, or of its camera.
template <auto Field, class Settings>
auto& numberField(Settings& o) {
  if constexpr (std::is_same_v<decltype(Field), float reference::DofParams::*>)
    return o.dof.params.*Field;
  else
    return o.*Field;
}

// A number of Options (or of its camera) in [self.lo, self.hi].
template <auto Field>
constexpr LiveOption number(std::string_view name, std::string_view help, float lo, float hi,
                            std::string_view defaultValue, AppliesTo appliesTo, PanelRange panel) {
  return {name,
          help,
          lo,
          hi,
          defaultValue,
          [](const LiveOption& self, Options& o, std::string_view v) { return readNumber(v, self.lo, self.hi, numberField<Field>(o)); },
          [](const Options& o) { return formatNumber(numberField<Field>(o)); },
          true,
          appliesTo,
          panel};
}

std::optional<std::string> onOff(std::string_view v, const char* what, bool& out) {
  std::string name;
  if (auto e = member(v, {"on", "off"}, what, name)) return e;
  out = name == "on";
  return std::nullopt;
}

std::string onOffText(bool on) { return on ? "on" : "off"; }

// An integer of the bokeh selection in [self.lo, self.hi].
template <class T, T reference::BokehSettings::*Field>
constexpr LiveOption bokehInteger(std::string_view name, std::string_view help, float lo, float hi,
                                  std::string_view defaultValue, PanelRange panel = {}) {
  return {name,
          help,
          lo,
          hi,
          defaultValue,
          [](const LiveOption& self, Options& o, std::string_view v) -> std::optional<std::string> {
            int n = 0;
            if (auto e = readInteger(v, int(self.lo), int(self.hi), n)) return e;
            o.bokeh.select.*Field = T(n);
            return std::nullopt;
          },
          [](const Options& o) { return std::to_string(o.bokeh.select.*Field); },
          true,
          AppliesTo::Bokeh,
          panel};
}

template <class Names>
std::string registryListing(const std::string& defaultName, const Names& entries) {
  std::string text = " [" + defaultName + "]:";
  for (const auto& e : entries) text += "\n  " + std::string(e.name) + ": " + std::string(e.description);
  return text;
}

}  // namespace

namespace opt {

// Distances follow the content's units (a millimetre model focuses at 1600): any positive,
// finite value. The panel's ranges are a built-in scene's; other content sets its own
// (engine/content/depth_span.h).
constinit const LiveOption focal{
    "focal", "Focal distance in scene units, any above 0 (scene: the scene's suggestion)", 0.0f, 0.0f, "scene",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      if (v == "scene") {
        o.focusFromScene = true;
        return std::nullopt;
      }
      if (auto e = readDistance(v, o.dof.params.focalDistance)) return e;
      o.focusFromScene = false;
      return std::nullopt;
    },
    [](const Options& o) { return o.focusFromScene ? std::string("scene") : formatNumber(o.dof.params.focalDistance); },
    true, AppliesTo::Always, {0.2f, 60.0f, true, "%.2f", "focus (m)"}};
constinit const LiveOption focalRange{
    "focal-range", "Linear camera: distance from focus at which blur is maximal, in scene units, any above 0", 0.0f,
    0.0f, "6", [](const LiveOption&, Options& o, std::string_view v) { return readDistance(v, o.dof.params.focalRange); },
    [](const Options& o) { return formatNumber(o.dof.params.focalRange); }, true, AppliesTo::LinearCamera,
    {0.1f, 40.0f, false, "%.2f", "focal range"}};
constinit const LiveOption maxBlur = number<&reference::DofParams::maxRadius>(
    "max-blur", "Largest blur radius in pixels", 0.0f, 256.0f, "12", AppliesTo::Always, {0.0f, 64.0f, false, "%.1f", "max blur (px)"});
constinit const LiveOption camera{
    "camera", "Circle-of-confusion model: linear (--focal-range) or thin-lens (--focal-length, --f-number, --sensor-width)",
    0, 0, "linear",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      using reference::CocModel;
      std::string name;
      if (auto e = member(v, {cocModelName(CocModel::Linear), cocModelName(CocModel::ThinLens)}, "camera model", name))
        return e;
      o.dof.params.model = name == cocModelName(CocModel::ThinLens) ? CocModel::ThinLens : CocModel::Linear;
      return std::nullopt;
    },
    [](const Options& o) { return std::string(cocModelName(o.dof.params.model)); }, true, AppliesTo::Always, {}};
constinit const LiveOption focalLength = number<&reference::DofParams::focalLengthMm>(
    "focal-length", "Thin lens: focal length in mm", 1.0f, 2000.0f, "85", AppliesTo::ThinLensCamera,
    {12.0f, 300.0f, true, "%.0f mm", "focal length"});
constinit const LiveOption fNumber = number<&reference::DofParams::fNumber>(
    "f-number", "Thin lens: f-number (aperture: smaller numbers, wider aperture, more blur)", 0.5f, 128.0f, "1.4",
    AppliesTo::ThinLensCamera, {0.95f, 22.0f, true, "f/%.1f"});
constinit const LiveOption sensorWidth = number<&reference::DofParams::sensorWidthMm>(
    "sensor-width", "Thin lens: sensor width in mm (36 full frame, 23.5 APS-C, 6.2 a phone)", 1.0f, 200.0f, "36",
    AppliesTo::ThinLensCamera, {4.0f, 54.0f, false, "%.1f mm", "sensor"});
constinit const LiveOption msaa{
    "msaa", "Scene samples per pixel: 1 (none), 2, 4, 8 or 16", 1, 16, "4",
    [](const LiveOption& self, Options& o, std::string_view v) -> std::optional<std::string> {
      int n = 0;
      if (auto e = readInteger(v, int(self.lo), int(self.hi), n)) return e;
      if (n & (n - 1)) return quoteForMessage(v) + " is not a power of two (1, 2, 4, 8 or 16)";
      o.msaa = n;
      return std::nullopt;
    },
    [](const Options& o) { return std::to_string(o.msaa); }, true, AppliesTo::Always, {}};
constinit const LiveOption renderScale = number<&Options::renderScale>(
    "render-scale", "Window: the frame is rendered at this fraction of the image area and scaled up to it (blur sizes follow: the same picture, softer)", 0.25f,
    1.0f, "1", AppliesTo::Window, {0.25f, 1.0f, false, "%.2f", "render scale"});
constinit const LiveOption bokeh{
    "bokeh", "Bokeh highlights (every backend): on or off", 0, 0, "on",
    [](const LiveOption&, Options& o, std::string_view v) { return onOff(v, "bokeh setting", o.bokeh.enabled); },
    [](const Options& o) { return onOffText(o.bokeh.enabled); }, true, AppliesTo::Always, {}};
constinit const LiveOption bokehThreshold = bokehInteger<std::uint32_t, &reference::BokehSettings::threshold>(
    "bokeh-threshold", "Encoded luminance an out-of-focus pixel must pass to be a highlight (it must also pass --bokeh-contrast)", 0, 254, "240",
    {128, 254, false, "%d", "threshold"});
// Stored in sixteenths (reference::BokehSettings::contrast), so every backend compares integers.
constinit const LiveOption bokehContrast{
    "bokeh-contrast", "How many times the light of its surroundings (linear) a highlight must outshine: lamps and glints, not white walls",
    1.0f, 16.0f, "2",
    [](const LiveOption& self, Options& o, std::string_view v) -> std::optional<std::string> {
      float ratio = 0;
      if (auto e = readNumber(v, self.lo, self.hi, ratio)) return e;
      o.bokeh.select.contrast = std::uint32_t(std::lround(ratio * float(reference::kBokehContrastOne)));
      return std::nullopt;
    },
    [](const Options& o) { return formatNumber(float(o.bokeh.select.contrast) / float(reference::kBokehContrastOne)); },
    true, AppliesTo::Bokeh, {1.0f, 8.0f, true, "%.2fx", "contrast"}};
constinit const LiveOption bokehMinRadius = bokehInteger<int, &reference::BokehSettings::minRadius>(
    "bokeh-min-radius", "Smallest circle of confusion with a sprite", 1, 256, "4");
constinit const LiveOption bokehMax = bokehInteger<std::uint32_t, &reference::BokehSettings::maxSprites>(
    "bokeh-max", "Most sprites drawn per frame", 1, float(kMaxBokehSprites), "8192");
constinit const LiveOption bokehBlades{
    "bokeh-blades", "The aperture's blades, which shape the sprites: 0 round, 3 to 12 a regular polygon in the circle of confusion",
    0.0f, float(kMaxBlades), "0",
    [](const LiveOption& self, Options& o, std::string_view v) -> std::optional<std::string> {
      int n = 0;
      if (auto e = readInteger(v, int(self.lo), int(self.hi), n)) return e;
      if (n != 0 && n < kMinBlades) return std::to_string(n) + " blades make no aperture: 0 (round) or 3 to 12";
      o.bokeh.blades = n;
      return std::nullopt;
    },
    [](const Options& o) { return std::to_string(o.bokeh.blades); }, true, AppliesTo::Bokeh,
    {0.0f, float(kMaxBlades), false, "%d", "blades (0: round)"}};
constinit const LiveOption bokehIntensity{
    "bokeh-intensity", "Sprite brightness", 0.0f, 1000.0f, "8",
    [](const LiveOption& self, Options& o, std::string_view v) { return readNumber(v, self.lo, self.hi, o.bokeh.intensity); },
    [](const Options& o) { return formatNumber(o.bokeh.intensity); }, true, AppliesTo::Bokeh, {}};
constinit const LiveOption filter{
    "filter", "Convolution before the SAT", 0, 0, "none",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::vector<std::string> names = filterKindNames();
      names.insert(names.begin(), "none");
      std::string name;
      if (auto e = member(v, names, "filter", name)) return e;
      o.filter.enabled = name != "none";
      if (o.filter.enabled) o.filter.kind = *filterKindFromName(name);
      return std::nullopt;
    },
    [](const Options& o) { return o.filter.enabled ? std::string(toString(o.filter.kind)) : std::string("none"); },
    false, AppliesTo::Always, {},
    [] { return ": none, " + joinNames(filterKindNames()); }};
constinit const LiveOption weights{
    "weights", "Custom filter: (2r+1)^2 comma-separated weights, row-major", 0, 0, "",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string error;
      const auto w = parseWeights(v, error);
      if (!w) return error;
      o.filter.customWeights = *w;
      return std::nullopt;
    },
    [](const Options& o) {
      std::string s;
      for (float w : o.filter.customWeights) s += (s.empty() ? "" : ",") + formatNumber(w);
      return s;
    },
    false, AppliesTo::Filter, {}};
constinit const LiveOption aperture{
    "aperture",
    "Blur shape, what a pixel of blur radius r averages: box (its (2r+1)^2 square, 4 SAT reads) or disc (the disc "
    "of radius r as 5 boxes, 20 reads)",
    0, 0, "box",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string name;
      if (auto e = member(v, {"box", "disc"}, "aperture", name))
        return v == "square" ? *e + " (quality's lens truth: --lens-aperture square)" : e;
      o.dof.params.aperture = name == "disc" ? reference::Aperture::Disc : reference::Aperture::Box;
      return std::nullopt;
    },
    [](const Options& o) { return std::string(reference::apertureName(o.dof.params.aperture)); }, true,
    AppliesTo::Always, {}};
constinit const LiveOption stage{
    "stage",
    "A glTF model without surroundings stands on a far checkered ground with distant lamps, so that its depth of "
    "field shows: auto (where few rays through the image's bottom reach a surface), on or off; never for built-in "
    "scenes or photos",
    0, 0, "auto",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string name;
      const std::vector<std::string> names(std::begin(content::kStageModeNames), std::end(content::kStageModeNames));
      if (auto e = member(v, names, "stage setting", name)) return e;
      o.stage = *content::stageModeFromName(name);
      return std::nullopt;
    },
    [](const Options& o) { return std::string(content::toString(o.stage)); }, true, AppliesTo::Always, {}};
constinit const LiveOption view{
    "view", "What is shown", 0, 0, "final",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string name;
      if (auto e = member(v, viewNames(), "view", name)) return e;
      o.view.mode = *viewModeFromName(name);
      return std::nullopt;
    },
    [](const Options& o) { return std::string(toString(o.view.mode)); },
    true, AppliesTo::Always, {},
    [] {
      std::string text = ":";
      for (ViewMode m : viewModes()) text += std::string(" ") + toString(m);
      return text;
    }};

}  // namespace opt

namespace {

constinit const LiveOption kSatFormat{
    "sat-format", "SAT format", 0, 0, "",
    [](const LiveOption&, Options& o, std::string_view v) { return member(v, satFormatNames(), "SAT format", o.satFormat); },
    [](const Options& o) { return o.satFormat; }, true, AppliesTo::Always, {},
    [] { return registryListing(std::string(defaultSatFormat().name), satFormats()); }};
constinit const LiveOption kDivider{
    "divider", "Split view divider, fraction of the width", 0.0f, 1.0f, "0.5",
    [](const LiveOption& self, Options& o, std::string_view v) { return readNumber(v, self.lo, self.hi, o.view.divider); },
    [](const Options& o) { return formatNumber(o.view.divider); }, true, AppliesTo::SplitView, {}};
constinit const LiveOption kDiffGain{
    "diff-gain", "Difference view amplification, 1..255, or auto (255 / the largest difference)", 0, 0, "auto",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      if (v == "auto") {
        o.view.autoGain = true;
        return std::nullopt;
      }
      if (auto e = readNumber(v, 1.0f, 255.0f, o.view.gain)) return *e + " (or auto)";
      o.view.autoGain = false;
      return std::nullopt;
    },
    [](const Options& o) { return o.view.autoGain ? std::string("auto") : formatNumber(o.view.gain); }, true,
    AppliesTo::DifferenceView, {}};
constinit const LiveOption kRadius{
    "radius", "Filter radius", float(kMinFilterRadius), float(kMaxFilterRadius), "2",
    [](const LiveOption& self, Options& o, std::string_view v) {
      return readInteger(v, int(self.lo), int(self.hi), o.filter.radius);
    },
    [](const Options& o) { return std::to_string(o.filter.radius); }, false, AppliesTo::Filter, {}};
constinit const LiveOption kSigma{
    "sigma", "Gaussian sigma in pixels (0: radius/2)", 0.0f, 100.0f, "0",
    [](const LiveOption& self, Options& o, std::string_view v) { return readNumber(v, self.lo, self.hi, o.filter.sigma); },
    [](const Options& o) { return formatNumber(o.filter.sigma); }, false, AppliesTo::GaussianFilter, {}};
constinit const LiveOption kBorder{
    "border", "Filter border: zero (ghost cells) or clamp", 0, 0, "clamp",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string name;
      if (auto e = member(v, {"zero", "clamp"}, "border rule", name)) return e;
      o.filter.border = name == "zero" ? Border::Zero : Border::Clamp;
      return std::nullopt;
    },
    [](const Options& o) { return std::string(o.filter.border == Border::Zero ? "zero" : "clamp"); }, false,
    AppliesTo::Filter, {}};
constinit const LiveOption kConv{
    "conv", "Convolution implementation (A)", 0, 0, "",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      if (someBackendIsMissing() && !v.empty()) {
        o.filter.implementation = std::string(v);
        return std::nullopt;
      }
      return member(v, convolutionNames(), "convolution implementation", o.filter.implementation);
    },
    [](const Options& o) { return o.filter.implementation; }, false, AppliesTo::Filter, {},
    [] {
      std::string text = " [the backend's first]:";
      for (const ComputeBackendInfo& b : computeBackends())
        for (const FilterImplementation& f : b.filterImplementations())
          text += "\n  " + f.name + ": " + f.description + " (" + std::string(b.name) + ")";
      return text;
    }};
constinit const LiveOption kCompareB{
    "compare-b", "Configuration B for --view split/diff: key=name,... over A's, e.g. dof=layered,sat-format=float32",
    0, 0, "",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string error;
      const auto items = splitCompareFields(v, joinNames(compareKeys()), error);
      if (!items) return error;
      CompareFields fields = o.compareB;
      for (const auto& [key, name] : *items)
        if (auto e = readCompareField(fields, key, name)) return e;
      o.compareB = std::move(fields);
      return std::nullopt;
    },
    [](const Options& o) { return formatCompareFields(o.compareB); }, true, AppliesTo::ComparingView, {},
    [] { return " [B = A]; keys: " + joinNames(compareKeys()); }};
constinit const LiveOption kCompare{
    "compare", "Configuration B's convolution (as --compare-b conv=NAME)", 0, 0, "",
    [](const LiveOption&, Options& o, std::string_view v) { return readCompareField(o.compareB, "conv", v); },
    [](const Options& o) {
      const auto it = o.compareB.find("conv");
      return it == o.compareB.end() ? std::string() : it->second;
    },
    false, AppliesTo::Filter, {}};
constinit const LiveOption kDof{
    "dof", "Depth-of-field implementation", 0, 0, "",
    [](const LiveOption&, Options& o, std::string_view v) {
      return member(v, dofNames(), "depth-of-field implementation", o.dofName);
    },
    [](const Options& o) { return o.dofName; }, true, AppliesTo::Always, {},
    [] { return registryListing(std::string(defaultDofImplementation().name), dofImplementations()); }};
constinit const LiveOption kAutofocus{
    "autofocus", "Keep in focus: off, centre (the image centre) or point (the last click)", 0, 0, "off",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string name;
      if (auto e = member(v, {"off", "centre", "point"}, "autofocus mode", name)) return e;
      o.autofocus = *autofocusFromName(name);
      return std::nullopt;
    },
    [](const Options& o) { return std::string(toString(o.autofocus)); }, true, AppliesTo::Always, {}};
constinit const LiveOption kAnimate{
    "animate", "The teapots turn: on or off", 0, 0, "off",
    [](const LiveOption&, Options& o, std::string_view v) { return onOff(v, "animation setting", o.animate); },
    [](const Options& o) { return onOffText(o.animate); }, true, AppliesTo::Always, {}};
// The older name of the sprites' shape, still read from the command line, scripts and
// settings files: disc is --bokeh-blades 0, hexagon 6.
constinit const LiveOption kBokehShape{
    "bokeh-shape", "Sprite shape: disc or hexagon (the same as --bokeh-blades 0 or 6)", 0, 0, "",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string name;
      if (auto e = member(v, {"disc", "hexagon"}, "bokeh shape", name)) return e;
      o.bokeh.blades = name == "hexagon" ? 6 : 0;
      return std::nullopt;
    },
    [](const Options& o) { return std::string(o.bokeh.blades == 0 ? "disc" : o.bokeh.blades == 6 ? "hexagon" : ""); },
    false, AppliesTo::Bokeh, {}, nullptr, "bokeh-blades"};
constinit const LiveOption kPanel{
    "panel", "Window mode: the panel shown or hidden (H toggles it)", 0, 0, "shown",
    [](const LiveOption&, Options& o, std::string_view v) -> std::optional<std::string> {
      std::string name;
      if (auto e = member(v, {"shown", "hidden"}, "panel setting", name)) return e;
      o.panel = name == "shown";
      return std::nullopt;
    },
    [](const Options& o) { return std::string(o.panel ? "shown" : "hidden"); }, true, AppliesTo::Window, {}};

// --help's order.
constexpr std::array kAll = {
    &opt::focal, &opt::focalRange, &opt::maxBlur, &opt::camera, &opt::focalLength, &opt::fNumber, &opt::sensorWidth,
    &kAutofocus, &kAnimate, &opt::msaa, &opt::stage, &opt::renderScale, &kPanel, &opt::bokeh, &opt::bokehThreshold, &opt::bokehContrast, &opt::bokehMinRadius,
    &opt::bokehMax, &opt::bokehBlades, &kBokehShape, &opt::bokehIntensity, &kSatFormat, &kDof, &opt::aperture, &opt::filter, &kRadius, &kSigma,
    &opt::weights, &kBorder, &kConv, &kCompareB, &kCompare, &opt::view, &kDivider, &kDiffGain};

// The declarations above, then any an executable's own file registered.
std::vector<const LiveOption*>& declared() {
  static std::vector<const LiveOption*> list(kAll.begin(), kAll.end());
  return list;
}

}  // namespace

std::span<const LiveOption* const> liveOptions() { return declared(); }

void registerLiveOption(const LiveOption& option) {
  if (findLiveOption(option.name) || isBackendOptionKey(option.name))
    throw std::invalid_argument("live option '" + std::string(option.name) + "' is already declared");
  declared().push_back(&option);
}

const LiveOption* findLiveOption(std::string_view name) {
  for (const LiveOption* o : declared())
    if (o->name == name) return o;
  return nullptr;
}

std::string describe(const LiveOption& o) {
  std::string text(o.help);
  if (o.lo != o.hi) text += ", " + formatRange(o.lo, o.hi);
  if (o.listing) text += o.listing();  // a registry's listing names its default itself
  if (!o.defaultValue.empty() && text.find(" [") == std::string::npos) text += " [" + std::string(o.defaultValue) + "]";
  return text;
}

std::optional<std::string> whyNotApplies(const LiveOption& option, const Options& o) {
  const ViewMode v = o.view.mode;
  switch (option.appliesTo) {
    case AppliesTo::Always:
    case AppliesTo::Window:  // the window-only flags are checked with the others (cli_checks.cpp)
      return std::nullopt;
    case AppliesTo::LinearCamera:
      if (o.dof.params.model == reference::CocModel::ThinLens) return "applies only to --camera linear";
      return std::nullopt;
    case AppliesTo::ThinLensCamera:
      if (o.dof.params.model != reference::CocModel::ThinLens) return "applies only to --camera thin-lens";
      return std::nullopt;
    case AppliesTo::Filter:
      if (!o.filter.enabled) return "applies only with --filter (no convolution runs without one)";
      return std::nullopt;
    case AppliesTo::GaussianFilter:
      if (!o.filter.enabled) return "applies only with --filter (no convolution runs without one)";
      if (o.filter.kind != FilterKind::Gaussian) return "applies only to --filter gaussian";
      return std::nullopt;
    case AppliesTo::Bokeh:
      if (!o.bokeh.enabled) return "applies only with --bokeh on";
      return std::nullopt;
    case AppliesTo::SplitView:
      if (v != ViewMode::Split) return "applies only to --view split";
      return std::nullopt;
    case AppliesTo::DifferenceView:
      if (v != ViewMode::Difference) return "applies only to --view diff";
      return std::nullopt;
    case AppliesTo::ComparingView:
      if (v != ViewMode::Split && v != ViewMode::Difference)
        return "applies only to --view split or diff (configuration B is not run otherwise)";
      return std::nullopt;
  }
  return std::nullopt;
}

void applyLiveDefaults(Options& o) {
  for (const LiveOption* option : declared())
    if (!option->defaultValue.empty()) (void)option->set(*option, o, option->defaultValue);
}

Options::Options() { applyLiveDefaults(*this); }

reference::DofParams dofParamsOf(const Options& o, float sceneFocalDistance) {
  reference::DofParams p = o.dof.params;
  if (o.focusFromScene) p.focalDistance = sceneFocalDistance;
  return p;
}

bool isBackendOptionKey(std::string_view key) {
  const std::vector<std::string> keys = backendKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::vector<std::string> liveOptionNames() {
  std::vector<std::string> names = backendKeys();
  for (const LiveOption* o : declared()) names.emplace_back(o->name);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> setLiveOption(Options& o, std::string_view name, std::string_view value) {
  if (const LiveOption* option = findLiveOption(name)) return option->set(*option, o, value);
  const std::vector<std::string> keys = backendKeys();
  if (std::find(keys.begin(), keys.end(), name) != keys.end()) {
    std::string chosen, label(name);
    for (const ComputeBackendInfo& b : computeBackends())
      for (const BackendOption& opt : b.options())
        if (opt.key == name) label = opt.label;
    if (auto e = member(value, backendChoices(name), label.c_str(), chosen)) return e;
    o.selections[std::string(name)] = chosen;
    return std::nullopt;
  }
  return "no option " + quoteForMessage(name) + "; valid: " + joinNames(liveOptionNames());
}

std::optional<std::string> liveOptionValue(const Options& o, std::string_view name) {
  if (const LiveOption* option = findLiveOption(name)) return option->get(o);
  if (auto it = o.selections.find(std::string(name)); it != o.selections.end()) return it->second;
  return std::nullopt;
}

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::optional<std::string> readNumber(std::string_view text, float lo, float hi, float& out) {
  std::string error;
  const auto v = parseNumber(text, error);
  if (!v) return reword(error, text, "not a number");
  if (*v < lo || *v > hi)
    return quoteForMessage(text) + " is out of range: must be between " + formatNumber(lo) + " and " + formatNumber(hi);
  out = *v;
  return std::nullopt;
}

std::optional<std::string> readInteger(std::string_view text, int lo, int hi, int& out) {
  std::string error;
  const auto v = parseInteger(text, error);
  if (!v) return reword(error, text, "not a whole number");
  if (*v < lo || *v > hi)
    return quoteForMessage(text) + " is out of range: must be between " + std::to_string(lo) + " and " +
           std::to_string(hi);
  out = *v;
  return std::nullopt;
}

}  // namespace satdof
