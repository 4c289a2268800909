// tests/test_race.cpp — `satdof race` end to end on this machine's GL (llvmpipe in CI):
// on the cpu and gl-compute backends it exits 0, its CSV has exactly the documented
// header and one row per combination that ran (as many as it says it raced, none twice),
// each the reference's bytes; and in a window (Xvfb) the scan keys are never silent: on
// the cpu backend key 1 says it has no scan variants, on gl-compute it names the new
// variant and, a few frames later, the SAT time it gave. Timings are not checked here
// (benchmarks measure; tests check bytes and messages).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "app_run_support.h"

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
  const RunResult r = run("--backend " + backend + " --msaa 1 --size 320x180 --script " + (dir / "script.txt").string(),
                          "XDG_CONFIG_HOME=" + (dir / "config").string() +
                              " xvfb-run -a -s '-screen 0 320x180x24' ");
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

}  // namespace
