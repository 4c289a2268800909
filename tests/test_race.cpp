// tests/test_race.cpp — `satdof race` end to end on this machine's GL (llvmpipe in CI):
// on the cpu and gl-compute backends it exits 0, its CSV has exactly the documented
// header and one row per combination that ran (as many as it says it raced, none twice),
// each the reference's bytes; and in a window (Xvfb) the scan keys are never silent: on
// the cpu backend key 1 says it has no scan variants, on gl-compute it names the new
// variant and, a few frames later, the SAT time it gave. Timings are not checked here
// (benchmarks measure; tests check bytes and messages).
// The user's own configuration is what a race leaves, however it ends: in a headless app
// (the race driven step by step, the same code the window runs) a race that ends, one that
// is stopped, and one stopped the way the panel's Stop button does it each give back the SAT
// format, every backend choice and the max blur exactly (what the settings file would save
// is the same before and after); in a window closed while the race runs, it says so.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "app_run_support.h"

#if __has_include("app/app.h")  // test_race links satdof_app (tests/app_tests.cmake)
#include <memory>

#include "app/app.h"
#include "engine/content/content.h"
#include "settings/cli.h"
#include "settings/settings_store.h"
#include "qa/race_runner.h"
#define SATDOF_RACE_IN_PROCESS 1
#endif
#include "engine/backends/gl_scan_sat.h"  // the gl-compute scan variants (keys, time-scans)

namespace {

const char* kHeader = "stage,algorithm,variant,format,ms,gbps,pct_copy,same_bytes";
const std::set<std::string> kFormats = {"uint32", "float32", "float32-offset", "uint21x3"};

std::vector<std::string> split(const std::string& line, char by) {
  std::vector<std::string> parts;
  std::stringstream ss(line);
  for (std::string part; std::getline(ss, part, by);) parts.push_back(part);
  return parts;
}

struct RaceRun {
  RunResult result;
  std::string header;
  std::vector<std::vector<std::string>> rows;
  int raced = -1;  // "N combinations raced" on stdout
};

RaceRun race(const std::string& backend, const std::string& name) {
  const fs::path dir = freshDir(name);
  fs::create_directories(dir);
  const fs::path csv = dir / "race.csv";
  RaceRun r;
  r.result = run("race --backend " + backend + " --size 64x48 --repeats 2 --csv " + csv.string());
  const std::vector<std::string> lines = split(slurp(csv), '\n');
  if (!lines.empty()) r.header = lines.front();
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (!lines[i].empty()) r.rows.push_back(split(lines[i], ','));
  std::smatch m;
  if (std::regex_search(r.result.out, m, std::regex("(\\d+) combinations raced"))) r.raced = std::stoi(m[1]);
  fs::remove_all(dir);
  return r;
}

// Exactly the header, one row per combination raced (none twice), every row the
// reference's bytes with a time; the formats and stages each appear.
void expectWellFormed(const RaceRun& r, std::size_t convolutions) {
  ASSERT_EQ(r.result.exitCode, 0) << r.result.out << r.result.err;
  EXPECT_EQ(r.header, kHeader);
  EXPECT_EQ(int(r.rows.size()), r.raced) << r.result.out;
  std::set<std::tuple<std::string, std::string, std::string, std::string>> seen;
  std::set<std::string> formats;
  std::size_t conv = 0;
  for (const auto& row : r.rows) {
    ASSERT_EQ(row.size(), 8u);
    EXPECT_TRUE(seen.insert({row[0], row[1], row[2], row[3]}).second) << "twice: " << row[1] << " " << row[3];
    EXPECT_EQ(row[7], "true") << row[0] << " " << row[1] << " " << row[2] << " " << row[3];
    EXPECT_GT(std::stod(row[4]), 0.0) << row[1];
    if (row[0] == "sat") formats.insert(row[3]);
    conv += row[0] == "conv";
  }
  EXPECT_EQ(formats, kFormats);
  EXPECT_EQ(conv, convolutions);
  EXPECT_NE(r.result.out.find("|"), std::string::npos) << "no bar chart: " << r.result.out;
  EXPECT_NE(r.result.out.find("* "), std::string::npos) << "the current choice is not marked: " << r.result.out;
}

TEST(AppRace, CpuBackendRacesEveryFormatAndConvolutionWithTheReferenceBytes) {
  const RaceRun r = race("cpu", "race_cpu");
  expectWellFormed(r, 3);
  EXPECT_EQ(r.rows.size(), 4u + 3u);  // the reference SAT in four formats, three convolutions
}

TEST(AppRace, GlComputeBackendRacesEveryCombinationWithTheReferenceBytes) {
  const RaceRun r = race("gl-compute", "race_gl");
  if (r.result.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("gl-compute unavailable here: " + r.result.err);
  expectWellFormed(r, 4);
  EXPECT_GT(r.rows.size(), 4u * 2u + 4u) << r.result.out;  // algorithms x scans x formats
}

// A window of 320x180 on `backend` that presses `keys` (script lines) and quits.
RunResult pressKeys(const std::string& backend, const std::string& keys, const std::string& name) {
  const fs::path dir = freshDir(name);
  fs::create_directories(dir);
  std::ofstream(dir / "script.txt") << "wait 2\n" << keys << "quit\n";
  const RunResult r =
      runUnderXvfb("--backend " + backend + " --msaa 1 --size 320x180 --script " + (dir / "script.txt").string(),
                   "320x180x24", "XDG_CONFIG_HOME=" + (dir / "config").string() + " ");
  fs::remove_all(dir);
  return r;
}

TEST(AppRace, ScanKeyOnTheCpuBackendSaysItHasNoScanVariants) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const RunResult r = pressKeys("cpu", "key 1\nwait 2\n", "race_key_cpu");
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("satdof: the cpu backend has no scan variants"), std::string::npos) << r.out;
}

TEST(AppRace, ScanKeyOnGlComputeNamesTheVariantAndThenItsSatTime) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const RunResult r = pressKeys("gl-compute", "key 1\nwait 16\n", "race_key_gl");
  if (r.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("gl-compute unavailable here: " + r.err);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("satdof: scan variant [a-z0-9-]+\n"))) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("satdof: scan variant [a-z0-9-]+: SAT [0-9.]+ ms"))) << r.out;
}

// The gl-compute scan variants this GL runs, in the list's order (keys 1-9 and the panel's
// table number these), from the start line's GL: those needing subgroups only where it
// has them.
std::vector<std::string> runnableGlScans(const std::string& out) {
  const bool noSubgroups = out.find("GL_KHR_shader_subgroup arithmetic, which this GL lacks") != std::string::npos;
  std::vector<std::string> names;
  for (const satdof::GlScanVariant& v : satdof::glScanVariants())
    if (!(v.subgroups && noSubgroups)) names.push_back(std::string(v.name));
  return names;
}

// Keys number the variants the backend runs here: key 5 on gl-compute picks the fifth of
// those (on a GL without subgroups, subgroup is passed over, not refused).
TEST(AppRace, ScanKeysNumberTheVariantsThatRunHere) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const RunResult r = pressKeys("gl-compute", "key 5\nwait 2\nkey 2\nwait 2\n", "race_key_numbers");
  if (r.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("gl-compute unavailable here: " + r.err);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const std::vector<std::string> runs = runnableGlScans(r.out);
  ASSERT_GE(runs.size(), 5u);
  EXPECT_NE(r.out.find("satdof: scan variant " + runs[4] + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("satdof: scan variant " + runs[1] + "\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("subgroup"), std::string::npos) << r.err;
}

// The panel's "time each variant" (a script's time-scans): every variant that runs here,
// in the keys' order, gets a measured SAT time on stdout; the user's variant comes back
// (the screenshot's settings after it hold it).
TEST(AppRace, TimeEachVariantTimesEveryVariantThatRunsAndGivesTheUsersBack) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("race_time_scans");
  fs::create_directories(dir);
  std::ofstream(dir / "script.txt") << "wait 2\nkey 2\nwait 2\ntime-scans\nwait 2\nscreenshot "
                                    << (dir / "after.png").string() << "\nwait 1\nquit\n";
  const RunResult r =
      runUnderXvfb("--backend gl-compute --msaa 1 --size 320x180 --script " + (dir / "script.txt").string(),
                   "320x180x24", "XDG_CONFIG_HOME=" + (dir / "config").string() + " ");
  if (r.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("gl-compute unavailable here: " + r.err);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const std::vector<std::string> runs = runnableGlScans(r.out);
  const std::size_t at = r.out.find("satdof: SAT time by scan variant (");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::istringstream table(r.out.substr(at));
  std::string line;
  std::getline(table, line);  // the header
  for (std::size_t i = 0; i < runs.size(); ++i) {
    ASSERT_TRUE(std::getline(table, line)) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, std::regex(" +([0-9]+) +([a-z0-9-]+) +([0-9.]+) ms"))) << line;
    EXPECT_EQ(m[1].str(), std::to_string(i + 1));
    EXPECT_EQ(m[2].str(), runs[i]);
    EXPECT_GT(std::stod(m[3].str()), 0.0) << line;
  }
  EXPECT_TRUE(!std::getline(table, line) || line.rfind("  ", 0) != 0) << "a row too many: " << line;
  const std::string settings = slurp(dir / "after.txt");
  EXPECT_NE(settings.find("scan=" + runs[1] + "\n"), std::string::npos) << "key 2's variant is back: " << settings;
  fs::remove_all(dir);
}

// A window of 320x180 on the cpu backend that starts a race and closes `frames` frames
// later, while it runs: the race gives the user's choices back, and says so, before the
// app's summary (and, without a script, the settings file) reads them.
TEST(AppRace, AWindowClosedWhileARaceRunsGivesTheUsersChoicesBack) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("race_close");
  fs::create_directories(dir);
  std::ofstream(dir / "script.txt") << "race\n";
  const RunResult r = runUnderXvfb(
      "--backend cpu --msaa 1 --size 320x180 --sat-format float32 --frames 2 --script " + (dir / "script.txt").string(),
      "320x180x24");
  fs::remove_all(dir);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  ASSERT_NE(r.out.find("race of the cpu backend's kernels started"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("satdof: race stopped after \\d+ of \\d+ rows; back to "
                                                  "sat-format float32, sat reference\n")))
      << r.out;
}

#if SATDOF_RACE_IN_PROCESS
// A headless app on the cpu backend at 64x48 with `flags`, its first frame rendered.
std::unique_ptr<satdof::App> headlessApp(std::vector<std::string> flags) {
  flags.insert(flags.begin(), {"satdof", "--headless", "--backend", "cpu", "--size", "64x48"});
  std::vector<char*> argv;
  for (std::string& f : flags) argv.push_back(f.data());
  const satdof::ParseOutcome parsed = satdof::parseCommandLine(int(argv.size()), argv.data());
  if (!parsed.options) return nullptr;
  const satdof::Options& o = *parsed.options;
  auto app = std::make_unique<satdof::App>(
      o, std::map<std::string, std::string>{},
      satdof::content::loadContent({o.scene, o.photo, o.depth, o.depthMapping}));
  app->renderer().renderFrame();
  app->renderer().endFrame();
  return app;
}

// What the settings file would keep of the app now: the user's configuration.
satdof::SettingsEntries saved(const satdof::App& app) { return satdof::settingsOf(app.currentOptions(), {}); }

// A race stepped until the app shows a candidate of its own (not the user's choice).
void stepUntilACandidateShows(satdof::Race& race, const satdof::App& app, const satdof::SettingsEntries& user) {
  for (int i = 0; i < 1000 && saved(app) == user && !race.done(); ++i) race.step(0.001);
  ASSERT_NE(saved(app), user) << "the race never showed a candidate";
}

// The gl-compute backend's start names its scan variant on one line, once, with why it is
// not the default where it is not: stdout names exactly one GLSL variant, one time, and it
// is the one the frames' SAT ran (the profiler's tag) and the backend reports.
TEST(RaceInProcess, GlComputeStartNamesTheScanVariantTheFrameUsesOnce) {
  std::vector<std::string> flags = {"satdof", "--headless", "--backend", "gl-compute", "--size", "64x48"};
  std::vector<char*> argv;
  for (std::string& f : flags) argv.push_back(f.data());
  const satdof::ParseOutcome parsed = satdof::parseCommandLine(int(argv.size()), argv.data());
  ASSERT_TRUE(parsed.options);
  const satdof::Options& o = *parsed.options;
  std::unique_ptr<satdof::App> app;
  testing::internal::CaptureStdout();
  try {
    app = std::make_unique<satdof::App>(o, std::map<std::string, std::string>{},
                                        satdof::content::loadContent({o.scene, o.photo, o.depth, o.depthMapping}));
    for (int i = 0; i < 3; ++i) {
      app->renderer().renderFrame();
      app->renderer().endFrame();
    }
    app->renderer().drainProfilers();
  } catch (const std::exception& e) {
    testing::internal::GetCapturedStdout();
    SATDOF_SKIP_WITHOUT_GL(std::string("no gl-compute backend here: ") + e.what());
  }
  std::fflush(stdout);
  const std::string out = testing::internal::GetCapturedStdout();
  std::vector<std::string> named;
  for (const satdof::GlScanVariant& v : satdof::glScanVariants()) {
    // A name as a word of its own: not the "subgroup" of GL_KHR_shader_subgroup.
    const std::regex word("(^|[^A-Za-z0-9_-])" + std::string(v.name) + "($|[^A-Za-z0-9_-])");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), word); it != std::sregex_iterator(); ++it)
      named.push_back(std::string(v.name));
  }
  ASSERT_EQ(named.size(), 1u) << out;
  const satdof::ComputeBackend& backend = app->renderer().pipeline().backend();
  EXPECT_EQ(backend.selected("scan"), named[0]);
  EXPECT_NE(out.find("satdof: scan variant " + named[0]), std::string::npos) << out;
  const auto& tags = app->renderer().pipeline().history().tagTimes("sat");
  ASSERT_EQ(tags.size(), 1u);
  EXPECT_EQ(tags.begin()->first, satdof::satSectionTag(backend.selected("sat"), named[0]));
}

TEST(RaceInProcess, EndedStoppedOrStoppedFromThePanelTheUsersConfigurationComesBackExactly) {
  std::unique_ptr<satdof::App> app;
  try {
    // Not the race's first format, and a blur that uint21x3 lowers (to 44) while it runs.
    app = headlessApp({"--sat-format", "float32", "--max-blur", "60"});
  } catch (const std::exception& e) {
    SATDOF_SKIP_WITHOUT_GL(std::string("no headless GL here: ") + e.what());
  }
  ASSERT_TRUE(app);
  const satdof::SettingsEntries user = saved(*app);
  const satdof::RaceSettings quick{1, 2};
  {  // run to its end
    satdof::Race race(app->renderer(), quick);
    EXPECT_TRUE(race.step(0));
    EXPECT_FALSE(race.stopped());
    EXPECT_EQ(saved(*app), user);
  }
  {  // stopped while a candidate shows
    satdof::Race race(app->renderer(), quick);
    stepUntilACandidateShows(race, *app, user);
    testing::internal::CaptureStdout();
    race.stop();
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_TRUE(race.done() && race.stopped());
    EXPECT_EQ(saved(*app), user);
    EXPECT_NE(out.find("; back to sat-format float32, sat reference\n"), std::string::npos) << out;
    EXPECT_EQ(app->renderer().settings().dof.params.maxRadius, 60.0f);
    for (const satdof::RaceEntry& e : race.entries())
      EXPECT_TRUE(e.checked) << e.label() << ": a row neither checked nor said to be unchecked";
    EXPECT_TRUE(race.step(30)) << "a stopped race stays done";
    EXPECT_EQ(saved(*app), user);
  }
  {  // the panel's Stop button: a request the next step makes
    satdof::Race race(app->renderer(), quick);
    stepUntilACandidateShows(race, *app, user);
    race.requestStop();
    testing::internal::CaptureStdout();
    EXPECT_TRUE(race.step(30));
    testing::internal::GetCapturedStdout();
    EXPECT_TRUE(race.stopped());
    EXPECT_EQ(saved(*app), user);
    EXPECT_EQ(race.status().rfind("stopped", 0), 0u) << race.status();
  }
}
#else
TEST(RaceInProcess, NeedsTheAppLibrary) {
  FAIL() << "test_race is not linked with satdof_app: add target_link_libraries(test_race PRIVATE satdof_app) "
            "to tests/app_tests.cmake";
}
#endif

}  // namespace
