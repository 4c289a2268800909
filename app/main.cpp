// app/main.cpp — satdof: parse the command line, then run the app or a benchmark.
// Errors end as one line on stderr and a non-zero exit code (see cli.h).
#include <cstdio>
#include <exception>
#include <string>

#include "app.h"
#include "cli.h"

int main(int argc, char** argv) {
  using namespace satdof;
  const ParseOutcome parsed = parseCommandLine(argc, argv);
  if (!parsed.options) return parsed.exitCode;
  const Options& options = *parsed.options;
  try {
    if (!options.benchFamily.empty()) {
#if SATDOF_HAVE_BENCH
      return bench::runBenchFamily(options.benchFamily, options.bench);
#else
      std::fprintf(stderr, "satdof: bench needs the CUDA backend, which this build lacks\n");
      return kExitFailure;
#endif
    }
    App app(options);
    if (options.quality) return app.runQuality();
    if (options.precision) return app.runPrecision();
    if (options.soak) return app.runSoak();
    if (options.resizeStorm) return app.runResizeStorm();
    return app.run();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "satdof: %s (see --help)\n", e.what());
    return kExitUsage;
  } catch (const BackendUnavailable& e) {
    std::fprintf(stderr, "satdof: %s\n", e.what());
    return kExitBackendUnavailable;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "satdof: %s\n", e.what());
    return kExitFailure;
  }
}
