// tests/test_app_input.cpp — the window's input at a slow frame rate: every press counts.
// Under Xvfb, synthetic X events from xdotool (XTest: as a real keyboard and mouse would
// send them) reach satdof while each frame takes more than 500 ms (SATDOF_TEST_FRAME_DELAY_MS
// stands for a slow machine): a quick click on the far teapot moves the focus there, a quick
// F12 writes a screenshot, three quick taps of H leave the panel hidden (an odd count),
// and a quick Esc quits. Each press and release lands between two frames, so a window read
// once per frame (key and button state) would miss them all.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app_run_support.h"
#include "scene/scene.h"
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

}  // namespace

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
