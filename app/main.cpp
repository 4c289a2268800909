// app/main.cpp — satdof: parse the command line, read the settings file, then run the app
// or a benchmark. Errors end as one line on stderr and a non-zero exit code (see cli.h).
// stdout is line-buffered even when redirected, so that a log or a pipe gets each line as
// it is printed (and in order with stderr's), not at exit. The shaders' folder is said
// first (or, where there is none, why the run cannot start). The content (a built-in scene,
// a glTF file, a photo and its depth) is read before the app opens any window: a bad file
// is one line and exit code 2. SIGINT and SIGTERM stop the frames at a boundary, every file
// written whole, and exit with 128 + the signal (130, 143).
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "app/app.h"
#include "engine/content/content.h"
#include "engine/content/content_error.h"
#include "engine/files/interrupt.h"
#if SATDOF_HAVE_BENCH
#include "bench.h"
#endif
#include "engine/gl/program.h"
#include "lesson/lesson_tool.h"
#include "settings/cli.h"
#include "settings/cli_checks.h"
#include "settings/settings_store.h"
#include "qa/tools.h"

int main(int argc, char** argv) {
  using namespace satdof;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const ParseOutcome parsed = parseCommandLine(argc, argv);
  if (!parsed.options) return parsed.exitCode;
  Options options = *parsed.options;
  try {
    if (!options.bench.family.empty()) {
#if SATDOF_HAVE_BENCH
      const Options::BenchRequest& b = options.bench;
      return bench::runBenchFamily(b.family, {b.jsonPath, b.csvPath, b.variants, b.warmup, b.repeats, b.quick});
#else
      std::fprintf(stderr, "satdof: bench needs the CUDA backend, which this build lacks\n");
      return kExitBackendUnavailable;
#endif
    }
    if (options.lesson.topic == "scan") {
      const Options::LessonRequest& l = options.lesson;
      return lesson::runScanLesson({l.variant, l.n, l.blocks, static_cast<unsigned>(l.seed), l.outDir,
                                    {options.backend == "gl-compute", l.subgroupSize}});
    }
    if (options.lesson.topic == "sat") {
      const Options::LessonRequest& l = options.lesson;
      return lesson::runSatLesson({l.variant, l.n, static_cast<unsigned>(l.seed), l.outDir});
    }
    if (options.lesson.topic == "conv") {
      const Options::LessonRequest& l = options.lesson;
      return lesson::runConvLesson({l.variant, l.radius, l.border == "clamp", static_cast<unsigned>(l.seed), l.outDir,
                                    options.backend == "gl-compute" ? lesson::ConvBackend::GlCompute
                                                                    : lesson::ConvBackend::Cuda});
    }
    // Settings between runs belong to the interactive window; headless and scripted runs
    // are reproducible from their command line (and script) alone.
    const bool settingsApply = !runsHeadless(options) && options.script.empty() && !options.quality && !options.resizeStorm;
    const bool useSettings = settingsApply && !options.noSettings;
    if (!settingsApply && options.given.count("no-settings"))
      std::printf("satdof: note: --no-settings has no effect here: %s never reads or writes the settings file\n",
                  runsHeadless(options) ? "a headless run" : "a scripted or tool run");
    std::printf("satdof: shaders from %s\n", gl::findShaderDir().c_str());
    const auto path = settingsPath();
    const auto ui = useSettings ? loadSettings(path, options) : std::map<std::string, std::string>{};
    content::Content content;
    try {
      content = content::loadContent({options.scene, options.photo, options.depth, options.depthMapping, options.stage});
    } catch (const content::ContentError& e) {
      std::fprintf(stderr, "satdof: %s\n", e.what());
      return kExitUsage;
    }
    for (const std::string& w : content.warnings) std::fprintf(stderr, "satdof: warning: %s\n", w.c_str());
    // Headless, a photo is rendered at its own size unless --size says otherwise.
    if (content.photo && runsHeadless(options) && !options.given.count("size"))
      options.size = {content.photo->colour.width, content.photo->colour.height};
    // Before any GL: the soak's software-GL setting (qa/tools.h).
    if (options.soak) prepareSoakEnvironment();
    // From here SIGINT and SIGTERM end the run at a frame boundary (engine/files/interrupt.h): a
    // file being written is finished, and the exit code says which signal ended it.
    files::installInterruptHandlers();
    App app(options, ui, std::move(content));
    const int code = options.quality       ? runQuality(app.renderer(), app.options())
                     : options.precision   ? runPrecision(app.renderer(), app.options())
                     : options.soak        ? runSoak(app.renderer(), app.options())
                     : options.race        ? runRace(app.renderer(), app.options())
                     : options.resizeStorm ? runResizeStorm(app, app.options())
                                           : app.run();
    if (useSettings && !path.empty())
      if (auto why = writeSettings(path, settingsOf(app.currentOptions(), app.uiSettings())))
        std::fprintf(stderr, "satdof: warning: settings not saved: %s\n", why->c_str());
    if (files::interrupted()) {
      std::fprintf(stderr, "satdof: stopped by %s\n", files::interruptName());
      return files::interruptExitCode();
    }
    return code;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "satdof: %s (see --help)\n", e.what());
    return kExitUsage;
  } catch (const BackendUnavailable& e) {
    std::fprintf(stderr, "satdof: %s\n", e.what());
    return kExitBackendUnavailable;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "satdof: out of memory (a smaller --size, or fewer frames kept, may fit)\n");
    return kExitFailure;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "satdof: %s\n", e.what());
    return kExitFailure;
  }
}
