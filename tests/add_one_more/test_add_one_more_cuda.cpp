// tests/add_one_more/test_add_one_more_cuda.cpp — one more scan variant, SAT algorithm and
// convolution, each added by a file of this folder alone (scan_test_warp_rows.cu,
// sat_test_two_sweeps.cu, conv_test_row_threads.cu: a static initialiser calls the
// registry's register function), linked into satdof-add-one-more and into this test. Each
// is found in the lists the panel draws (the cuda backend's options and convolutions), the
// command line's choices, the benchmarks' lists, and a verify run on the GPU; the SATs that
// cannot run the variant refuse it in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>
#include <string>

#include "app_run_support.h"
#include "engine/backends/compute_backend.h"
#include "satdof/conv2d.h"
#include "satdof/sat.h"
#include "satdof/scan.h"

namespace {

bool hasChoice(const std::vector<satdof::Choice>& choices, const std::string& name) {
  return std::any_of(choices.begin(), choices.end(), [&](const satdof::Choice& c) { return c.name == name; });
}

// What the panel's combos draw for the cuda backend (PanelLink copies the running backend's
// options() and filterImplementations(), which are these functions of its registry entry).
TEST(AddOneMoreCuda, EachIsInThePanelsLists) {
  const satdof::ComputeBackendInfo* cuda = satdof::findComputeBackend("cuda");
  ASSERT_NE(cuda, nullptr);
  std::map<std::string, std::vector<satdof::Choice>> options;
  for (const satdof::BackendOption& o : cuda->options()) options[o.key] = o.choices;
  EXPECT_TRUE(hasChoice(options["scan"], "test-warp-rows"));
  EXPECT_TRUE(hasChoice(options["sat"], "test-two-sweeps"));
  const auto convs = cuda->filterImplementations();
  EXPECT_TRUE(std::any_of(convs.begin(), convs.end(), [](const auto& f) { return f.name == "test-row-threads"; }));
  // Appended after the listed ones; a second registration of a name is refused.
  EXPECT_EQ(satdof::scanVariants().back().name, "test-warp-rows");
  EXPECT_EQ(satdof::satAlgorithms().back().name, "test-two-sweeps");
  EXPECT_EQ(satdof::convVariants().back().name, "test-row-threads");
  EXPECT_THROW(satdof::registerScanVariant(satdof::scanVariants().back()), std::invalid_argument);
}

TEST(AddOneMoreCuda, TheCommandLineAndTheBenchmarksListThem) {
  const RunResult help = run("--help");
  ASSERT_EQ(help.exitCode, 0) << help.err;
  for (const char* name : {"test-warp-rows: one warp per row", "test-two-sweeps: one thread per row",
                           "test-row-threads: one pixel per thread"})
    EXPECT_NE(help.out.find(name), std::string::npos) << name << "\n" << help.out;
  // Named on the command line: accepted (a machine without CUDA stops later, at the backend:
  // exit 3, not 2); a name nobody registered is a usage error.
  const std::string chosen = "--headless --frames 1 --save none --backend cuda --filter box --radius 2 "
                             "--scan test-warp-rows --sat test-two-sweeps --conv test-row-threads";
  const RunResult accepted = run(chosen + " --size 64x32");
  EXPECT_TRUE(accepted.exitCode == 0 || accepted.exitCode == 3) << accepted.exitCode << ": " << accepted.err;
  EXPECT_EQ(run("--headless --backend cuda --scan test-none").exitCode, 2);
  // The benchmarks' lists: an unknown variant is answered with every known one (before any
  // device is needed).
  for (const auto& [family, names] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"scan", {"test-warp-rows"}}, {"sat", {"test-two-sweeps", "test-warp-rows"}}, {"conv", {"test-row-threads"}}}) {
    const RunResult r = run("bench " + family + " --variant none-such");
    EXPECT_NE(r.exitCode, 0) << family;
    for (const std::string& name : names) EXPECT_NE(r.err.find(" " + name), std::string::npos) << family << ": " << r.err;
  }
}

// The variant has no policy kernels (cuda/sat/by_scan/): the two SAT algorithms built from
// them refuse it in one line, a usage error on any machine (the default SAT is one of
// them), while the other two run it (above). No built-in pair is refused.
TEST(AddOneMoreCuda, TheSatsMadeOfPolicyKernelsRefuseTheVariantInOneLine) {
  const satdof::ScanVariant* added = satdof::findScanVariant("test-warp-rows");
  ASSERT_NE(added, nullptr);
  for (const satdof::SatAlgorithm& a : satdof::satAlgorithms()) {
    const bool refuses = a.name == "reduce-then-scan" || a.name == "single-pass";
    EXPECT_EQ(satdof::whyNotWithScan(a, *added).has_value(), refuses) << a.name;
    for (const satdof::ScanVariant& v : satdof::scanVariants()) {
      if (&v == added) continue;
      EXPECT_FALSE(satdof::whyNotWithScan(a, v)) << a.name << " with " << v.name;
    }
  }
  for (const std::string sat : {"", " --sat reduce-then-scan", " --sat single-pass"}) {
    SCOPED_TRACE(sat);
    const RunResult r = run("--headless --frames 1 --save none --size 64x32 --backend cuda --scan test-warp-rows" + sat);
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.err.find("--scan test-warp-rows: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("policy kernels"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// A verify run on the GPU: the scan inside rows-columns and rows-transpose-rows, the new SAT
// algorithm, and the convolution as filter A, each frame against the CPU reference.
TEST(AddOneMoreCuda, AVerifyRunFindsEachIdenticalToTheReference) {
  // Without bokeh: verify leaves the DoF image unchecked where sprites are drawn on it.
  const std::string common = "--headless --frames 2 --save none --size 641x359 --verify --backend cuda "
                             "--filter gaussian --radius 3 --conv test-row-threads --bokeh off ";
  for (const std::string sat : {"--scan test-warp-rows --sat rows-columns", "--scan test-warp-rows --sat rows-transpose-rows",
                                "--sat test-two-sweeps"}) {
    SCOPED_TRACE(sat);
    const RunResult r = run(common + sat);
    if (r.exitCode == 3) SATDOF_SKIP_WITHOUT_GPU("CUDA backend unavailable: " + r.err);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("verify: SAT (uint32): identical to the reference"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("verify: filter A (test-row-threads, direct arithmetic): identical"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("verify: DoF (compute): identical"), std::string::npos) << r.out;
  }
}

}  // namespace
