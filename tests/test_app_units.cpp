// tests/test_app_units.cpp — the satdof executable with the scene's own units and real
// depth maps, end to end:
//   * a headless run is repeatable: its time advances 1/30 s a frame, so an autofocus pull
//     (animated over time) writes the same PNG bytes in every run of the same command;
//   * distances follow the content's units: --focal 1200 and --focal-range 5000 run (a
//     millimetre model focuses there), 0, negatives, nan, inf and 1e39 are refused;
//   * a sensor's depth map in units per metre (--depth-scale) runs, with its holes said in
//     the summary; --depth-scale with --depth-range, or of 0, is one line and exit 2.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "app_run_support.h"
#include "content_files.h"

namespace {

std::vector<std::string> pngBytes(const fs::path& folder, int frames) {
  std::vector<std::string> bytes;
  for (int i = 0; i < frames; ++i) {
    const fs::path p = folder / ("frame_000" + std::to_string(i) + ".png");
    std::ifstream in(p, std::ios::binary);
    bytes.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return bytes;
}

TEST(AppUnits, HeadlessAutofocusWritesTheSameBytesEveryRun) {
  std::vector<std::vector<std::string>> runs;
  for (int run = 0; run < 3; ++run) {
    const fs::path out = freshDir("units_repeat_" + std::to_string(run));
    const RunResult r = ::run("--headless --autofocus centre --frames 4 --save all --backend cpu "
                              "--size 160x90 --out " + out.string());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    runs.push_back(pngBytes(out, 4));
    for (const std::string& b : runs.back()) ASSERT_FALSE(b.empty()) << "run " << run;
    fs::remove_all(out);
  }
  // The pull is under way in these frames (it takes 9): they differ from one another...
  EXPECT_NE(runs[0][1], runs[0][3]) << "the focus pull moves between frames";
  // ... and every run writes the same ones.
  for (int run = 1; run < 3; ++run)
    for (int f = 0; f < 4; ++f) EXPECT_TRUE(runs[run][std::size_t(f)] == runs[0][std::size_t(f)]) << "run " << run << " frame " << f;
}

TEST(AppUnits, DistancesInTheScenesOwnUnits) {
  const fs::path out = freshDir("units_large");
  const RunResult r = run("--headless --focal 1200 --focal-range 5000 --frames 1 --backend cpu "
                          "--size 64x36 --out " + out.string());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("focus at 1200, focal range 5000"), std::string::npos) << r.out;
  fs::remove_all(out);
  for (const char* args : {"--focal 0", "--focal -3", "--focal nan", "--focal inf", "--focal 1e39", "--focal-range 0",
                           "--focal-range -1", "--focal-range 1e39"}) {
    SCOPED_TRACE(args);
    const RunResult bad = run(std::string("--headless ") + args);
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    EXPECT_EQ(bad.err.rfind("satdof: --focal", 0), 0u) << bad.err;
  }
}

TEST(AppUnits, ASensorsDepthMapInUnitsPerMetre) {
  content_files::TempFolder folder{"satdof_test_app_units"};
  const int w = 64, h = 36;
  const content_files::Photo p = content_files::makePhoto(w, h);
  std::vector<std::uint16_t> mm(p.depth.size());
  for (std::size_t i = 0; i < mm.size(); ++i) mm[i] = i % 7 == 0 ? 0 : std::uint16_t(std::lround(p.depth[i] * 1000.0f));
  content_files::writePng8(folder.path / "room.png", w, h, 3, p.rgb);
  content_files::writePng16(folder.path / "room_depth.png", w, h, mm);
  const std::string photo = "--photo " + (folder.path / "room.png").string() + " --depth " +
                            (folder.path / "room_depth.png").string();
  const fs::path out = freshDir("units_sensor");
  const RunResult r = run("--headless --frames 1 --backend cpu --out " + out.string() + " " + photo +
                          " --depth-scale 1000");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("16-bit PNG, 1000 units/m, 14.3 % holes filled"), std::string::npos) << r.out;
  fs::remove_all(out);
  const std::pair<std::string, std::string> bad[] = {
      {photo + " --depth-scale 1000 --depth-range 1,5", "satdof: --depth-scale: not with --depth-range"},
      {photo + " --depth-scale 0", "satdof: --depth-scale: '0' is out of range: must be above 0"},
      {photo + " --depth-scale 5000 --depth-encoding inverse", "satdof: --depth-scale: applies to a metric map"},
      {photo + " --depth-invalid banana", "satdof: --depth-invalid: 'banana' is not a number (or none)"},
      {"--depth-scale 5000", "satdof: --depth-scale: applies only to a --photo"}};
  for (const auto& [args, words] : bad) {
    SCOPED_TRACE(args);
    const RunResult b = run("--headless " + args);
    EXPECT_EQ(b.exitCode, 2);
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
    EXPECT_EQ(b.err.rfind(words, 0), 0u) << b.err;
  }
}

}  // namespace
