// app/option_table.cpp — see option_table.h. One entry per live option: its name, how a
// value is read into Options, and how the current value is written back as text.
#include "option_table.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>

#include "dof/dof_implementation.h"
#include "parse.h"

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

// The fields configuration B may set (compare_config.h).
std::vector<std::string> compareKeys() {
  std::vector<std::string> keys = {"backend", "sat-format", "conv", "dof"};
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

using Setter = std::function<std::optional<std::string>(Options&, std::string_view)>;
using Getter = std::function<std::string(const Options&)>;
struct Entry {
  const char* name;
  Setter set;
  Getter get;
};

Entry number(const char* name, float lo, float hi, float Options::*field) {
  return {name,
          [=](Options& o, std::string_view v) { return readNumber(v, lo, hi, o.*field); },
          [=](const Options& o) { return formatNumber(o.*field); }};
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {"focal",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         float f = 0;
         if (auto e = readNumber(v, 0.01f, 1000.0f, f)) return e;
         o.focalDistance = f;
         return std::nullopt;
       },
       [](const Options& o) { return o.focalDistance ? formatNumber(*o.focalDistance) : std::string("scene"); }},
      number("focal-range", 0.01f, 1000.0f, &Options::focalRange),
      number("max-blur", 0.0f, 256.0f, &Options::maxBlur),
      {"camera",
       [](Options& o, std::string_view v) { return member(v, {"linear", "thin-lens"}, "camera model", o.camera); },
       [](const Options& o) { return o.camera; }},
      number("focal-length", 1.0f, 2000.0f, &Options::focalLengthMm),
      number("f-number", 0.5f, 128.0f, &Options::fNumber),
      number("sensor-width", 1.0f, 200.0f, &Options::sensorWidthMm),
      {"sat-format",
       [](Options& o, std::string_view v) { return member(v, satFormatNames(), "SAT format", o.satFormat); },
       [](const Options& o) { return o.satFormat; }},
      {"view",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::string name;
         if (auto e = member(v, viewNames(), "view", name)) return e;
         o.view.mode = *viewModeFromName(name);
         return std::nullopt;
       },
       [](const Options& o) { return std::string(toString(o.view.mode)); }},
      {"divider", [](Options& o, std::string_view v) { return readNumber(v, 0.0f, 1.0f, o.view.divider); },
       [](const Options& o) { return formatNumber(o.view.divider); }},
      {"diff-gain",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         if (v == "auto") {
           o.view.autoGain = true;
           return std::nullopt;
         }
         if (auto e = readNumber(v, 1.0f, 255.0f, o.view.gain)) return *e + " (or auto)";
         o.view.autoGain = false;
         return std::nullopt;
       },
       [](const Options& o) { return o.view.autoGain ? std::string("auto") : formatNumber(o.view.gain); }},
      {"filter",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::vector<std::string> names = filterKindNames();
         names.insert(names.begin(), "none");
         std::string name;
         if (auto e = member(v, names, "filter", name)) return e;
         o.filter.enabled = name != "none";
         if (o.filter.enabled) o.filter.kind = *filterKindFromName(name);
         return std::nullopt;
       },
       [](const Options& o) { return o.filter.enabled ? std::string(toString(o.filter.kind)) : std::string("none"); }},
      {"radius",
       [](Options& o, std::string_view v) { return readInteger(v, kMinFilterRadius, kMaxFilterRadius, o.filter.radius); },
       [](const Options& o) { return std::to_string(o.filter.radius); }},
      {"sigma", [](Options& o, std::string_view v) { return readNumber(v, 0.0f, 100.0f, o.filter.sigma); },  // 0: r/2
       [](const Options& o) { return formatNumber(o.filter.sigma); }},
      {"border",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::string name;
         if (auto e = member(v, {"zero", "clamp"}, "border rule", name)) return e;
         o.filter.border = name == "zero" ? Border::Zero : Border::Clamp;
         return std::nullopt;
       },
       [](const Options& o) { return std::string(o.filter.border == Border::Zero ? "zero" : "clamp"); }},
      {"weights",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
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
       }},
      {"conv",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         if (someBackendIsMissing() && !v.empty()) {
           o.filter.implementation = std::string(v);
           return std::nullopt;
         }
         return member(v, convolutionNames(), "convolution implementation", o.filter.implementation);
       },
       [](const Options& o) { return o.filter.implementation; }},
      {"compare",  // the convolution of configuration B (compare-b's conv)
       [](Options& o, std::string_view v) { return readCompareField(o.compareB, "conv", v); },
       [](const Options& o) {
         const auto it = o.compareB.find("conv");
         return it == o.compareB.end() ? std::string() : it->second;
       }},
      {"compare-b",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         CompareFields fields = o.compareB;
         for (std::size_t begin = 0; begin <= v.size();) {
           const std::size_t end = std::min(v.find(',', begin), v.size());
           const std::string_view item = v.substr(begin, end - begin);
           begin = end + 1;
           const std::size_t eq = item.find('=');
           if (eq == std::string_view::npos)
             return quoteForMessage(item) + " is not key=name (e.g. dof=layered,sat-format=float32); keys: " +
                    joinNames(compareKeys());
           if (auto e = readCompareField(fields, item.substr(0, eq), item.substr(eq + 1))) return e;
         }
         o.compareB = std::move(fields);
         return std::nullopt;
       },
       [](const Options& o) { return formatCompareFields(o.compareB); }},
      {"dof",
       [](Options& o, std::string_view v) { return member(v, dofNames(), "depth-of-field implementation", o.dof); },
       [](const Options& o) { return o.dof; }},
      {"autofocus",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::string name;
         if (auto e = member(v, {"off", "centre", "point"}, "autofocus mode", name)) return e;
         o.autofocus = *autofocusFromName(name);
         return std::nullopt;
       },
       [](const Options& o) { return std::string(toString(o.autofocus)); }},
      {"animate",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::string name;
         if (auto e = member(v, {"on", "off"}, "animation setting", name)) return e;
         o.animate = name == "on";
         return std::nullopt;
       },
       [](const Options& o) { return std::string(o.animate ? "on" : "off"); }},
      {"bokeh",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::string name;
         if (auto e = member(v, {"on", "off"}, "bokeh setting", name)) return e;
         o.bokeh.enabled = name == "on";
         return std::nullopt;
       },
       [](const Options& o) { return std::string(o.bokeh.enabled ? "on" : "off"); }},
      {"bokeh-threshold",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         int n = 0;
         if (auto e = readInteger(v, 0, 254, n)) return e;
         o.bokeh.select.threshold = std::uint32_t(n);
         return std::nullopt;
       },
       [](const Options& o) { return std::to_string(o.bokeh.select.threshold); }},
      {"bokeh-min-radius",
       [](Options& o, std::string_view v) { return readInteger(v, 1, 256, o.bokeh.select.minRadius); },
       [](const Options& o) { return std::to_string(o.bokeh.select.minRadius); }},
      {"bokeh-max",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         int n = 0;
         if (auto e = readInteger(v, 1, kMaxBokehSprites, n)) return e;
         o.bokeh.select.maxSprites = std::uint32_t(n);
         return std::nullopt;
       },
       [](const Options& o) { return std::to_string(o.bokeh.select.maxSprites); }},
      {"bokeh-shape",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::string name;
         if (auto e = member(v, {"disc", "hexagon"}, "bokeh shape", name)) return e;
         o.bokeh.shape = name == "hexagon" ? 1 : 0;
         return std::nullopt;
       },
       [](const Options& o) { return std::string(o.bokeh.shape == 1 ? "hexagon" : "disc"); }},
      {"bokeh-intensity",
       [](Options& o, std::string_view v) { return readNumber(v, 0.0f, 1000.0f, o.bokeh.intensity); },
       [](const Options& o) { return formatNumber(o.bokeh.intensity); }},
      {"panel",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         std::string name;
         if (auto e = member(v, {"shown", "hidden"}, "panel setting", name)) return e;
         o.panel = name == "shown";
         return std::nullopt;
       },
       [](const Options& o) { return std::string(o.panel ? "shown" : "hidden"); }},
      {"msaa",
       [](Options& o, std::string_view v) -> std::optional<std::string> {
         int n = 0;
         if (auto e = readInteger(v, 1, 16, n)) return e;
         if (n & (n - 1)) return quoteForMessage(v) + " is not a power of two (1, 2, 4, 8 or 16)";
         o.msaa = n;
         return std::nullopt;
       },
       [](const Options& o) { return std::to_string(o.msaa); }},
  };
  return table;
}

}  // namespace

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

std::vector<std::string> liveOptionNames() {
  std::vector<std::string> names = backendKeys();
  for (const Entry& e : entries()) names.emplace_back(e.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> setLiveOption(Options& o, std::string_view name, std::string_view value) {
  for (const Entry& e : entries())
    if (name == e.name) return e.set(o, value);
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
  for (const Entry& e : entries())
    if (name == e.name) return e.get(o);
  if (auto it = o.selections.find(std::string(name)); it != o.selections.end()) return it->second;
  return std::nullopt;
}

}  // namespace satdof
