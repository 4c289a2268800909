// app/cli.cpp — the one place where satdof's flags are declared (CLI11).
#include "cli.h"
#include "scene/scenes.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <map>
#include <regex>
#include <sstream>

#include "dof/dof_implementation.h"
#include "satdof/sat_format.h"

namespace satdof {
namespace {

// "WxH" with both sides in [1, 16384].
std::string parseExtent(const std::string& text, Extent& out) {
  static const std::regex form(R"((\d{1,5})[xX](\d{1,5}))");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return "expected WxH (e.g. 1920x1080), got '" + text + "'";
  const int w = std::stoi(m[1].str()), h = std::stoi(m[2].str());
  if (w < 1 || h < 1 || w > 16384 || h > 16384)
    return "width and height must be between 1 and 16384, got '" + text + "'";
  out = {w, h};
  return {};
}

// "Label [default]:" then one line per entry with its description, for --help.
template <class Range, class Name, class Description>
std::string listing(const std::string& label, const std::string& fallback, const Range& entries, Name name,
                    Description description) {
  std::string text = label + " [" + fallback + "]:";
  for (const auto& e : entries) text += "\n  " + std::string(name(e)) + ": " + std::string(description(e));
  return text;
}

// Every option any backend offers (--scan, --sat, ...), merged over the backends.
struct OfferedOption {
  std::string label;
  std::vector<Choice> choices;
  std::string defaultChoice;
  std::vector<std::string> backends;  // which backends offer it
};

std::map<std::string, OfferedOption> offeredOptions() {
  std::map<std::string, OfferedOption> all;
  for (const ComputeBackendInfo& b : computeBackends())
    for (const BackendOption& o : b.options()) {
      auto [it, fresh] = all.try_emplace(o.key, OfferedOption{o.label, {}, o.defaultChoice, {}});
      it->second.backends.emplace_back(b.name);
      for (const Choice& c : o.choices) {
        bool known = false;
        for (const Choice& k : it->second.choices) known = known || k.name == c.name;
        if (!known) it->second.choices.push_back(c);
      }
    }
  return all;
}

std::string joinNames(const std::vector<Choice>& choices) {
  std::string s;
  for (const Choice& c : choices) s += (s.empty() ? "" : ", ") + c.name;
  return s;
}

// --key NAME must name an entry of the backend that will run it (or of some backend with
// --backend auto, checked again once the backend is chosen).
void checkSelection(const std::string& key, const std::string& name, const std::string& backend) {
  const std::string flag = "--" + key;
  if (backend == "auto") {
    const auto all = offeredOptions();
    const OfferedOption& o = all.at(key);
    for (const Choice& c : o.choices)
      if (c.name == name) return;
    throw CLI::ValidationError(flag, "no " + o.label + " '" + name + "'; valid: " + joinNames(o.choices));
  }
  const ComputeBackendInfo* info = findComputeBackend(backend);
  // A backend this build lacks offers nothing: choosing it fails later, with its reason.
  if (info->options().empty() && info->filterImplementations().empty()) return;
  for (const BackendOption& o : info->options()) {
    if (o.key != key) continue;
    if (o.has(name)) return;
    throw CLI::ValidationError(flag, "no " + o.label + " '" + name + "' in the " + backend +
                                         " backend; valid: " + joinNames(o.choices));
  }
  throw CLI::ValidationError(flag, "does not apply to the " + backend + " backend");
}

// A convolution implementation named on the command line must be one the backend that
// will run it offers (any backend's with --backend auto; checked again once chosen).
void checkConvolution(const char* flag, const std::string& name, const std::string& backend) {
  std::string valid;
  for (const ComputeBackendInfo& b : computeBackends()) {
    if (backend != "auto" && backend != b.name) continue;
    // A backend this build lacks offers nothing: choosing it fails later, with its reason.
    if (backend != "auto" && b.filterImplementations().empty() && b.options().empty()) return;
    for (const FilterImplementation& f : b.filterImplementations()) {
      if (f.name == name) return;
      valid += (valid.empty() ? "" : ", ") + f.name;
    }
  }
  throw CLI::ValidationError(flag, "no convolution implementation '" + name + "'" +
                                       (backend == "auto" ? "" : " in the " + backend + " backend") +
                                       "; valid: " + valid);
}

}  // namespace

ParseOutcome parseCommandLine(int argc, char** argv) {
  Options o;
  CLI::App app{"SATDoF: depth of field from summed-area tables built with parallel scans"};
  app.set_version_flag("--version", "satdof 0.1.0");

  app.add_flag("--headless", o.headless, "Render without a window (EGL); write PNGs to --out");
  app.add_option("--frames", o.frames, "Render N frames, then exit (window mode too)")
      ->check(CLI::Range(1, 1000000));
  std::string size;
  app.add_option("--size", size, "Render size WxH (window: initial size) [1280x720]");
  app.add_option("--out", o.outDir, "Folder for headless PNG frames [out]");
  std::string save = "all";
  app.add_option("--save", save, "Headless: which frames to write as PNG: all, last or none [all]")
      ->check(CLI::IsMember({"all", "last", "none"}));
  std::vector<std::string> backendNames{"auto"};
  for (const ComputeBackendInfo& b : computeBackends()) backendNames.emplace_back(b.name);
  app.add_option("--backend", o.backend,
                 listing("Compute backend (filter + SAT): auto picks the first that works here", "auto",
                         computeBackends(), [](const auto& b) { return b.name; },
                         [](const auto& b) { return b.description; }))
      ->check(CLI::IsMember(backendNames));
  float focal = 0;
  auto* focalOpt = app.add_option("--focal", focal, "Focal distance in scene units [scene's]")
                       ->check(CLI::Range(0.01f, 1000.0f));
  app.add_option("--focal-range", o.focalRange, "Distance from focus at which blur is maximal [6]")
      ->check(CLI::Range(0.01f, 1000.0f));
  app.add_option("--max-blur", o.maxBlur, "Largest blur radius in pixels [12]")
      ->check(CLI::Range(0.0f, 256.0f));
  app.add_option("--camera", o.camera, "Circle-of-confusion model: linear (--focal-range) or thin-lens "
                                       "(--focal-length, --f-number, --sensor-width) [linear]")
      ->check(CLI::IsMember({"linear", "thin-lens"}));
  app.add_option("--focal-length", o.focalLengthMm, "Thin lens: focal length in mm [85]")->check(CLI::Range(1.0f, 2000.0f));
  app.add_option("--f-number", o.fNumber, "Thin lens: f-number (aperture) [1.4]")->check(CLI::Range(0.5f, 128.0f));
  app.add_option("--sensor-width", o.sensorWidthMm, "Thin lens: sensor width in mm [36: full frame]")
      ->check(CLI::Range(1.0f, 200.0f));
  // The options the backends offer, from their registries.
  const auto offered = offeredOptions();
  std::map<std::string, std::string> selections;
  for (const auto& [key, option] : offered) {
    std::string backends;
    for (const std::string& b : option.backends) backends += (backends.empty() ? "" : ", ") + b;
    app.add_option("--" + key, selections[key],
                   listing(option.label + " (" + backends + " backend)", option.defaultChoice, option.choices,
                           [](const Choice& c) { return c.name; }, [](const Choice& c) { return c.description; }));
  }
  app.add_option("--sat-format", o.satFormat,
                 listing("SAT format", std::string(defaultSatFormat().name), satFormats(),
                         [](const auto& f) { return f.name; }, [](const auto& f) { return f.description; }));
  app.add_option("--dof", o.dof,
                 listing("Depth-of-field implementation", std::string(defaultDofImplementation().name),
                         dofImplementations(), [](const auto& e) { return e.name; },
                         [](const auto& e) { return e.description; }));
  // The optional convolution between the scene and the SAT, and the comparison views.
  std::string filter = "none";
  std::vector<std::string> filterNames = filterKindNames();
  filterNames.insert(filterNames.begin(), "none");
  app.add_option("--filter", filter, "Convolution before the SAT: none, box, gaussian, sharpen, "
                                     "laplacian, emboss, identity, custom [none]")
      ->check(CLI::IsMember(filterNames));
  app.add_option("--radius", o.filter.radius, "Filter radius, 1..15 [2]")->check(CLI::Range(1, 15));
  app.add_option("--sigma", o.filter.sigma, "Gaussian sigma in pixels [radius/2]")
      ->check(CLI::Range(0.01f, 100.0f));
  std::string weights;
  app.add_option("--weights", weights, "Custom filter: (2r+1)^2 comma-separated weights, row-major");
  std::string border = "clamp";
  app.add_option("--border", border, "Filter border: zero (ghost cells) or clamp [clamp]")
      ->check(CLI::IsMember({"zero", "clamp"}));
  std::vector<Choice> convs;  // every backend's, for --help and the early name check
  for (const ComputeBackendInfo& b : computeBackends())
    for (const FilterImplementation& f : b.filterImplementations())
      convs.push_back({f.name, f.description + " (" + std::string(b.name) + ")"});
  const std::string convDefault = convs.empty() ? "" : convs.front().name;
  auto convName = [](const Choice& c) { return c.name; };
  auto convText = [](const Choice& c) { return c.description; };
  app.add_option("--conv", o.filter.implementation,
                 listing("Convolution implementation (A)", "the backend's first", convs, convName, convText));
  app.add_option("--compare", o.filter.compareImplementation,
                 "Second convolution implementation (B) for --view split/diff (names as for --conv)");
  std::string view = "final";
  app.add_option("--view", view, "What is shown: final, filtered, split (A|B) or diff (|A-B|) [final]")
      ->check(CLI::IsMember({"final", "filtered", "split", "diff"}));
  app.add_option("--divider", o.view.divider, "Split view divider, fraction of the width [0.5]")
      ->check(CLI::Range(0.0f, 1.0f));
  app.add_option("--diff-gain", o.view.gain, "Difference view amplification [16]")
      ->check(CLI::Range(1.0f, 255.0f));
  app.add_option("--screenshot", o.screenshot, "Window mode: save the last frame shown as PNG");
  app.add_flag("--isolate-stages", o.isolateStages,
               "Wait for each stage before the next, so each stage's time is its own");
  app.add_flag("!--no-vsync", o.vsync, "Window mode: do not wait for vertical sync");
  app.add_flag("-v,--verbose", o.verbose, "Print GL and CUDA details");

  std::string bokeh = "on", bokehShape = "disc";
  auto* bokehOpt = app.add_option("--bokeh", bokeh, "Bokeh highlights (cuda backend): on or off [on]")
                       ->check(CLI::IsMember({"on", "off"}));
  app.add_option("--bokeh-threshold", o.bokeh.select.threshold,
                 "Luminance (0-255) above which an out-of-focus pixel becomes a bokeh sprite [240]")
      ->check(CLI::Range(0, 254));
  app.add_option("--bokeh-min-radius", o.bokeh.select.minRadius, "Smallest circle of confusion with a sprite [4]")
      ->check(CLI::Range(1, 256));
  app.add_option("--bokeh-max", o.bokeh.select.maxSprites, "Most sprites drawn per frame [8192]")
      ->check(CLI::Range(1, kMaxBokehSprites));
  app.add_option("--bokeh-shape", bokehShape, "Sprite shape: disc or hexagon [disc]")
      ->check(CLI::IsMember({"disc", "hexagon"}));
  app.add_option("--bokeh-intensity", o.bokeh.intensity, "Sprite brightness [8]")->check(CLI::Range(0.0f, 1000.0f));
  std::vector<std::string> sceneNames;
  std::vector<Choice> sceneChoices;
  for (const scene::SceneEntry& s : scene::sceneEntries()) {
    sceneNames.emplace_back(s.name);
    sceneChoices.push_back({std::string(s.name), std::string(s.description)});
  }
  app.add_option("--scene", o.scene,
                 listing("Scene", "teapots", sceneChoices, [](const Choice& c) { return c.name; },
                         [](const Choice& c) { return c.description; }))
      ->check(CLI::IsMember(sceneNames));
  app.add_subcommand("quality",
                     "Headless: every DoF implementation against a scattering ground truth (PSNR) on every "
                     "scene at several focal distances; images under --out")
      ->fallthrough()
      ->callback([&o] {
        o.quality = true;
        o.headless = true;
      });

  app.add_subcommand("precision",
                     "Headless: the DoF image from each float SAT format against the exact uint32 one "
                     "(max error, PSNR, where the errors are; heatmaps under --out)")
      ->fallthrough()
      ->callback([&o] {
        o.precision = true;
        o.headless = true;
      });

  auto* soak = app.add_subcommand("soak",
                                  "Headless: --frames frames switching every registry entry at random; memory and "
                                  "fresh-render checks every --check-every frames; exit 1 on a mismatch or growth");
  soak->fallthrough();
  soak->add_option("--seed", o.soakSeed, "Random seed [1]");
  soak->add_option("--check-every", o.soakCheckEvery, "Frames between checks [1000]")->check(CLI::Range(1, 1000000));
  soak->callback([&o] {
    o.soak = true;
    o.headless = true;
  });

  auto* storm = app.add_subcommand("resize-storm",
                                   "Window: --frames random window sizes (1x1, very wide, very tall, minimised), then "
                                   "the starting size; its image must equal a fresh start's, memory flat");
  storm->fallthrough();
  storm->add_option("--seed", o.soakSeed, "Random seed [1]");
  storm->add_option("--max-side", o.stormMaxSide, "Largest side in pixels [2048]")->check(CLI::Range(8, 16384));
  storm->callback([&o] { o.resizeStorm = true; });

  auto* bench = app.add_subcommand("bench", "Benchmark a kernel family (CUDA)");
  bench->require_subcommand(1);
  for (const char* family : {"scan", "conv", "sat", "compact", "sort"}) {
    auto* sub = bench->add_subcommand(family, std::string("Benchmark the ") + family + " variants");
    sub->add_option("--json", o.bench.jsonPath, "Also write the results as JSON");
    sub->add_option("--csv", o.bench.csvPath, "Also write the results as CSV");
    sub->add_option("--variant", o.bench.variants, "Only these variants (repeatable)");
    sub->add_option("--warmup", o.bench.warmup, "Untimed runs first [5]")->check(CLI::Range(0, 1000));
    sub->add_option("--repeats", o.bench.repeats, "Timed runs; the median is reported [30]")
        ->check(CLI::Range(1, 100000));
    sub->add_flag("--quick", o.bench.quick, "Small sizes only");
    sub->callback([&o, family] { o.benchFamily = family; });
  }

  try {
    app.parse(argc, argv);
    if (!size.empty()) {
      if (const std::string err = parseExtent(size, o.size); !err.empty())
        throw CLI::ValidationError("--size", err);
    }
    if (*focalOpt) o.focalDistance = focal;
    o.bokeh.enabled = bokeh == "on";
    o.bokehRequested = *bokehOpt && bokeh == "on";
    o.bokeh.shape = bokehShape == "hexagon" ? 1 : 0;
    if (o.camera == "thin-lens" && o.focalDistance && *o.focalDistance * 1000.0f <= o.focalLengthMm)
      throw CLI::ValidationError("--focal", "a " + std::to_string(int(o.focalLengthMm)) +
                                                " mm lens cannot focus closer than its focal length");
    o.filter.enabled = filter != "none";
    if (o.filter.enabled) o.filter.kind = *filterKindFromName(filter);
    o.filter.border = border == "zero" ? Border::Zero : Border::Clamp;
    o.view.mode = *viewModeFromName(view);
    o.filter.compare = !o.filter.compareImplementation.empty();
    if (!weights.empty()) {
      if (o.filter.kind != FilterKind::Custom) throw CLI::ValidationError("--weights", "needs --filter custom");
      std::stringstream list(weights);
      for (std::string item; std::getline(list, item, ',');) {
        try {
          o.filter.customWeights.push_back(std::stof(item));
        } catch (const std::exception&) {
          throw CLI::ValidationError("--weights", "not a number: '" + item + "'");
        }
      }
    }
    if (o.filter.enabled && o.filter.kind == FilterKind::Custom && weights.empty())
      throw CLI::ValidationError("--filter custom", "needs --weights with (2r+1)^2 values");
    if (o.filter.enabled) {  // radius, weights: the filter builders have the last word
      try {
        (void)o.filter.build();
      } catch (const std::exception& e) {
        throw CLI::ValidationError("--filter", e.what());
      }
    }
    const bool needsFilter = o.view.mode != ViewMode::Final;
    if (needsFilter && !o.filter.enabled)
      throw CLI::ValidationError("--view", "filtered, split and diff views need a --filter");
    if ((o.view.mode == ViewMode::Split || o.view.mode == ViewMode::Difference) && !o.filter.compare)
      throw CLI::ValidationError("--view", "split and diff views need --compare IMPLEMENTATION");
    if (save == "last") o.save = Options::Save::Last;
    if (save == "none") o.save = Options::Save::None;
    for (const auto& [key, name] : selections) {
      if (name.empty()) continue;
      checkSelection(key, name, o.backend);
      o.selections[key] = name;
    }
    for (const auto& [flag, name] : {std::pair{"--conv", o.filter.implementation},
                                     std::pair{"--compare", o.filter.compareImplementation}})
      if (!name.empty()) checkConvolution(flag, name, o.backend);
    if (!o.satFormat.empty() && !findSatFormat(o.satFormat)) {
      std::string valid;
      for (const SatFormatInfo& f : satFormats()) valid += (valid.empty() ? "" : ", ") + std::string(f.name);
      throw CLI::ValidationError("--sat-format", "no SAT format '" + o.satFormat + "'; valid: " + valid);
    }
    if (!o.dof.empty() && !findDofImplementation(o.dof)) {
      std::string valid;
      for (const DofEntry& e : dofImplementations()) valid += (valid.empty() ? "" : ", ") + std::string(e.name);
      throw CLI::ValidationError("--dof", "no depth-of-field implementation '" + o.dof + "'; valid: " + valid);
    }
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == int(CLI::ExitCodes::Success)) {  // --help, --version
      app.exit(e);
      return {std::nullopt, kExitOk};
    }
    std::string msg = e.what();
    for (char& c : msg) if (c == '\n') c = ' ';
    std::fprintf(stderr, "satdof: %s (see --help)\n", msg.c_str());
    return {std::nullopt, kExitUsage};
  }
  return {o, kExitOk};
}

}  // namespace satdof
