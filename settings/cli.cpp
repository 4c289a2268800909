// settings/cli.cpp — the one place where satdof's flags are declared (CLI11).
#include "settings/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "engine/content/content.h"
#include "settings/cli_checks.h"
#include "engine/dof/dof_implementation.h"
#include "settings/live_options.h"
#include "engine/text/parse.h"
#include "satdof/sat_format.h"
#include "engine/scene/scenes.h"

namespace satdof {
namespace {

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
  std::vector<std::string> names;
  for (const Choice& c : choices) names.push_back(c.name);
  return satdof::joinNames(names);
}

// --key NAME must name an entry of the backend that will run it (or of some backend with
// --backend auto, checked again once the backend is chosen).
void checkSelection(const std::string& key, const std::string& name, const std::string& backend,
                    const std::string& flag) {
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

// The name within two edits of `word` (insert, delete, replace, or swap two neighbours),
// the closest; nullopt when none is.
std::optional<std::string> nearestName(const std::string& word, const std::vector<std::string>& names) {
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<std::vector<int>> d(a.size() + 1, std::vector<int>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = int(i);
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = int(j);
    for (std::size_t i = 1; i <= a.size(); ++i)
      for (std::size_t j = 1; j <= b.size(); ++j) {
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    return d[a.size()][b.size()];
  };
  std::optional<std::string> best;
  int bestDistance = 3;
  for (const std::string& n : names)
    if (const int dist = distance(word, n); dist < bestDistance) {
      bestDistance = dist;
      best = n;
    }
  return best;
}

// "NEAR,FAR": two distances in metres, 0 < NEAR < FAR.
std::optional<std::string> readDepthRange(const std::string& text, content::DepthMapping& m) {
  const auto comma = text.find(',');
  if (comma == std::string::npos) return "expected NEAR,FAR in metres (e.g. 0.5,20), got " + quoteForMessage(text);
  float nearM = 0, farM = 0;
  if (auto e = readNumber(text.substr(0, comma), 1e-4f, 1e6f, nearM)) return "NEAR: " + *e;
  if (auto e = readNumber(text.substr(comma + 1), 1e-4f, 1e6f, farM)) return "FAR: " + *e;
  if (!(nearM < farM)) return "NEAR must be less than FAR, got " + quoteForMessage(text);
  m.nearMetres = nearM;
  m.farMetres = farM;
  return std::nullopt;
}

// A number above zero, finite ("0", "-1", "nan" and "1e39" are not).
std::optional<std::string> readPositive(const std::string& text, float& out) {
  float v = 0;
  if (auto e = readNumber(text, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), v)) return e;
  if (!(v > 0.0f)) return quoteForMessage(text) + " is out of range: must be above 0";
  out = v;
  return std::nullopt;
}

}  // namespace

ParseOutcome parseCommandLine(int argc, char** argv) {
  Options o;
  CLI::App app{"SATDoF: depth of field from summed-area tables built with parallel scans"};
  app.set_version_flag("--version", "satdof 0.1.0");
  // Values are taken as text and read by live_options.h / parse.h, which say in words
  // what is wrong ("'banana' is not a number"); CLI11 only splits the command line.
  std::map<std::string, std::string> live;  // live option name -> text as given
  auto liveOption = [&](const std::string& name, const std::string& help) {
    return app.add_option("--" + name, live[name], help);
  };

  // A subcommand's whole numbers, read by the same readInteger as the main options (no hex,
  // no empty value, one message for a value out of range).
  struct IntegerFlag {
    CLI::Option* option = nullptr;
    std::string text;
    int lo = 0, hi = 0;
    int* target = nullptr;
  };
  std::vector<std::unique_ptr<IntegerFlag>> integers;  // stable addresses: CLI11 writes the text
  auto integer = [&](CLI::App* sub, const std::string& name, int& target, int lo, int hi, const std::string& help) {
    auto flag = std::make_unique<IntegerFlag>();
    flag->lo = lo;
    flag->hi = hi;
    flag->target = &target;
    flag->option = sub->add_option("--" + name, flag->text, help);
    integers.push_back(std::move(flag));
  };
  int soakSeed = int(o.soakSeed);

  app.add_flag("--headless", o.headless, "Render without a window (EGL); write PNGs to --out");
  std::string frames;
  app.add_option("--frames", frames, "Render N frames, then exit (window mode too)");
  std::string size;
  app.add_option("--size", size, "Render size WxH (window: initial size) [1280x720]");
  app.add_option("--out", o.outDir, "Headless: folder for the PNG frames [out]");
  std::string save = "all";
  app.add_option("--save", save, "Headless: which frames to write as PNG: all, last or none [all]");
  app.add_flag("--no-labels", o.noLabels,
               "Headless: the split and diff views' PNGs without the A/B labels drawn on them (as rendered)");
  app.add_flag("--verify", o.verify,
               "Check the last frame against the CPU reference as V does, one line each (SAT, filter, DoF, "
               "bokeh); exit 1 when any differs. Headless, or a window with --frames N");
  std::vector<std::string> backendNames{"auto"};
  for (const ComputeBackendInfo& b : computeBackends()) backendNames.emplace_back(b.name);
  app.add_option("--backend", o.backend,
                 listing("Compute backend (filter + SAT): auto picks the first that works here", "auto",
                         computeBackends(), [](const auto& b) { return b.name; },
                         [](const auto& b) { return b.description; }));
  // The live options, from their declarations (live_options.h); the backends' options after.
  for (const LiveOption* option : liveOptions()) liveOption(std::string(option->name), describe(*option));
  std::vector<std::string> sceneNames;
  std::vector<Choice> sceneChoices;
  for (const scene::SceneEntry& s : scene::sceneEntries()) {
    sceneNames.emplace_back(s.name);
    sceneChoices.push_back({std::string(s.name), std::string(s.description)});
  }
  app.add_option("--scene", o.scene,
                 listing("Scene: a built-in one, or FILE.gltf / FILE.glb (glTF 2.0: meshes, node transforms, base "
                         "colours and textures, metallic-roughness, its first camera; drop one on the window too)",
                         "teapots", sceneChoices, [](const Choice& c) { return c.name; },
                         [](const Choice& c) { return c.description; }));
  app.add_option("--photo", o.photo,
                 "An RGB-D photo to refocus: its colour, a PNG or JPEG (needs --depth; headless: rendered at its "
                 "size unless --size says otherwise; a window: fitted into it). Drop one on the window, with its "
                 "depth map beside it (NAME_depth.png, NAME.depth.png)");
  app.add_option("--depth", o.depth,
                 "The photo's depth map, of the photo's size: an 8- or 16-bit PNG, or a float OpenEXR");
  std::string depthEncoding = content::kDefaultDepthEncoding, depthRange = content::kDefaultDepthRange;
  app.add_option("--depth-encoding", depthEncoding,
                 std::string("What the depth map's values are: metric (distance: a float map's in metres, a PNG's "
                             "0..max onto NEAR..FAR) or inverse (1 / distance, white near: a PNG's 0..max, or a float "
                             "map's 0..its largest, onto 1/FAR..1/NEAR) [") +
                     content::kDefaultDepthEncoding + "]");
  app.add_option("--depth-range", depthRange,
                 std::string("NEAR,FAR in metres: the distances a normalised depth map spans (a PNG's, or an inverse "
                             "float map's) [") +
                     content::kDefaultDepthRange + "]");
  std::string depthScale, depthInvalid;
  app.add_option("--depth-scale", depthScale,
                 "UNITS_PER_METRE: the depth map holds distances, value / UNITS_PER_METRE metres (a sensor's 16-bit "
                 "PNG: 5000 for TUM-style maps, 1000 for millimetres); no --depth-range then");
  app.add_option("--depth-invalid", depthInvalid,
                 "VALUE: the depth value of no reading, a hole filled from the surfaces around it, or none [0 with "
                 "--depth-scale, else none; a float map's NaN, infinite and non-distance values are holes always]");
  auto* quality = app.add_subcommand("quality",
                                     "Headless: every DoF implementation against a lens (the scene rendered over "
                                     "the aperture) and a scattering ground truth on every scene at several focal "
                                     "distances, with each --aperture (both unless given); images under --out");
  quality->add_option("--csv", o.qualityCsv,
                      "Also write scene,focus,implementation,psnr_db,psnr_band_db,infocus_identical_pct,truth");
  quality
      ->add_option("--lens-aperture", o.qualityLensAperture,
                   "The lens truth's aperture: disc (a round lens) or square (the box's shape) [the shape of the "
                   "--aperture scored: square for box alone, else disc]")
      ->check(CLI::IsMember({"disc", "square"}));
  integer(quality, "lens-renders", o.qualityMaxRenders, 2, 1 << 20,
          "At most N renders for a lens truth (doubled from 32 until N against 2N is over 50 dB) [4096]");
  quality->fallthrough()
      ->callback([&o] {
        o.quality = true;
        o.headless = true;
      });
  // The options the backends offer, from their registries.
  const auto offered = offeredOptions();
  std::vector<std::string> backendOptionKeys;
  for (const auto& [key, option] : offered) {
    backendOptionKeys.push_back(key);
    std::string backends;
    for (const std::string& b : option.backends) backends += (backends.empty() ? "" : ", ") + b;
    liveOption(key, listing(option.label + " (" + backends + " backend)", option.defaultChoice, option.choices,
                            [](const Choice& c) { return c.name; }, [](const Choice& c) { return c.description; }));
  }
  std::string uiScale;
  app.add_option("--ui-scale", uiScale,
                 "Window mode: scale the panel and labels, 1..4 (HiDPI) [the window's content scale]");
  app.add_option("--screenshot", o.screenshot, "Window mode: save the last frame shown as PNG");
  app.add_option("--script", o.script, "Window mode: run the actions in FILE (see docs/USING.md: Scripts)");
  app.add_flag("--no-settings", o.noSettings, "Neither read nor write the settings file");
  app.add_flag("--isolate-stages", o.isolateStages,
               "Wait for each stage before the next, so each stage's time is its own");
  app.add_option("--sat-memory", o.satMemory,
                 "Where the SAT tables live: cuda (CUDA memory that GL imports: CUDA writes it faster), gl (GL's "
                 "own buffers), auto (cuda where CUDA and GL share the GPU, else gl) [auto]")
      ->check(CLI::IsMember({"auto", "cuda", "gl"}));
  app.add_flag("!--no-vsync", o.vsync, "Window mode: do not wait for vertical sync");
  app.add_flag("-v,--verbose", o.verbose, "Print GL and CUDA details");

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
  integer(soak, "seed", soakSeed, 0, 999999999, "Random seed [1]");
  integer(soak, "check-every", o.soakCheckEvery, 1, 1000000, "Frames between checks [1000]");
  soak->callback([&o] {
    o.soak = true;
    o.headless = true;
  });

  auto* race = app.add_subcommand("race",
                                  "Headless: on the current frame, every SAT algorithm x scan variant x format and "
                                  "every convolution of --backend, timed (median of --repeats after a warm-up) and "
                                  "checked against the CPU reference; a table, a bar chart, GB/s against a copy of "
                                  "the same size; exit 1 when a result differs");
  race->fallthrough();
  race->add_option("--csv", o.raceCsv, "Also write stage,algorithm,variant,format,ms,gbps,pct_copy,same_bytes");
  integer(race, "repeats", o.raceRepeats, 1, 10000, "Timed runs per entry [15]");
  race->callback([&o] {
    o.race = true;
    o.headless = true;
  });

  auto* storm = app.add_subcommand("resize-storm",
                                   "Window: --frames random window sizes (1x1, very wide, very tall, minimised), then "
                                   "the starting size; its image must equal a fresh start's, memory flat");
  storm->fallthrough();
  integer(storm, "seed", soakSeed, 0, 999999999, "Random seed [1]");
  integer(storm, "max-side", o.stormMaxSide, 8, 16384, "Largest side in pixels [2048]");
  storm->callback([&o] { o.resizeStorm = true; });

  auto* bench = app.add_subcommand("bench", "Benchmark a kernel family (CUDA)");
  bench->require_subcommand(1);
  for (const char* family : {"scan", "conv", "sat", "compact", "sort"}) {
    auto* sub = bench->add_subcommand(family, std::string("Benchmark the ") + family + " variants");
    sub->add_option("--json", o.bench.jsonPath, "Also write the results as JSON");
    sub->add_option("--csv", o.bench.csvPath, "Also write the results as CSV");
    sub->add_option("--variant", o.bench.variants, "Only these variants (repeatable)");
    integer(sub, "warmup", o.bench.warmup, 0, 1000, "Untimed runs first [5]");
    integer(sub, "repeats", o.bench.repeats, 1, 100000, "Timed runs; the median is reported [30]");
    sub->add_flag("--quick", o.bench.quick, "Small sizes only");
    sub->callback([&o, family] { o.bench.family = family; });
  }

  auto* lesson = app.add_subcommand("lesson", "The kernels seen working: a variant followed step by step, as SVG pictures");
  lesson->require_subcommand(1);
  auto* scanLesson = lesson->add_subcommand(
      "scan", "A scan variant step by step: the array, the active threads, each access's shared-memory bank and the "
              "conflicts, the additions against the chapter's formulas; more than one block goes through the block sums");
  scanLesson->add_option("--variant", o.lesson.variant, "Scan variant: hillis-steele, blelloch, blelloch-conflict-free, "
                         "blelloch-8-per-thread, warp-shuffle, subgroup (gl-compute's), or decoupled-lookback (its "
                         "tiles' look-back, --blocks tiles); with --backend gl-compute the GLSL block scans' shape")
      ->required();
  integer(scanLesson, "subgroup-size", o.lesson.subgroupSize, 1, 128,
          "The GL's subgroup width that the subgroup trace takes (32 on NVIDIA) [32]");
  scanLesson->fallthrough();  // --backend
  lesson->fallthrough();
  integer(scanLesson, "n", o.lesson.n, 1, 2048, "Elements (random values 0..9; 2048 is warp-shuffle's kernel tile) [16]");
  integer(scanLesson, "blocks", o.lesson.blocks, 1, 8, "Blocks the elements are split over [1]");
  integer(scanLesson, "seed", o.lesson.seed, 0, 999999999, "Random seed of the values [1]");
  scanLesson->add_option("--out", o.lesson.outDir, "Folder for the pictures, one SVG per step (none: printed only)");
  scanLesson->callback([&o] { o.lesson.topic = "scan"; });
  auto* satLesson = lesson->add_subcommand(
      "sat", "A summed-area table as two scans on a small image: rows, then columns (or rows, transpose, rows, "
             "transpose back), with the additions each step makes");
  satLesson->add_option("--algorithm", o.lesson.variant, "SAT algorithm: rows-columns or rows-transpose-rows")->required();
  integer(satLesson, "n", o.lesson.n, 1, 32, "The image's side (random values 0..9) [16]");
  integer(satLesson, "seed", o.lesson.seed, 0, 999999999, "Random seed of the values [1]");
  satLesson->add_option("--out", o.lesson.outDir, "Folder for the pictures, one SVG per step (none: printed only)");
  satLesson->callback([&o] { o.lesson.topic = "sat"; });
  auto* convLesson = lesson->add_subcommand(
      "conv", "One block of a convolution variant: its output tile and halo, every tap's load coloured by the memory "
              "that serves it (global, shared, constant, registers), the loads per output pixel, pass by pass, against "
              "the chapter's");
  convLesson->add_option("--variant", o.lesson.variant, "Convolution variant: basic, constant-memory, tiled-halo, "
                                                         "tiled-cached-halo, separable or sat-box; with --backend "
                                                         "gl-compute its GLSL shaders: glsl-tiled-halo, glsl-basic, "
                                                         "glsl-separable or glsl-sat-box")->required();
  convLesson->fallthrough();  // --backend
  integer(convLesson, "radius", o.lesson.radius, 1, 15,
          "The filter's radius: a Gaussian (sat-box: a box); tiled-halo, tiled-cached-halo and separable run their "
          "strip path at 1 and 2 [3]");
  convLesson->add_option("--border", o.lesson.border, "Outside the image: zero or clamp [zero]")
      ->check(CLI::IsMember({"zero", "clamp"}));
  integer(convLesson, "seed", o.lesson.seed, 0, 999999999, "Random seed of the image [1]");
  convLesson->add_option("--out", o.lesson.outDir, "Folder for the pictures, one SVG per step (none: printed only)");
  convLesson->callback([&o] { o.lesson.topic = "conv"; });

  try {
    app.parse(argc, argv);
    for (const CLI::Option* opt : app.get_options())
      if (opt->count() > 0 && !opt->get_lnames().empty()) o.given.insert(opt->get_lnames().front());
    auto given = [&](const std::string& name) { return o.given.count(name) > 0; };
    auto check = [](const std::string& flag, std::optional<std::string> error) {
      if (error) throw CLI::ValidationError("--" + flag, *error);
    };
    // One tool a run: `soak race` would run the soak alone.
    if (const auto used = app.get_subcommands(); used.size() > 1) {
      std::string names;
      for (const CLI::App* sub : used) names += (names.empty() ? "" : " and ") + sub->get_name();
      throw CLI::ValidationError(names, "one tool a run: name one of them");
    }
    if (given("frames")) check("frames", readInteger(frames, 1, 1000000, o.frames));
    for (const auto& flag : integers)
      if (flag->option->count() > 0)
        check(flag->option->get_lnames().front(), readInteger(flag->text, flag->lo, flag->hi, *flag->target));
    o.soakSeed = unsigned(soakSeed);
    if (given("ui-scale")) check("ui-scale", readNumber(uiScale, 1.0f, 4.0f, o.uiScale));
    if (given("size")) {
      std::string error;
      const auto extent = parseExtent(size, error);
      if (!extent) throw CLI::ValidationError("--size", error);
      o.size = *extent;
    }
    if (given("save")) {
      static const std::vector<std::string> kinds{"all", "last", "none"};
      if (std::find(kinds.begin(), kinds.end(), save) == kinds.end())
        throw CLI::ValidationError("--save", "no choice " + quoteForMessage(save) + "; valid: all, last, none");
      o.save = save == "last" ? Options::Save::Last : save == "none" ? Options::Save::None : Options::Save::All;
    }
    if (std::find(backendNames.begin(), backendNames.end(), o.backend) == backendNames.end())
      throw CLI::ValidationError("--backend", "no backend " + quoteForMessage(o.backend) +
                                                  "; valid: " + satdof::joinNames(backendNames));
    // Live options in the table's order, so that the messages come in a stable order.
    // A backend option's name is checked against the backend that will run it.
    for (const std::string& name : liveOptionNames()) {
      if (!given(name)) continue;
      if (offered.count(name)) {
        checkSelection(name, live[name], o.backend, "--" + name);
        o.selections[name] = live[name];
      } else {
        check(name, setLiveOption(o, name, live[name]));
      }
    }
    // An option given under another of its names is given: the content's own focus and a
    // settings file's line yield to it as to the option's own flag.
    for (const LiveOption* option : liveOptions())
      if (!option->sameAs.empty() && given(std::string(option->name))) o.given.insert(std::string(option->sameAs));
    if (!content::isSceneFile(o.scene) && std::find(sceneNames.begin(), sceneNames.end(), o.scene) == sceneNames.end())
      throw CLI::ValidationError("--scene", "no scene " + quoteForMessage(o.scene) + "; valid: " +
                                                satdof::joinNames(sceneNames) + ", or a .gltf / .glb file");
    if (given("depth-encoding")) {
      if (depthEncoding != "metric" && depthEncoding != "inverse")
        throw CLI::ValidationError("--depth-encoding", "no encoding " + quoteForMessage(depthEncoding) +
                                                           "; valid: metric, inverse");
    }
    o.depthMapping.encoding = depthEncoding == "inverse" ? content::DepthEncoding::Inverse : content::DepthEncoding::Metric;
    if (auto why = readDepthRange(depthRange, o.depthMapping)) throw CLI::ValidationError("--depth-range", *why);
    o.depthMapping.rangeGiven = given("depth-range");
    if (given("depth-scale")) {
      if (auto why = readPositive(depthScale, o.depthMapping.unitsPerMetre)) throw CLI::ValidationError("--depth-scale", *why);
      if (given("depth-range"))
        throw CLI::ValidationError("--depth-scale", "not with --depth-range: a map in units per metre holds its "
                                                    "distances, there is no range to span (give one of the two)");
      if (o.depthMapping.encoding == content::DepthEncoding::Inverse)
        throw CLI::ValidationError("--depth-scale", "applies to a metric map (value / scale = metres), not "
                                                    "--depth-encoding inverse");
    }
    if (given("depth-invalid")) {
      float value = 0;
      if (depthInvalid == "none") o.depthMapping.noHoleValue = true;
      else if (auto why = readNumber(depthInvalid, -std::numeric_limits<float>::max(),
                                     std::numeric_limits<float>::max(), value))
        throw CLI::ValidationError("--depth-invalid", *why + " (or none)");
      else o.depthMapping.holeValue = value;
    }
    if (!o.focusFromScene)  // the focus a thin lens can reach (the camera's own rule, coc.h)
      if (const char* why = reference::whyNotACamera(o.dof.params))
        throw CLI::ValidationError("--" + std::string(opt::focal.name), why);
    const std::string weights = "--" + std::string(opt::weights.name);
    if (o.filter.kind != FilterKind::Custom && given(std::string(opt::weights.name)))
      throw CLI::ValidationError(weights, "needs --filter custom");
    if (o.filter.enabled && o.filter.kind == FilterKind::Custom && !given(std::string(opt::weights.name)))
      throw CLI::ValidationError("--filter custom", "needs " + weights + " with (2r+1)^2 values");
    if (o.filter.enabled && o.filter.kind == FilterKind::Custom) {  // the count for this radius
      const std::size_t side = std::size_t(2 * o.filter.radius + 1), count = o.filter.customWeights.size();
      if (count != side * side)
        throw CLI::ValidationError(weights, std::to_string(count) + (count == 1 ? " value" : " values") +
                                                "; --filter custom with --radius " +
                                                std::to_string(o.filter.radius) + " needs " +
                                                std::to_string(side * side) + " (" + std::to_string(side) +
                                                "x" + std::to_string(side) + ", row-major)");
    }
    if (o.filter.enabled) {  // radius, weights: the filter builders have the last word
      try {
        (void)o.filter.build();
      } catch (const std::exception& e) {
        throw CLI::ValidationError("--filter", e.what());
      }
    }
    if (!o.filter.implementation.empty()) checkConvolution("--conv", o.filter.implementation, o.backend);
    // Configuration B's names against the backend that will run it (A's unless it names one).
    const auto bBackend = o.compareB.find("backend");
    const std::string backendB = bBackend == o.compareB.end() ? o.backend : bBackend->second;
    const char* bFlag = given("compare-b") ? "--compare-b" : "--compare";
    for (const auto& [key, name] : o.compareB)
      if (key == "conv") checkConvolution(bFlag, name, backendB);
      else if (offered.count(key)) checkSelection(key, name, backendB, bFlag);
    // What needs what, and what does not apply to this mode (cli_checks.h); then the
    // files the run will write, before any window or GL work.
    if (auto why = checkCombination(o)) throw CLI::ValidationError(*why);
    if (auto why = checkOutputs(o)) throw CLI::ValidationError(*why);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == int(CLI::ExitCodes::Success)) {  // --help, --version
      app.exit(e);
      return {std::nullopt, kExitOk};
    }
    std::string msg = e.what();
    for (char& c : msg) if (c == '\n') c = ' ';
    // An unknown flag: named, with the nearest one where a slip of the keys explains it.
    for (int i = 1; i < argc && dynamic_cast<const CLI::ExtrasError*>(&e); ++i) {
      const std::string arg = argv[i];
      if (!arg.starts_with("--") || app.get_option_no_throw(arg.substr(0, arg.find('='))) ) continue;
      std::vector<std::string> flags;
      for (const CLI::Option* opt : app.get_options())
        for (const std::string& name : opt->get_lnames()) flags.push_back(name);
      msg = "unknown flag " + arg.substr(0, arg.find('='));
      if (auto near = nearestName(arg.substr(2, arg.find('=') - 2), flags)) msg += "; did you mean --" + *near + "?";
      break;
    }
    std::fprintf(stderr, "satdof: %s (see --help)\n", msg.c_str());
    return {std::nullopt, kExitUsage};
  }
  return {o, kExitOk};
}

}  // namespace satdof
