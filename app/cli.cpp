// app/cli.cpp — the one place where satdof's flags are declared (CLI11).
#include "cli.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <regex>
#include <sstream>

#if SATDOF_HAVE_CUDA
#include "satdof/scan.h"
#endif

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

std::vector<std::string> scanVariantNames() {
  std::vector<std::string> names;
#if SATDOF_HAVE_CUDA
  for (const ScanVariant& v : scanVariants()) names.emplace_back(v.name);
#endif
  return names;
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
  std::string backend = "auto";
  app.add_option("--backend", backend, "SAT backend: auto, cuda or cpu [auto]")
      ->check(CLI::IsMember({"auto", "cuda", "cpu"}));
  float focal = 0;
  auto* focalOpt = app.add_option("--focal", focal, "Focal distance in scene units [scene's]")
                       ->check(CLI::Range(0.01f, 1000.0f));
  app.add_option("--focal-range", o.focalRange, "Distance from focus at which blur is maximal [6]")
      ->check(CLI::Range(0.01f, 1000.0f));
  app.add_option("--max-blur", o.maxBlur, "Largest blur radius in pixels [12]")
      ->check(CLI::Range(0.0f, 256.0f));
  const auto scanNames = scanVariantNames();
  auto* scanOpt = app.add_option("--scan", o.scanVariant, "Scan variant for the SAT (CUDA backend)");
  if (!scanNames.empty()) scanOpt->check(CLI::IsMember(scanNames));
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
  app.add_option("--conv", o.filter.implementation, "Convolution implementation (A)");
  app.add_option("--compare", o.filter.compareImplementation,
                 "Second convolution implementation (B) for --view split/diff");
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

  auto* bench = app.add_subcommand("bench", "Benchmark a kernel family (CUDA)");
  bench->require_subcommand(1);
  for (const char* family : {"scan", "conv", "sat"}) {
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
    if (backend == "cuda") o.backend = BackendRequest::Cuda;
    if (backend == "cpu") o.backend = BackendRequest::Cpu;
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
