// tests/test_app_input.cpp — the window's input at a slow frame rate: every press counts.
// Under Xvfb, synthetic X events from xdotool (XTest: as a real keyboard and mouse would
// send them) reach satdof while each frame takes more than 500 ms (SATDOF_TEST_FRAME_DELAY_MS
// stands for a slow machine): a quick click on the far teapot moves the focus there, a quick
// F12 writes a screenshot, three quick taps of H leave the panel hidden (an odd count),
// and a quick Esc quits. Each press and release lands between two frames, so a window read
// once per frame (key and button state) would miss them all. And a real click on a bar of
// the panel's race (ImGui's own hit test) adopts that row.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app_run_support.h"
#include "engine/scene/scene.h"
#include "window_test_support.h"

namespace {

bool haveXdotool() { return std::system("command -v xdotool >/dev/null 2>&1") == 0; }

// The median of the frame times in satdof's summary ("  frame   612.345 ms  (..)").
float medianFrameMs(const std::string& out) {
  const std::size_t at = out.find("\n  frame ");
  float ms = 0;
  if (at != std::string::npos) std::sscanf(out.c_str() + at + 9, "%f", &ms);
  return ms;
}

// The race panel's bars in a screenshot, top to bottom: the rows where a run of at least
// four pixels has a bar's fill colour (race_panel.cpp: the current choice amber, the
// others blue), grouped into bars; each bar's centre row and a column inside its fill.
struct Bar {
  int x = 0, y = 0;
  bool current = false;
};
std::vector<Bar> raceBars(const Png& png) {
  auto near = [](const unsigned char* p, int r, int g, int b) {
    return std::abs(p[0] - r) <= 3 && std::abs(p[1] - g) <= 3 && std::abs(p[2] - b) <= 3;
  };
  std::vector<Bar> bars;
  int first = -1, last = -2, x = 0;
  bool current = false;
  for (int y = 0; y < png.height; ++y) {
    int run = 0, found = -1;
    bool amber = false;
    for (int i = 0; i < png.width && found < 0; ++i) {
      const unsigned char* p = &png.rgba[(std::size_t(y) * std::size_t(png.width) + std::size_t(i)) * 4];
      const bool blue = near(p, 89, 140, 217), yellow = near(p, 242, 191, 51);
      run = blue || yellow ? run + 1 : 0;
      if (run == 4) found = i - 3, amber = yellow;
    }
    if (found < 0) continue;
    if (y > last + 2) {  // a new bar
      if (first >= 0) bars.push_back({x, (first + last) / 2, current});
      first = y, x = found + 2, current = amber;
    }
    last = y;
  }
  if (first >= 0) bars.push_back({x, (first + last) / 2, current});
  return bars;
}

// The race table's rows that ran (satdof's stdout: "  [*] sat  ALGORITHM  VARIANT  FORMAT ...",
// a skipped row says "skipped"), in the panel's order, as "stage algorithm variant format".
std::vector<std::string> racedRows(const std::string& out) {
  std::vector<std::string> rows;
  std::istringstream in(out.substr(std::min(out.size(), out.find("same bytes"))));
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line) && (line.rfind("    ", 0) == 0 || line.rfind("  * ", 0) == 0)) {
    std::istringstream words(line.substr(4));
    std::string stage, algorithm, variant, format;
    words >> stage >> algorithm >> variant >> format;
    if (line.find("skipped") == std::string::npos) rows.push_back(stage + " " + algorithm + " " + variant + " " + format);
  }
  return rows;
}

}  // namespace

// A click on a bar of the panel's race makes its row the app's choice: the race of the cpu
// backend's kernels runs from a script in a window under Xvfb; the bars are found in a
// screenshot by their colours, and xdotool clicks the second one (float32's SAT, not the
// current uint32); the screenshot F12 then takes says the frame's SAT format is float32.
TEST(AppInput, AClickOnARaceBarAdoptsItsRow) {
  SATDOF_SKIP_WITHOUT_XVFB();
  if (!haveXdotool()) SATDOF_SKIP_WITHOUT_GL("xdotool not installed (scripts/deps --test installs it)");
  constexpr int w = 1100, h = 700;
  const fs::path dir = freshDir("input_race_click");
  fs::create_directories(dir / "config");
  std::ofstream(dir / "commands.txt") << "race\nwait 5\nscreenshot race.png\nwait 100000\n";
  const fs::path drive = dir / "drive.sh";
  // After the race's screenshot the test writes where to click (click.txt); the click, then
  // F12 a few frames later, then Esc.
  std::ofstream(drive) << "set -u\ncd '" << dir.string() << "'\n"
                       << "XDG_CONFIG_HOME='" << (dir / "config").string() << "' timeout 300 '" << kBinary
                       << "' --backend cpu --render-scale 1 --size " << w << "x" << h
                       << " --script commands.txt >out.txt 2>err.txt &\n"
                       << "app=$!\n"
                       << "win=$(timeout 60 xdotool search --sync --name '^SATDoF$' | head -n 1)\n"
                       << "for i in $(seq 480); do [ -f click.txt ] && break; sleep 0.5; done\n"
                       << "read x y <click.txt\n"
                       << "xdotool mousemove --window \"$win\" $x $y\nsleep 2\nxdotool click 1\nsleep 4\n"
                       << "xdotool key F12\nsleep 4\nxdotool key Escape\n"
                       << "wait $app\necho $? >rc.txt\n";
  const std::string cmd = "xvfb-run -a -s '-screen 0 " + std::to_string(w) + "x" + std::to_string(h) + "x24' sh '" +
                          drive.string() + "' >'" + (dir / "drive.log").string() + "' 2>&1";
  int status = -1;
  std::thread driver([&] { status = std::system(cmd.c_str()); });
  // The race's screenshot, once satdof says it wrote it (and its settings, race.txt).
  std::vector<Bar> bars;
  for (int i = 0; i < 600; ++i) {
    if (slurp(dir / "out.txt").find("wrote race.png") != std::string::npos) {
      bars = raceBars(loadPng(dir / "race.png"));
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const bool clickable = bars.size() >= 2 && bars[0].current && !bars[1].current;
  // Where to click, or a point off every bar when there is none (the run still ends).
  std::ofstream(dir / "click.tmp") << (clickable ? bars[1].x : 5) << " " << (clickable ? bars[1].y : 5) << "\n";
  fs::rename(dir / "click.tmp", dir / "click.txt");
  driver.join();
  const std::string out = slurp(dir / "out.txt"), err = slurp(dir / "err.txt");
  ASSERT_EQ(status, 0) << slurp(dir / "drive.log");
  ASSERT_EQ(slurp(dir / "rc.txt"), "0\n") << err << out;
  ASSERT_TRUE(clickable) << bars.size() << " race bars found in race.png\n" << out;
  const std::vector<std::string> rows = racedRows(out);
  ASSERT_GE(rows.size(), 2u) << out;
  EXPECT_EQ(rows[0], "sat reference - uint32") << out;
  EXPECT_EQ(rows[1], "sat reference - float32") << out;
  fs::path shot;  // F12's screenshot: the one PNG besides race.png
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".png" && entry.path().filename() != "race.png") shot = entry.path();
  ASSERT_FALSE(shot.empty()) << out;
  fs::path sidecar = shot;
  sidecar.replace_extension(".txt");
  EXPECT_NE(slurp(sidecar).find("sat-format=float32"), std::string::npos) << slurp(sidecar) << out;
  EXPECT_NE(slurp(dir / "race.txt").find("sat-format=uint32"), std::string::npos);
  fs::remove_all(dir);
}

TEST(AppInput, QuickClicksAndTapsCountBelowTwoFramesASecond) {
  SATDOF_SKIP_WITHOUT_XVFB();
  if (!haveXdotool()) SATDOF_SKIP_WITHOUT_GL("xdotool not installed (scripts/deps --test installs it)");
  constexpr int w = 1280, h = 720, imageWidth = 950;  // the default panel takes 330 of 1280
  const satdof::scene::Scene scene = satdof::scene::makeDefaultScene();
  const int far = satdof::scene::teapotsByDepth(scene).back();
  int fx = 0, fy = 0;
  screenBox(scene, far, imageWidth, h, fx, fy);
  const float farDepth = scene.camera.viewDepth(satdof::scene::instanceCentre(scene, scene.instances[std::size_t(far)]));

  const fs::path dir = freshDir("input_slow_frames");
  fs::create_directories(dir / "config");
  const fs::path drive = dir / "drive.sh";
  // Each step a few slow frames after the last; xdotool's click and key send the press and
  // the release a few ms apart. An Esc that was lost is held down at last, so that the run
  // still ends and saves its settings (and the test reports what else was lost).
  std::ofstream(drive) << "set -u\ncd '" << dir.string() << "'\n"
                       << "SATDOF_TEST_FRAME_DELAY_MS=600 XDG_CONFIG_HOME='" << (dir / "config").string()
                       << "' timeout 180 '" << kBinary << "' --backend cpu --render-scale 1 --focal 3 --size " << w << "x" << h
                       << " >out.txt 2>err.txt &\n"
                       << "app=$!\n"
                       << "win=$(timeout 60 xdotool search --sync --name '^SATDoF$' | head -n 1)\n"
                       // Started (stdout is line-buffered): the backend's line comes before the first frame.
                       << "for i in $(seq 240); do grep -q 'backend' out.txt && break; sleep 0.5; done\n"
                       << "sleep 5\nxdotool mousemove --window \"$win\" " << fx << " " << fy << "\nsleep 2\n"
                       << "xdotool click 1\nsleep 3\n"
                       << "xdotool key F12\nsleep 3\n"
                       << "xdotool key h h h\nsleep 3\n"
                       << "xdotool key Escape\n"
                       << "for i in $(seq 20); do kill -0 $app 2>/dev/null || break; sleep 0.5; done\n"
                       << "kill -0 $app 2>/dev/null && echo 'Esc was lost' >>lost.txt && "
                          "xdotool keydown Escape && sleep 3 && xdotool keyup Escape\n"
                       << "wait $app\necho $? >rc.txt\n";
  const std::string cmd = "xvfb-run -a -s '-screen 0 " + std::to_string(w) + "x" + std::to_string(h) + "x24' sh '" +
                          drive.string() + "' >'" + (dir / "drive.log").string() + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(dir / "drive.log");
  const std::string out = slurp(dir / "out.txt"), err = slurp(dir / "err.txt");
  ASSERT_EQ(slurp(dir / "rc.txt"), "0\n") << err << out;
  EXPECT_FALSE(fs::exists(dir / "lost.txt")) << "a quick Esc did not quit";
  EXPECT_GT(medianFrameMs(out), 500.0f) << out;

  // F12: a screenshot in the working folder, taken with the panel shown (the image 950 wide).
  fs::path shot;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".png") shot = entry.path();
  ASSERT_FALSE(shot.empty()) << "a quick F12 wrote no screenshot\n" << out;
  fs::path sidecar = shot;
  sidecar.replace_extension(".txt");
  EXPECT_NE(slurp(sidecar).find("image " + std::to_string(imageWidth) + "x" + std::to_string(h)), std::string::npos)
      << slurp(sidecar);

  // The settings saved at exit: the focus on the far teapot (from --focal 3), the panel hidden.
  const std::string settings = slurp(dir / "config" / "satdof" / "settings.ini");
  float focal = 0;
  const std::size_t at = settings.find("focal=");
  ASSERT_NE(at, std::string::npos) << settings;
  ASSERT_EQ(std::sscanf(settings.c_str() + at, "focal=%f", &focal), 1) << settings;
  EXPECT_NEAR(focal, farDepth, 1.0f) << "a quick click did not move the focus\n" << settings;
  EXPECT_NE(settings.find("panel=hidden"), std::string::npos) << "three quick H taps\n" << settings;
  fs::remove_all(dir);
}
