// settings/cli_checks.cpp — see cli_checks.h.
#include "settings/cli_checks.h"

#include <cstdio>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "engine/content/content.h"
#include "engine/content/content_error.h"
#include "engine/dof/dof_implementation.h"
#include "engine/files/safe_write.h"
#include "settings/live_options.h"
#include "engine/text/parse.h"
#include "satdof/sat_format.h"

namespace satdof {
namespace {

// Paths in full (a cut path does not say where), control bytes escaped.
std::string quoted(const std::filesystem::path& p) { return content::quotedPath(p); }

bool given(const Options& o, const char* name) { return o.given.count(name) > 0; }

// Why the backend `name` cannot start on this machine ("not in this build" where it is not
// compiled in), or empty: it can. Asked before any GL.
std::string whyBackendNotHere(std::string_view name) {
  const ComputeBackendInfo* b = findComputeBackend(name);
  if (!b) return "not in this build";
  return b->whyNotOnThisMachine ? b->whyNotOnThisMachine() : "";
}

}  // namespace

bool runsHeadless(const Options& o) { return o.headless || !displayAvailable(); }

std::optional<std::string> checkCombination(const Options& o) {
  const bool headless = runsHeadless(o);
  const std::string why = o.headless ? "with --headless" : "in this headless run (no display: DISPLAY unset)";
  if (headless) {
    for (const char* flag : {"screenshot", "script", "no-vsync", "panel", "ui-scale", "render-scale"})
      if (given(o, flag))
        return "--" + std::string(flag) + ": applies to the window only, not " + why +
               (std::string(flag) == "screenshot" ? "; frames go to --out" : "");
  } else if (!o.resizeStorm) {  // resize-storm writes its images to --out from a window
    for (const char* flag : {"out", "save", "no-labels"})
      if (given(o, flag))
        return "--" + std::string(flag) + ": applies to --headless only" +
               (std::string(flag) == "no-labels" ? " (the window draws its labels over the image, not into it)"
                                                 : " (in a window: --screenshot FILE or F12)");
  }
  // Where each live option has an effect, from its declaration (live_options.h).
  for (const LiveOption* option : liveOptions())
    if (given(o, std::string(option->name).c_str()))
      if (auto why = whyNotApplies(*option, o)) return "--" + std::string(option->name) + ": " + *why;
  if (!o.filter.enabled && given(o, "compare-b") && o.compareB.count("conv"))
    return "--compare-b conv=" + o.compareB.at("conv") + ": applies only with --filter (no convolution runs without one)";
  if (const SatFormatInfo* f = o.satFormat.empty() ? &defaultSatFormat() : findSatFormat(o.satFormat))
    if (auto why = whyNotMaxBlur(*f, o.dof.params.maxRadius)) return "--" + std::string(opt::maxBlur.name) + ": " + *why;
  if (o.view.mode == ViewMode::Filtered && !o.filter.enabled) return "--view: the filtered view needs a --filter";
  if (o.verify && !headless && o.frames == 0) return "--verify: a window checks its last frame: give --frames N (or press V)";
  if (o.verify && (o.quality || o.precision || o.soak || o.race || o.resizeStorm))
    return "--verify: checks the frames of a run, not a tool's (quality, precision, soak, race and resize-storm check their own)";
  if (o.resizeStorm && headless) return "resize-storm: needs a window, not " + why + " (e.g. run it under xvfb-run)";
  // A DoF that runs on one backend only, with another named (or, for auto, one this build lacks).
  if (const DofEntry* dof = findDofImplementation(o.dofName); dof && !dof->onlyBackend.empty()) {
    const std::string prefix = "--dof " + o.dofName + ": runs on the " + std::string(dof->onlyBackend) + " backend only";
    if (o.backend != "auto" && o.backend != dof->onlyBackend) return prefix + ", not --backend " + o.backend;
    // With auto, the backend that runs it must be able to start here.
    if (const std::string notHere = whyBackendNotHere(dof->onlyBackend); !notHere.empty())
      return prefix + ", which cannot run here: " + notHere;
  }
  // SAT tables in CUDA memory need CUDA: where this build or machine has none, said before
  // any GL (where CUDA runs but cannot share its memory with GL, the app says so at start).
  if (o.satMemory == "cuda")
    if (const std::string notHere = whyBackendNotHere("cuda"); !notHere.empty()) return "--sat-memory cuda: " + notHere;
  // quality's lens truth exists for the thin-lens model only (qa/quality.cpp).
  if (o.quality && !o.qualityLensAperture.empty() && given(o, "camera") && o.dof.params.model == reference::CocModel::Linear)
    return "--lens-aperture: applies only with a lens truth, and quality with --camera linear has none";
  if (given(o, "compare") && o.view.mode != ViewMode::Split && o.view.mode != ViewMode::Difference)
    return "--compare: applies only to --view split or diff (configuration B is not run otherwise)";
  return checkContent(o);
}

std::optional<std::string> checkContent(const Options& o) {
  const bool photo = !o.photo.empty(), sceneFile = content::isSceneFile(o.scene);
  if (photo && o.depth.empty()) return std::string("--photo: needs --depth DEPTH (the photo's depth map, of its size)");
  if (!photo && !o.depth.empty()) return std::string("--depth: needs --photo IMAGE (the photo it belongs to)");
  if (photo && given(o, "scene")) return std::string("--scene: not with --photo (one content at a time)");
  // A window applies them to photos dropped on it too.
  for (const char* flag : {"depth-encoding", "depth-range", "depth-scale", "depth-invalid"})
    if (given(o, flag) && !photo && runsHeadless(o))
      return "--" + std::string(flag) + ": applies only to a --photo (or, in a window, to photos dropped on it)";
  const std::string what = photo ? "a photo" : "a glTF scene";
  if (photo || sceneFile) {
    if (o.quality) return "quality: renders its own scenes at known focal distances, not " + what;
    if (o.resizeStorm) return "resize-storm: runs the built-in scene, not " + what;
    if (given(o, "animate") && o.animate) return "--animate: turns the built-in scenes' teapots; " + what + " has none";
  }
  if (photo && given(o, std::string(opt::msaa.name).c_str()))
    return "--msaa: a photo is not drawn, so there is nothing to anti-alias";
  return std::nullopt;
}

std::optional<std::string> whyNotRunnable(const Options& o) {
  // Without a focal distance the scene suggests one later; any positive one will do here.
  if (const char* why = reference::whyNotACamera(dofParamsOf(o, 1000.0f)))
    return std::string("camera: ") + why;
  if (const SatFormatInfo* f = o.satFormat.empty() ? &defaultSatFormat() : findSatFormat(o.satFormat))
    if (auto why = whyNotMaxBlur(*f, o.dof.params.maxRadius)) return *why;
  return std::nullopt;
}

std::optional<std::string> checkScriptFile(const std::string& file, std::string& text) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status)) return "--script: cannot read " + quoted(std::filesystem::path(file)) + ": no such file";
  if (!std::filesystem::is_regular_file(status)) return "--script: " + quoted(std::filesystem::path(file)) + " is not a file";
  if (std::filesystem::file_size(file, ec) > kMaxScriptBytes)
    return "--script: " + quoted(std::filesystem::path(file)) + " is larger than " + std::to_string(kMaxScriptBytes >> 10) +
           " KiB: not a script";
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) return "--script: cannot read " + quoted(std::filesystem::path(file)) + ": " + std::generic_category().message(errno);
  text.assign(kMaxScriptBytes + 1, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  if (text.size() > kMaxScriptBytes) return "--script: " + quoted(std::filesystem::path(file)) + " is larger than allowed";
  return std::nullopt;
}

std::filesystem::path screenshotSidecar(const std::filesystem::path& screenshot) {
  std::filesystem::path sidecar = screenshot;
  return sidecar.replace_extension(".txt");
}

std::optional<std::string> whyNoScreenshot(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::string("is a folder; name the PNG file to write");
  const std::filesystem::path sidecar = screenshotSidecar(path);
  if (sidecar == path)
    return "its settings go beside it as " + quoted(sidecar) + ", the same name: name the PNG file .png";
  if (auto why = files::whyNotWritable(path)) return why;
  if (auto why = files::whyNotWritable(sidecar)) return "its settings file beside it, " + quoted(sidecar) + ": " + *why;
  return std::nullopt;
}

namespace {

// A benchmark's report (--json, --csv) goes into a folder that exists: none is made for it.
std::optional<std::string> whyNoBenchReport(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::exists(folder, ec)) return "no folder " + quoted(folder);
  return files::whyNotWritable(path);
}

// Whether the run writes into --out: headless frames (unless --save none), and the tools
// that leave their images there. The race and the benchmarks write none.
bool writesIntoOut(const Options& o) {
  if (o.quality || o.precision || o.soak || o.resizeStorm) return true;
  return runsHeadless(o) && o.save != Options::Save::None && !o.race && o.bench.family.empty();
}

}  // namespace

std::optional<std::string> checkOutputs(const Options& o) {
  // Nothing is created here: a run refused later (a flag, a file it cannot read) leaves no
  // empty folder behind. The folders are made with the first file written into them.
  if (writesIntoOut(o)) {
    const std::filesystem::path out = o.outDir.empty() ? "." : o.outDir;
    std::error_code ec;
    const bool exists = std::filesystem::exists(out, ec);
    if (exists && !std::filesystem::is_directory(out, ec)) return "--out: " + quoted(out) + " is not a folder";
    if (auto why = files::whyNoFileIn(out))
      return exists ? "--out: " + *why : "--out: cannot create the folder " + quoted(out) + ": " + *why;
  }
  if (!o.screenshot.empty())
    if (auto why = whyNoScreenshot(o.screenshot))
      return "--screenshot " + quoted(std::filesystem::path(o.screenshot)) + ": " + *why;
  // The tools' reports: their folders are made as --out's are.
  using Report = std::pair<const char*, const std::string*>;
  for (const auto& [flag, path] : {Report{"quality --csv", o.quality ? &o.qualityCsv : nullptr},
                                   Report{"race --csv", o.race ? &o.raceCsv : nullptr}})
    if (path && !path->empty())
      if (auto why = files::whyNotWritable(*path))
        return std::string(flag) + " " + quoted(std::filesystem::path(*path)) + ": " + *why;
  for (const auto& [flag, path] : {Report{"bench --json", &o.bench.jsonPath}, Report{"bench --csv", &o.bench.csvPath}})
    if (!path->empty())
      if (auto why = whyNoBenchReport(*path))
        return std::string(flag) + " " + quoted(std::filesystem::path(*path)) + ": " + *why;
  return std::nullopt;
}

}  // namespace satdof
