// qa/soak.cpp — `satdof soak`: many headless frames while every registry entry is
// switched at random every few frames (scan variant, SAT algorithm and format, filter and
// convolutions A/B, DoF implementation, camera model and aperture, view, bokeh). Every
// --check-every frames it records the process's resident memory and the GPU's free memory
// (where GL reports it: GL_NVX_gpu_memory_info), and renders the current settings afresh
// in a new satdof process to compare the image byte for byte. A failed switch that was not
// refused with a reason, a mismatch, or memory that keeps growing fails the run (exit 1).
#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>
#include <unistd.h>

#include "engine/renderer/renderer.h"
#include "engine/files/interrupt.h"
#include "qa/fresh_render.h"
#include "engine/image/image_io.h"
#include "qa/process_memory.h"
#include "qa/tools.h"
#include "settings/renderer_options.h"

namespace satdof {
namespace {

constexpr GLenum kNvxAvailableKb = 0x9049;  // GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX

std::optional<long> gpuAvailableKb() {
  GLint extensions = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &extensions);
  bool nvx = false;
  for (GLint i = 0; i < extensions && !nvx; ++i)
    nvx = std::string_view(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)))) ==
          "GL_NVX_gpu_memory_info";
  if (!nvx) return std::nullopt;
  GLint kb = -1;
  glGetIntegerv(kNvxAvailableKb, &kb);
  return kb < 0 ? std::nullopt : std::optional<long>(kb);
}

// Memory read in one and the same configuration at every check, so that what a
// configuration holds only while it is in use (B's whole pipeline while a view compares,
// the layered DoF's tables, a float format's wider SAT) is not read as growth: the
// default configuration renders a few frames, the least resident memory of them is
// taken (a frame's host buffers come and go), and the run's own configuration returns.
struct Measured {
  long residentKiB = 0;
  std::optional<long> gpuFreeKiB;
};

Measured measureInDefaultConfiguration(Renderer& renderer) {
  Pipeline& pipeline = renderer.pipeline();
  FrameSettings& settings = renderer.settings();
  const FrameSettings kept = settings;
  const std::string keptDof(pipeline.dofEntry().name);
  const std::string keptFormat(satFormatInfo(pipeline.targets().satFormat).name);
  const CompareFields keptFields = renderer.comparison().fields;
  BackendSelections keptSelections, defaults;
  for (const BackendOption& o : pipeline.backendOptions()) {
    keptSelections[o.key] = pipeline.backend().selected(o.key);
    defaults[o.key] = o.defaultChoice;
  }
  settings.filter.enabled = false;
  settings.view.mode = ViewMode::Final;
  settings.bokeh.enabled = false;
  renderer.comparison().fields.clear();
  renderer.setSatFormat(std::string(defaultSatFormat().name));
  renderer.applyChoices(std::string(defaultDofImplementation().name), defaults);
  Measured m{std::numeric_limits<long>::max(), std::nullopt};
  for (int i = 0; i < 4; ++i) {
    renderer.renderFrame();
    renderer.endFrame();
    glFinish();
    m.residentKiB = std::min(m.residentKiB, residentKiB());
    m.gpuFreeKiB = gpuAvailableKb();
  }
  settings = kept;
  renderer.comparison().fields = keptFields;
  renderer.setSatFormat(keptFormat);
  renderer.applyChoices(keptDof, keptSelections);
  return m;
}

}  // namespace

void prepareSoakEnvironment() {
  // Only Mesa's llvmpipe reads it (not the NVIDIA driver, not the CPU backend's threads).
  // Its rasterizer threads keep each binned scene's 64 KiB blocks until that scene is
  // reused, so a reading holds 17-20 MiB more at one check than at the next with the same
  // settings; rasterizing on the calling thread, one scene, the readings move by ~1 MiB.
  if (!std::getenv("LP_NUM_THREADS")) setenv("LP_NUM_THREADS", "0", 1);
}

int runSoak(Renderer& renderer, const Options& options) {
  if (const char* threads = std::getenv("LP_NUM_THREADS"); threads && renderer.context().softwareRenderer())
    std::printf("satdof soak: the software GL rasterizes with LP_NUM_THREADS=%s%s\n", threads,
                std::string(threads) == "0" ? " (on this thread: its threads' binning pool would swing the memory "
                                              "readings by up to 20 MiB; set LP_NUM_THREADS to soak with them)"
                                            : "");
  Pipeline& pipeline = renderer.pipeline();
  FrameSettings& settings = renderer.settings();
  FilterSettings& filter = settings.filter;
  CompareFields& compareFields = renderer.comparison().fields;
  std::mt19937 rng(options.soakSeed);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  const std::filesystem::path outDir = std::filesystem::path(options.outDir);  // made with its first PNG
  const char* views[] = {"final", "filtered", "split", "diff"};
  const FilterKind kinds[] = {FilterKind::Box, FilterKind::Gaussian, FilterKind::Sharpen};
  int failures = 0, switches = 0, refused = 0;
  std::vector<Measured> memory;
  int nextSwitch = 0;
  int rendered = 0;
  for (int frame = 0; frame < options.frames; ++frame) {
    if (files::interrupted()) break;  // SIGINT, SIGTERM: at a frame boundary, every PNG whole
    rendered = frame + 1;
    if (frame == nextSwitch) {
      nextSwitch = frame + 2 + int(pick(7));
      ++switches;
      switch (pick(7)) {
        case 0:  // a backend option: scan variant, SAT algorithm, ...
          if (!pipeline.backendOptions().empty()) {
            const BackendOption& o = pipeline.backendOptions()[pick(pipeline.backendOptions().size())];
            if (pipeline.backend().select(o.key, o.choices[pick(o.choices.size())].name)) ++refused;
          }
          break;
        case 1:
          renderer.setSatFormat(std::string(satFormats()[pick(satFormats().size())].name));
          break;
        case 2: {  // the filter, its implementations (only those that run it)
          FilterSettings f = filter;
          f.enabled = pick(2) == 0;
          f.kind = kinds[pick(3)];
          f.radius = 1 + int(pick(7));
          std::vector<std::string> usable;
          if (f.enabled)
            for (const FilterImplementation& impl : pipeline.filterImplementations())
              if (!impl.whyNot(f.build())) usable.push_back(impl.name);
          if (f.enabled && usable.empty()) f.enabled = false;
          if (f.enabled) f.implementation = usable[pick(usable.size())];
          if (!pipeline.backendPass().check(f)) {
            filter = f;
            compareFields.erase("conv");  // B's convolution: A's, or another that runs the filter
            if (f.enabled && pick(2) == 0) compareFields["conv"] = usable[pick(usable.size())];
          }
          break;
        }
        case 3: {
          std::vector<const DofEntry*> usable;
          for (const DofEntry& e : dofImplementations())
            if (!e.whyNot(pipeline.backend())) usable.push_back(&e);
          renderer.applyChoices(std::string(usable[pick(usable.size())]->name), {});
          compareFields.erase("dof");  // and B's: A's, or another this backend runs
          if (pick(2) == 0) compareFields["dof"] = std::string(usable[pick(usable.size())]->name);
          break;
        }
        case 4:
          settings.view.mode = *viewModeFromName(views[pick(4)]);
          break;
        case 5:
          settings.dof.params.model = pick(2) ? reference::CocModel::ThinLens : reference::CocModel::Linear;
          settings.dof.params.focalDistance = 2.0f + float(pick(30));
          settings.dof.params.aperture = pick(2) ? reference::Aperture::Disc : reference::Aperture::Box;
          break;
        default:
          settings.bokeh.enabled = pick(2) == 0;
          settings.bokeh.blades = pick(3) == 0 ? 0 : kMinBlades + int(pick(kMaxBlades - kMinBlades + 1));
          break;
      }
      // Only states the command line can also express (so a fresh process can render them):
      // the filtered view needs a filter.
      if (!filter.enabled && showsFilterOutput(settings.view.mode)) settings.view.mode = ViewMode::Final;
      if (!filter.enabled) compareFields.erase("conv");
    }
    renderer.renderFrame();
    renderer.endFrame();
    if (options.soakCheckEvery <= 0 || (frame + 1) % options.soakCheckEvery != 0) continue;

    // The same settings rendered by a fresh process, then memory.
    glFinish();
    const auto shown = outDir / ("soak_" + std::to_string(frame + 1) + ".png");
    const Extent extent = renderer.extent();
    writePng(shown, readFramebuffer(renderer.shownFramebuffer(), extent.width, extent.height));
    const auto freshDir = outDir / ("fresh_" + std::to_string(frame + 1));
    // Every live option from the one table (settings/renderer_options.h), as the renderer holds it.
    const std::string cmd = commandLineOf(optionsOf(renderer, options));
    const FreshRender fresh = renderFreshAndCompare(cmd, extent, freshDir, shown);
    const bool same = fresh.same;
    if (!same) ++failures;
    memory.push_back(measureInDefaultConfiguration(renderer));
    const long rss = memory.back().residentKiB;
    const std::optional<long> gpu = memory.back().gpuFreeKiB;
    std::printf("satdof soak: frame %d: %s; in the default configuration resident %ld MiB, GPU free %s%s\n", frame + 1,
                same ? "same as a fresh render" : "DIFFERS from a fresh render", rss / 1024,
                gpu ? (std::to_string(*gpu / 1024) + " MiB").c_str() : "n/a",
                same ? "" : (" (" + fresh.command + ")").c_str());
    std::fflush(stdout);
    if (same) {
      std::filesystem::remove(shown);
      std::filesystem::remove_all(freshDir);
    }
  }
  renderer.drainProfilers();
  // Flat: after a warm-up (the first quarter of the checks, at least one: caches and
  // pools that fill as new configurations are seen), the default configuration's memory
  // shows no trend: the least-squares line through the checks rises less than kFlatKiB
  // from the first to the last, resident and (where GL reports it) on the GPU. A leak is
  // a trend; what Mesa's software GL holds one check and not the next (with its rasterizer
  // threads, up to ~20 MiB of resident memory with the same settings: prepareSoakEnvironment)
  // is not.
  // A trend needs points: at least kTrendChecks after the warm-up (fewer: no verdict, said).
  constexpr double kFlatKiB = 16 * 1024;
  constexpr std::size_t kTrendChecks = 4;
  const std::size_t warmUp = std::max<std::size_t>(1, memory.size() / 4);
  const bool judged = kResidentMemoryMeaningful && memory.size() >= warmUp + kTrendChecks;
  bool flat = true;
  if (judged) {
    // The fitted change from the first check after the warm-up to the last.
    auto fittedRise = [&](auto value) {
      double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (std::size_t i = warmUp; i < memory.size(); ++i) {
        const double x = double(i), y = double(value(memory[i]));
        n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
      }
      const double den = n * sxx - sx * sx;
      return den > 0 ? (n * sxy - sx * sy) / den * double(memory.size() - 1 - warmUp) : 0.0;
    };
    long lo = std::numeric_limits<long>::max(), hi = 0;
    bool gpu = true;
    for (std::size_t i = warmUp; i < memory.size(); ++i) {
      lo = std::min(lo, memory[i].residentKiB);
      hi = std::max(hi, memory[i].residentKiB);
      gpu = gpu && memory[i].gpuFreeKiB.has_value();
    }
    const double rise = fittedRise([](const Measured& m) { return m.residentKiB; });
    const double gpuUsedRise = gpu ? -fittedRise([](const Measured& m) { return *m.gpuFreeKiB; }) : 0.0;
    flat = rise < kFlatKiB && gpuUsedRise < kFlatKiB;
    std::printf("satdof soak: in the default configuration, checks %zu to %zu (after %zu of warm-up): resident %ld to "
                "%ld MiB, trend %+.1f MiB over them; GPU memory in use trend %s; flat means a trend under %.0f MiB\n",
                warmUp + 1, memory.size(), warmUp, lo / 1024, hi / 1024, rise / 1024,
                gpu ? (std::to_string(gpuUsedRise / 1024) + " MiB").c_str() : "n/a", kFlatKiB / 1024);
  }
  std::printf("satdof soak: %d frames%s, %d switches (%d refused with a reason), %d mismatches, memory %s\n",
              rendered, rendered < options.frames ? " (stopped early)" : "", switches, refused, failures,
              !judged ? ("not judged (" + std::to_string(memory.size()) + " checks; a trend needs " +
                         std::to_string(kTrendChecks) + " after a warm-up of a quarter)").c_str()
              : flat  ? "flat"
                      : "GROWING");
  return failures == 0 && flat ? kExitOk : kExitFailure;
}

}  // namespace satdof
