// tests/test_app_window.cpp — the window a user drives, end to end (the window
// tests under xvfb-run, skipped visibly without it):
//   * bad values said in words, refused before any window;
//   * scripts: errors with file:line and exit 2; focusing on the near teapot keeps it sharp
//     and blurs the far one (mean gradient over each teapot's screen box, the box from the
//     scene's own projection); every registry entry renders when selected; keys (H, R);
//     autofocus;
//   * the docked panel's share of the window at 1280x720 and 640x400, at a HiDPI scale of
//     2, and after the window is resized; at 1280x720 with every section open no control
//     is cut (and the layout check that says so, in process);
//   * comparisons of two configurations switched by a script and kept in the settings;
//   * the settings file kept between runs, a corrupt one ignored with one warning.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include <imgui.h>

#include <optional>

#include "app_run_support.h"
#include "window_test_support.h"
#include "app/ui/lesson_view.h"
#include "app/ui/widgets.h"
#include "engine/backends/compute_backend.h"
#include "engine/dof/dof_implementation.h"
#include "engine/passes/view_pass.h"
#include "satdof/sat_format.h"
#include "engine/scene/scene.h"

namespace {

// Runs satdof in an Xvfb window of `w` x `h` with the script `text`; settings in a
// private folder so that the user's own never matter. The frame at the image area's own
// size (Xvfb's GL is software, where satdof would otherwise render smaller), unless the
// test names a render scale.
RunResult runScript(const fs::path& dir, const std::string& text, const std::string& args, int w, int h,
                    const std::string& env = "") {
  fs::create_directories(dir);
  const fs::path script = dir / "script.txt";
  std::ofstream(script) << text;
  const std::string backend = args.find("--backend") == std::string::npos ? "--backend cpu " : "";
  const std::string scale = args.find("--render-scale") == std::string::npos ? "--render-scale 1 " : "";
  return runUnderXvfb(backend + scale + "--size " + std::to_string(w) + "x" + std::to_string(h) + " --script " +
                          script.string() + " " + args,
                      std::to_string(w) + "x" + std::to_string(h) + "x24",
                      env + "XDG_CONFIG_HOME=" + (dir / "config").string() + " ");
}

// Sharpness: the mean magnitude of the luminance gradient over a box.
double sharpness(const Png& png, const Box& b) {
  auto lum = [&](int x, int y) {
    const unsigned char* p = &png.rgba[(std::size_t(y) * png.width + x) * 4];
    return 0.3 * p[0] + 0.59 * p[1] + 0.11 * p[2];
  };
  double sum = 0;
  int n = 0;
  for (int y = b.y0; y < b.y1; ++y)
    for (int x = b.x0; x < b.x1; ++x) {
      sum += std::hypot(lum(x + 1, y) - lum(x, y), lum(x, y + 1) - lum(x, y));
      ++n;
    }
  return n ? sum / n : 0;
}

// Stands in for the CPU backend where only its name and kind matter: which DoF entries
// can run with it (DofEntry::whyNot), without a GL context.
class CpuBackendStandIn final : public satdof::ComputeBackend {
 public:
  std::string_view name() const override { return "cpu"; }
  void attach(const satdof::Targets&) override {}
  void detach() override {}
  void compute(const satdof::ComputeRequest&) override {}
  std::string_view bokehMethod() const override { return {}; }
  std::vector<satdof::FilterImplementation> filterImplementations() const override { return {}; }
  std::vector<satdof::BackendOption> options() const override { return {}; }
  std::string selected(const std::string&) const override { return {}; }
  std::optional<std::string> select(const std::string&, const std::string&) override { return std::nullopt; }
};

// "WORD WxH" from a screenshot's settings file ("# backend cpu, window 640x400, image
// 427x400 at its left").
std::pair<int, int> sizeFrom(const fs::path& sidecar, const std::string& word) {
  const std::string text = slurp(sidecar);
  const std::size_t at = text.find(word + " ");
  int w = 0, h = 0;
  if (at != std::string::npos) std::sscanf(text.c_str() + at + word.size() + 1, "%dx%d", &w, &h);
  return {w, h};
}
std::pair<int, int> imageSizeFrom(const fs::path& sidecar) { return sizeFrom(sidecar, "image"); }

// The image's part of a window screenshot (left of the panel).
Png imagePart(const Png& window, int iw, int ih) {
  Png image;
  image.width = iw;
  image.height = ih;
  for (int y = 0; y < ih; ++y)
    for (int x = 0; x < iw; ++x)
      for (int c = 0; c < 4; ++c) image.rgba.push_back(window.rgba[(std::size_t(y) * window.width + x) * 4 + c]);
  return image;
}

// The window screenshot `shot` of a w x h window (its settings beside it, .txt): the image
// keeps at least two thirds of the width and the full height, and is drawn. Returns the
// screenshot; `imageWidth` gets the image's width.
Png expectImageBesideThePanel(const fs::path& shot, int w, int h, int& imageWidth) {
  fs::path sidecar = shot;
  sidecar.replace_extension(".txt");
  const auto [iw, ih] = imageSizeFrom(sidecar);
  imageWidth = iw;
  EXPECT_GE(3 * iw, 2 * w) << "the panel covers more than a third";
  EXPECT_EQ(ih, h);
  const Png png = loadPng(shot);
  EXPECT_EQ(png.width, w);
  if (png.width == w && iw <= w && ih <= png.height) expectNotBlank(imagePart(png, iw, ih));
  return png;
}

}  // namespace

TEST(AppCli, BadValuesSayWhatIsWrongInWords) {
  const std::pair<const char*, const char*> cases[] = {
      {"--max-blur banana", "satdof: --max-blur: 'banana' is not a number"},
      {"--max-blur 300", "'300' is out of range: must be between 0 and 256"},
      {"--frames 1.5", "--frames: '1.5' is not a whole number"},
      {"--view nope", "no view 'nope'; valid: final, scene, depth, holes, sat, focus, filtered, split, diff"},
      {"--filter box --conv nosuch", "no convolution implementation 'nosuch'"},
      {"--conv cpu-direct", "--conv: applies only with --filter"},
      {"--filter box --sigma 2", "--sigma: applies only to --filter gaussian"},
      {"--headless --screenshot x.png", "--screenshot: applies to the window only"},
      {"--headless --script x.txt", "--script: applies to the window only"},
      {"--headless --out /proc/satdof-test", "--out: cannot create the folder '/proc/satdof-test'"},
      {"--backend cpu --sat nosuch", "no SAT algorithm 'nosuch' in the cpu backend; valid: reference"},
      {"--diff-gain 4", "--diff-gain: applies only to --view diff"},
      {"--msaa 3", "'3' is not a power of two"},
      {"--aperture round", "satdof: --aperture: no aperture 'round'; valid: box, disc"},
      {"quality --aperture square", "--aperture: no aperture 'square'; valid: box, disc (quality's lens truth: "
                                    "--lens-aperture square)"},
      {"quality --lens-aperture round", "--lens-aperture: round not in {disc,square}"},
      {"quality --camera linear --lens-aperture square",
       "--lens-aperture: applies only with a lens truth, and quality with --camera linear has none"},
  };
  for (const auto& [args, expected] : cases) {
    SCOPED_TRACE(args);
    const RunResult r = run(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  }
}

// A script is checked before any window opens: the file and line of the first problem.
TEST(AppScript, ErrorsNameFileAndLineAndExit2) {
  const fs::path dir = freshDir("script_errors");
  fs::create_directories(dir);
  const std::pair<const char*, const char*> cases[] = {
      {"wait 2\nview final\nfly away\n", ":3: no command 'fly'"},
      {"set max-blur lots\n", ":1: 'lots' is not a number"},
      {"# a comment\nselect sat nosuch-algorithm\n", ":2: no SAT algorithm 'nosuch-algorithm'"},
      {"focus 10\n", ":1: expected 'focus X Y'"},
      {"wait 0\n", ":1: wait: '0' is out of range"},
      {"set aperture round\n", ":1: no aperture 'round'; valid: box, disc"},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    const fs::path script = dir / "bad.txt";
    std::ofstream(script) << text;
    // DISPLAY set but never used: the script is refused before a window is opened.
    const RunResult r = run("--backend cpu --script " + script.string(), "DISPLAY=:0 ");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(script.string() + expected), std::string::npos) << r.err;
  }
}

// Focusing on the near teapot leaves it sharp and blurs the far one; focusing on the far
// one does the opposite.
TEST(AppScript, FocusOnTheNearTeapotKeepsItSharpAndBlursTheFarOne) {
  SATDOF_SKIP_WITHOUT_XVFB();
  constexpr int w = 800, h = 450;
  const satdof::scene::Scene scene = satdof::scene::makeDefaultScene();
  const std::vector<int> teapots = satdof::scene::teapotsByDepth(scene);
  int nx = 0, ny = 0, fx = 0, fy = 0;
  const Box nearBox = screenBox(scene, teapots.front(), w, h, nx, ny);
  const Box farBox = screenBox(scene, teapots.back(), w, h, fx, fy);
  const fs::path dir = freshDir("script_focus");
  const std::string script = "set panel hidden\nset max-blur 16\nwait 2\n"
                             "focus " + std::to_string(nx) + " " + std::to_string(ny) + "\nwait 14\n"
                             "screenshot " + (dir / "near.png").string() + "\n"
                             "focus " + std::to_string(fx) + " " + std::to_string(fy) + "\nwait 14\n"
                             "screenshot " + (dir / "far.png").string() + "\nquit\n";
  const RunResult r = runScript(dir, script, "", w, h);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const Png nearShot = loadPng(dir / "near.png"), farShot = loadPng(dir / "far.png");
  ASSERT_EQ(nearShot.width, w);
  ASSERT_EQ(farShot.width, w);
  const double nearWhenNear = sharpness(nearShot, nearBox), farWhenNear = sharpness(nearShot, farBox);
  const double nearWhenFar = sharpness(farShot, nearBox), farWhenFar = sharpness(farShot, farBox);
  EXPECT_GT(nearWhenNear, 1.5 * nearWhenFar) << "the near teapot is not sharper when focused on";
  EXPECT_GT(farWhenFar, 1.5 * farWhenNear) << "the far teapot is not sharper when focused on";
  // The settings beside the screenshot say where the focus went: the near teapot's depth.
  const std::string settings = slurp(dir / "near.txt");
  const float nearDepth = scene.camera.viewDepth(satdof::scene::instanceCentre(scene, scene.instances[std::size_t(teapots.front())]));
  float focal = 0;
  ASSERT_EQ(std::sscanf(settings.c_str() + settings.find("focal="), "focal=%f", &focal), 1) << settings;
  EXPECT_NEAR(focal, nearDepth, 1.0f) << settings;
}

// Every registry entry the CPU backend offers, every DoF implementation it can run, every
// convolution and every view, selected in turn by a script: each renders, none fails.
// (The CPU backend: what CI has. The CUDA backend's longer lists are not covered here.)
TEST(AppScript, EveryRegistryEntryRendersWhenSelected) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_registries");
  std::string script = "set filter box\nselect compare cpu-direct\n";
  std::vector<fs::path> shots;
  auto shoot = [&](const std::string& name) {
    shots.push_back(dir / (name + ".png"));
    script += "wait 2\nscreenshot " + shots.back().string() + "\n";
  };
  for (const satdof::BackendOption& o : satdof::cpuBackendOptions())
    for (const satdof::Choice& c : o.choices) {
      script += "select " + o.key + " " + c.name + "\n";
      shoot(o.key + "-" + c.name);
    }
  const satdof::ComputeBackendInfo* cpu = satdof::findComputeBackend("cpu");
  const CpuBackendStandIn standIn;
  for (const satdof::DofEntry& e : satdof::dofImplementations()) {
    if (e.whyNot(standIn)) continue;  // a CUDA entry: refused on the CPU backend, with its reason
    script += "select dof " + std::string(e.name) + "\n";
    shoot("dof-" + std::string(e.name));
  }
  for (const satdof::FilterImplementation& f : cpu->filterImplementations()) {
    script += "select conv " + f.name + "\n";
    shoot("conv-" + f.name);
  }
  for (satdof::ViewMode m : satdof::viewModes()) {
    script += "view " + std::string(satdof::toString(m)) + "\n";
    shoot(std::string("view-") + satdof::toString(m));
  }
  script += "quit\n";
  const RunResult r = runScript(dir, script, "--msaa 1", 480, 270);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  for (const fs::path& p : shots) {
    SCOPED_TRACE(p.string());
    const Png png = loadPng(p);
    ASSERT_EQ(png.width, 480);
    expectNotBlank(png);
  }
}

// The docked panel takes at most a third of the window; the image keeps the rest.
TEST(AppScript, PanelLeavesTheImageVisible) {
  SATDOF_SKIP_WITHOUT_XVFB();
  for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{640, 400}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const fs::path dir = freshDir("layout_" + std::to_string(w));
    const RunResult r = runScript(dir, "wait 3\nscreenshot " + (dir / "shot.png").string() + "\nquit\n", "", w, h);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    int iw = 0;
    expectImageBesideThePanel(dir / "shot.png", w, h, iw);
  }
}

// Keys pressed by a script act as in the window: H hides the panel (the image takes the
// whole window), R puts back the settings the run started with.
TEST(AppScript, KeysHideThePanelAndReset) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_keys");
  const std::string script = "wait 2\nkey H\nset focal 20\nwait 2\nscreenshot " + (dir / "hidden.png").string() +
                             "\nkey R\nwait 2\nscreenshot " + (dir / "reset.png").string() + "\nquit\n";
  const RunResult r = runScript(dir, script, "--msaa 1 --focal 7", 480, 270);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_EQ(imageSizeFrom(dir / "hidden.txt"), (std::pair<int, int>{480, 270}));
  EXPECT_NE(slurp(dir / "hidden.txt").find("focal=20"), std::string::npos) << slurp(dir / "hidden.txt");
  EXPECT_LT(imageSizeFrom(dir / "reset.txt").first, 480) << "R shows the panel again (it was shown at start)";
  EXPECT_NE(slurp(dir / "reset.txt").find("focal=7"), std::string::npos) << slurp(dir / "reset.txt");
}

// On a software GL (Xvfb's is llvmpipe) a window starts at MSAA 1 and half the image area's
// size, scaled up to it, and says so in one line; a choice of the command line or of the
// settings file is kept.
TEST(AppWindow, SoftwareGlRendersAtMsaa1AndHalfScaleUnlessChosen) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("software_gl");
  const fs::path config = dir / "config";
  const std::string env = "XDG_CONFIG_HOME=" + config.string() + " ";
  auto lines = [](const std::string& out) {
    std::size_t n = 0;
    for (std::size_t at = out.find("GL runs in software ("); at != std::string::npos;
         at = out.find("GL runs in software (", at + 1))
      ++n;
    return n;
  };
  RunResult r = runUnderXvfb("--backend cpu --size 640x360 --frames 3 --screenshot " + (dir / "auto.png").string(),
                             "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  ASSERT_EQ(lines(r.out), 1u) << r.out;
  EXPECT_NE(r.out.find("): MSAA 1 and render scale 0.5 for speed"), std::string::npos) << r.out;
  const Png shot = loadPng(dir / "auto.png");
  EXPECT_EQ(shot.width, 640) << "the window, the image scaled up in it";
  const std::string sidecar = slurp(dir / "auto.txt");
  EXPECT_NE(sidecar.find("msaa=1\n"), std::string::npos) << sidecar;
  const auto [w, h] = imageSizeFrom(dir / "auto.txt");
  EXPECT_EQ(h, 180) << sidecar;
  const std::size_t shown = sidecar.find("shown at ");
  ASSERT_NE(shown, std::string::npos) << sidecar;
  const int shownWidth = std::stoi(sidecar.substr(shown + 9));
  EXPECT_EQ(std::lround(shownWidth * 0.5), w) << sidecar;
  expectNotBlank(imagePart(shot, shownWidth, 360));
  // The next run starts from what the first saved: nothing to choose, nothing said.
  r = runUnderXvfb("--backend cpu --size 640x360 --frames 2", "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(r.out), 0u) << r.out;
  // Chosen on the command line (a fresh settings folder): kept, nothing said.
  fs::remove_all(config);
  r = runUnderXvfb(
      "--backend cpu --size 640x360 --frames 2 --msaa 4 --render-scale 1 --screenshot " + (dir / "full.png").string(),
      "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(r.out), 0u) << r.out;
  EXPECT_EQ(imageSizeFrom(dir / "full.txt").second, 360);
  EXPECT_NE(slurp(dir / "full.txt").find("msaa=4\n"), std::string::npos);
  // Only the render scale chosen: MSAA 1 is still picked, said alone.
  fs::remove_all(config);
  r = runUnderXvfb("--backend cpu --size 640x360 --frames 2 --render-scale 0.75", "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("): MSAA 1 for speed"), std::string::npos) << r.out;
}

// Settings are kept between window runs; a line it cannot read is ignored alone, said once.
TEST(AppSettings, KeptBetweenRunsAndCorruptFileWarnsOnce) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("settings");
  const fs::path config = dir / "config";
  const std::string env = "XDG_CONFIG_HOME=" + config.string() + " ";
  const fs::path file = config / "satdof" / "settings.ini";
  // Run 1 sets focal 11 on the command line; run 2 starts from the file.
  RunResult r = runUnderXvfb("--backend cpu --size 640x360 --frames 2 --focal 11 --max-blur 9", "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  ASSERT_TRUE(fs::exists(file));
  EXPECT_NE(slurp(file).find("focal=11"), std::string::npos) << slurp(file);
  r = runUnderXvfb("--backend cpu --size 640x360 --frames 2 --screenshot " + (dir / "second.png").string(),
                   "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(slurp(dir / "second.txt").find("max-blur=9"), std::string::npos) << slurp(dir / "second.txt");
  // A line it cannot read: one line naming it, the other lines kept, and the run goes on.
  std::ofstream(file) << "focal=11\nthis line has no equals sign\n";
  r = runUnderXvfb("--backend cpu --size 640x360 --frames 2 --screenshot " + (dir / "third.png").string(),
                   "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("line 2: expected key=value, got 'this line has no equals sign'; ignored"), std::string::npos)
      << r.err;
  EXPECT_NE(slurp(dir / "third.txt").find("max-blur=12"), std::string::npos) << slurp(dir / "third.txt");
  // --no-settings: neither read nor written.
  fs::remove(file);
  r = runUnderXvfb("--backend cpu --size 640x360 --frames 2 --no-settings", "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(fs::exists(file));
}

// A script's `set bokeh-blades` (an option declared once) reaches the screenshot's settings
// (what the settings file would keep; the older `bokeh-shape` not written), and a window
// run starts from the settings file's blade count.
TEST(AppSettings, AScriptsBladeCountIsSavedAndTheFileIsRead) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("settings_blades");
  RunResult r = runScript(dir, "set bokeh-blades 5\nwait 2\nscreenshot " + (dir / "five.png").string() + "\nquit\n",
                          "", 640, 360);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string shot = slurp(dir / "five.txt");
  EXPECT_NE(shot.find("bokeh-blades=5"), std::string::npos) << shot;
  EXPECT_EQ(shot.find("bokeh-shape"), std::string::npos) << shot;
  const fs::path config = dir / "config";
  fs::create_directories(config / "satdof");
  std::ofstream(config / "satdof" / "settings.ini") << "bokeh-blades=7\n";
  r = runUnderXvfb("--backend cpu --size 640x360 --frames 2 --screenshot " + (dir / "seven.png").string(),
                   "640x360x24", "XDG_CONFIG_HOME=" + config.string() + " ");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(slurp(dir / "seven.txt").find("bokeh-blades=7"), std::string::npos) << slurp(dir / "seven.txt");
}

// What one run saves cannot lock the next out: a cpu run's SAT algorithm, a cuda run's DoF
// and a thin lens focused too close are each dropped with one line, and the run goes on.
TEST(AppSettings, ASavedValueThatDoesNotFitIsDroppedNotFatal) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("settings_misfit");
  const fs::path config = dir / "config";
  const std::string env = "XDG_CONFIG_HOME=" + config.string() + " ";
  const fs::path file = config / "satdof" / "settings.ini";
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "sat=reference\ncpu.sat=reference\ndof=cuda\ncamera=thin-lens\nfocal=0.05\n";
  RunResult r = runUnderXvfb("--backend gl-compute --size 640x360 --frames 2", "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("focal=0.05: camera:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dof=cuda:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gl-compute.sat=reference:"), std::string::npos) << r.err;
  EXPECT_NE(slurp(file).find("cpu.sat=reference"), std::string::npos) << "another backend's choice is kept";
  EXPECT_EQ(slurp(file).find("\nsat="), std::string::npos) << slurp(file);
  r = runUnderXvfb("--backend cpu --size 640x360 --frames 2", "640x360x24", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err.find("dropped"), std::string::npos) << "the cpu backend has its reference SAT: " << r.err;
}

// Window runs whose files cannot be used are refused before the window opens: one line,
// exit 2 (a script naming a folder or a device, one too large, a line the named backend
// cannot do; a screenshot into a folder or where no file can be made).
TEST(AppScript, BadFilesAndBackendLinesAreRefusedBeforeTheWindow) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_refused");
  fs::create_directories(dir);
  std::ofstream(dir / "scan.txt") << "select scan blelloch\n";
  std::ofstream(dir / "blur.txt") << "set sat-format uint21x3\nset max-blur 60\n";
  std::ofstream(dir / "big.txt") << std::string(2 << 20, '#');
  std::ofstream(dir / "adopt.txt") << "wait 1\nadopt 1\nrace\n";
  const std::pair<std::string, std::string> cases[] = {
      {"--script " + dir.string(), "is not a file"},
      {"--script /dev/zero", "is not a file"},
      {"--script " + (dir / "big.txt").string(), "larger than"},
      {"--backend cpu --script " + (dir / "scan.txt").string(), "the cpu backend has no scan"},
      {"--backend cpu --script " + (dir / "blur.txt").string(), "uint21x3"},
      {"--backend cpu --script " + (dir / "adopt.txt").string(), "adopt.txt:2: adopt: no race before it"},
      {"--screenshot " + dir.string(), "is a folder"},
      {"--screenshot /proc/satdof.png", "cannot write into '/proc'"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    const RunResult r = runUnderXvfb("--frames 2 " + args);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("GL "), std::string::npos) << "no GL started: " << r.out;
  }
}

// A script's `race` runs the panel's race over the frames and goes on when it has finished;
// `adopt N` takes its row N as a click on the bar would: a float32 SAT row picked from the
// table the headless race prints in the same order makes that the frame's format. A row
// past the table is refused in one line, exit 2.
TEST(AppScript, RaceThenAdoptTakesTheRowsChoice) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const RunResult table = run("race --backend cpu --size 64x48 --repeats 2");
  ASSERT_EQ(table.exitCode, 0) << table.out << table.err;
  std::istringstream lines(table.out);
  int row = 0, pick = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word == "*" ? std::string() : word);
    if (!w.empty() && w.front().empty()) w.erase(w.begin());  // the current choice's mark
    if (w.size() < 4 || (w[0] != "sat" && w[0] != "conv") || line.find('|') != std::string::npos) continue;
    ++row;
    if (!pick && w[0] == "sat" && w[3] == "float32") pick = row;
  }
  ASSERT_GT(pick, 0) << table.out;
  const fs::path dir = freshDir("script_race");
  const std::string script = "wait 2\nrace\nadopt " + std::to_string(pick) + "\nwait 2\nscreenshot " +
                             (dir / "adopted.png").string() + "\nquit\n";
  RunResult r = runScript(dir, script, "--frames 3000", 480, 270);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("satdof: adopted the race's row " + std::to_string(pick) + ": sat"), std::string::npos) << r.out;
  EXPECT_NE(slurp(dir / "adopted.txt").find("sat-format=float32\n"), std::string::npos) << slurp(dir / "adopted.txt");
  r = runScript(dir, "wait 2\nrace\nadopt 100000\nquit\n", "--frames 3000", 480, 270);
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(":3: adopt: no row 100000; the race has "), std::string::npos) << r.err;
}

// Autofocus keeps the image centre in focus: a focal distance set by hand is pulled back
// to the centre's depth; without autofocus it stays where it was set.
TEST(AppScript, AutofocusPullsTheFocusToTheCentre) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_autofocus");
  auto focalOf = [](const fs::path& sidecar) {
    const std::string text = slurp(sidecar);
    float focal = 0;
    const std::size_t at = text.find("focal=");
    if (at != std::string::npos) std::sscanf(text.c_str() + at, "focal=%f", &focal);
    return focal;
  };
  const std::string script = "set panel hidden\nset focal 30\nwait 20\nscreenshot " + (dir / "off.png").string() +
                             "\nset autofocus centre\nset focal 30\nwait 20\nscreenshot " +
                             (dir / "centre.png").string() + "\nquit\n";
  const RunResult r = runScript(dir, script, "--msaa 1", 320, 180);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_EQ(focalOf(dir / "off.txt"), 30.0f);
  const float centre = focalOf(dir / "centre.txt");
  EXPECT_GT(centre, 1.0f);
  EXPECT_LT(centre, 20.0f) << "autofocus did not move the focus from 30 to the centre's depth";
}

// uint21x3 with a max blur past its bound (radius 44): a script's `set` of either is
// refused in one line naming the line, whichever comes second; within it, it runs.
TEST(AppScript, MaxBlurBeyondTheUint21x3BoundIsRefused) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const std::pair<const char*, const char*> cases[] = {
      {"wait 1\nset max-blur 60\nset sat-format uint21x3\nquit\n", ":3: sat-format: a blur radius of 60 px"},
      {"wait 1\nset sat-format uint21x3\nwait 1\nset max-blur 45\nquit\n", ":4: max-blur: a blur radius of 45 px"},
  };
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    const fs::path dir = freshDir("script_max_blur");
    const RunResult r = runScript(dir, text, "--msaa 1", 320, 180);
    EXPECT_EQ(r.exitCode, 2) << r.err << r.out;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("uint21x3 SAT format's exact box sums (radius <= 44)"), std::string::npos) << r.err;
  }
  const RunResult ok = runScript(freshDir("script_max_blur_ok"),
                                 "set max-blur 44\nset sat-format uint21x3\nwait 2\nkey V\nwait 1\nquit\n",
                                 "--msaa 1", 320, 180);
  ASSERT_EQ(ok.exitCode, 0) << ok.err << ok.out;
  EXPECT_NE(ok.out.find("verify: SAT (uint21x3): identical"), std::string::npos) << ok.out;
  EXPECT_EQ(ok.out.find("differ"), std::string::npos) << ok.out;
}

// D steps through the DoF implementations in the registry's order, skipping those the
// backend cannot run (cuda on the cpu backend), back round to the first; each in one line,
// and verify finds each frame the reference's.
TEST(AppScript, KeyDStepsThroughTheDofImplementations) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_key_d");
  std::string script = "set bokeh off\n";
  for (int i = 0; i < 5; ++i) script += "key D\nwait 2\nkey V\nwait 1\n";
  const RunResult r = runScript(dir, script + "quit\n", "--msaa 1 --backend cpu", 320, 180);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  std::size_t at = 0;
  for (const char* dof : {"layered", "see-through", "see-through-linear", "fragment", "compute"}) {
    const std::size_t said = r.out.find("satdof: depth of field " + std::string(dof) + ": ", at);
    ASSERT_NE(said, std::string::npos) << dof << " after " << at << ":\n" << r.out;
    EXPECT_NE(r.out.find("verify: DoF (" + std::string(dof) + "): identical", said), std::string::npos) << r.out;
    at = said;
  }
  EXPECT_EQ(r.out.find("depth of field cuda"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("differ"), std::string::npos) << r.out;
}

// Verify (V, or the panel's button): the frame's SAT, filter and DoF against the CPU
// reference, in every SAT format, with and without a filter, with the disc aperture; then,
// with many bokeh highlights, their sprite list.
TEST(AppScript, VerifyFindsTheFrameIdenticalToTheReference) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_verify");
  std::string script =
      "set bokeh off\nwait 2\nkey V\nwait 1\nset filter gaussian\nselect conv cpu-separable\nwait 2\nkey V\nwait 1\n";
  for (const satdof::SatFormatInfo& f : satdof::satFormats())
    script += "set sat-format " + std::string(f.name) + "\nwait 2\nkey V\nwait 1\n";
  script += "set aperture disc\nwait 2\nkey V\nwait 1\nset aperture box\n";
  script += "set dof see-through\nwait 2\nkey V\nwait 1\nset dof compute\n";  // the scene's second layer too
  script += "set bokeh on\nset bokeh-threshold 150\nset bokeh-contrast 1\nwait 2\nkey V\nwait 1\nquit\n";
  const RunResult r = runScript(dir, script, "--msaa 1", 320, 180);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("verify: filter A (cpu-separable, separable arithmetic): identical"), std::string::npos) << r.out;
  for (const satdof::SatFormatInfo& f : satdof::satFormats())
    EXPECT_NE(r.out.find("verify: SAT (" + std::string(f.name) + "): identical"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify: DoF (compute): identical"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify: DoF (compute, disc): identical"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify: DoF (see-through): identical"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify: bokeh list: identical to the reference ("), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("bokeh list: identical to the reference (0 sprites"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("differ"), std::string::npos) << r.out;
}

// A verdict describes the frame it checked: a setting changed (not the view), a reset (R),
// reloaded shaders (F5) or a new size each mark it stale, once, on stdout and in the panel.
TEST(AppScript, VerifyGoesStaleWhenWhatItCheckedChanges) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_verify_stale");
  const std::string script =
      "wait 2\nkey V\nwait 1\nset view depth\nwait 2\nset focal 20\nwait 2\n"  // the view: still current
      "key V\nwait 1\nkey R\nwait 2\n"
      "key V\nwait 1\nkey F5\nwait 2\n"
      "key V\nwait 1\nresize 400 240\nwait 3\nquit\n";
  const RunResult r = runScript(dir, script, "--msaa 1 --focal 7 --bokeh off", 320, 180);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  std::vector<std::string> stale;
  for (std::size_t at = r.out.find("verify: stale ("); at != std::string::npos;
       at = r.out.find("verify: stale (", at + 1))
    stale.push_back(r.out.substr(at, r.out.find('\n', at) - at));
  ASSERT_EQ(stale.size(), 4u) << r.out;
  EXPECT_EQ(stale[0], "verify: stale (focal changed: 7 -> 20); V verifies again");
  EXPECT_EQ(stale[1], "verify: stale (the settings were reset (R)); V verifies again");
  EXPECT_EQ(stale[2], "verify: stale (the shaders were reloaded (F5)); V verifies again");
  EXPECT_EQ(stale[3].rfind("verify: stale (size changed: ", 0), 0u) << stale[3];
  EXPECT_EQ(r.out.find("differ"), std::string::npos) << r.out;
}

namespace {

// The pixels of the labels drawn on the image (overlay.cpp's text colour, give or take the
// scaled font's filtering) in `png`: their count, the rightmost column and their bounding
// box's rows.
struct LabelPixels {
  int count = 0, right = -1, top = 1 << 30, bottom = -1;
};
LabelPixels labelPixels(const Png& png) {
  LabelPixels l;
  for (int y = 0; y < png.height; ++y)
    for (int x = 0; x < png.width; ++x) {
      const unsigned char* p = &png.rgba[(std::size_t(y) * png.width + x) * 4];
      if (p[0] < 225 || std::abs(p[1] - 235) > 30 || std::abs(p[2] - 120) > 40) continue;
      ++l.count;
      l.right = std::max(l.right, x);
      l.top = std::min(l.top, y);
      l.bottom = std::max(l.bottom, y);
    }
  return l;
}

}  // namespace

// A script switches the comparison (set view, set compare-b, the key C); the screenshot's
// settings keep it; B's fields given back to A make the difference zero again. A window run
// keeps compare-b in the settings file for the next.
TEST(AppCompare, ScriptSwitchesTheComparisonAndSettingsKeepIt) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("compare_script");
  const std::string script = "set max-blur 24\nset view split\nset compare-b dof=layered,sat-format=float32\nwait 3\n"
                             "screenshot " + (dir / "split.png").string() + "\nkey C\nwait 3\nscreenshot " +
                             (dir / "diff.png").string() + "\nset compare-b dof=,sat-format=\nwait 3\nquit\n";
  const RunResult r = runScript(dir, script, "--msaa 1", 480, 270);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const std::string split = slurp(dir / "split.txt"), diff = slurp(dir / "diff.txt");
  EXPECT_NE(split.find("view=split"), std::string::npos) << split;
  EXPECT_NE(split.find("compare-b=dof=layered,sat-format=float32"), std::string::npos) << split;
  EXPECT_NE(diff.find("view=diff"), std::string::npos) << "C goes from split to diff: " << diff;
  EXPECT_NE(r.out.find("comparing A: compute \u00b7 uint32 with B: layered \u00b7 float32"), std::string::npos) << r.out;
  const auto [iw, ih] = imageSizeFrom(dir / "diff.txt");
  expectNotBlank(imagePart(loadPng(dir / "diff.png"), iw, ih));
  EXPECT_NE(r.out.find("satdof: max difference A: compute \u00b7 uint32 vs B: compute \u00b7 uint32: 0 grey levels"),
            std::string::npos)
      << "B given back to A: " << r.out;

  const fs::path config = dir / "settings";
  const std::string env = "XDG_CONFIG_HOME=" + config.string() + " ";
  RunResult w = runUnderXvfb("--backend cpu --size 480x270 --msaa 1 --frames 2 --view diff --compare-b dof=layered",
                             "480x270x24", env);
  ASSERT_EQ(w.exitCode, 0) << w.err;
  EXPECT_NE(slurp(config / "satdof" / "settings.ini").find("compare-b=dof=layered"), std::string::npos);
  w = runUnderXvfb("--backend cpu --size 480x270 --msaa 1 --frames 2", "480x270x24", env);
  ASSERT_EQ(w.exitCode, 0) << w.err;
  EXPECT_NE(w.out.find("comparing A: compute with B: layered"), std::string::npos) << w.out;
}

// HiDPI: at a content scale of 2 (--ui-scale 2) in a small window the panel still takes at
// most a third and none of its open sections' controls is cut at its edge (the app says
// so when one is: app/ui/widgets.h's LayoutCheck); the labels on the image are twice as tall
// and stay on the image (moved inwards from a divider near the panel, never over it).
TEST(AppWindow, HiDpiScaleKeepsThePanelAThirdAndTheLabelsOnTheImage) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const int w = 640, h = 400;
  LabelPixels at1;
  for (const int scale : {1, 2}) {
    SCOPED_TRACE("--ui-scale " + std::to_string(scale));
    const fs::path dir = freshDir("hidpi_" + std::to_string(scale));
    const RunResult r = runScript(dir, "set divider 0.97\nwait 3\nscreenshot " + (dir / "shot.png").string() + "\nquit\n",
                                  "--msaa 1 --view split --compare-b dof=layered --ui-scale " + std::to_string(scale),
                                  w, h);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    int iw = 0;
    const Png png = expectImageBesideThePanel(dir / "shot.png", w, h, iw);
    EXPECT_EQ(r.out.find("cut at the right edge"), std::string::npos) << "a control of the panel is cut: " << r.out;
    const LabelPixels l = labelPixels(png);
    ASSERT_GT(l.count, 0) << "no label on the image";
    EXPECT_LT(l.right, iw) << "a label runs over the panel";
    if (scale == 1) at1 = l;
    else EXPECT_GE(10 * (l.bottom - l.top), 17 * (at1.bottom - at1.top)) << "the labels did not grow with the scale";
  }
}

// Resizing the window (smaller, then larger) re-lays the panel and the image: the image
// keeps at least two thirds of the width, the full height, and is drawn.
TEST(AppWindow, ResizingTheWindowKeepsTheImageVisible) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("window_resize");
  const std::pair<int, int> sizes[] = {{480, 300}, {300, 500}, {900, 520}};
  std::string script = "wait 2\n";
  for (const auto& [w, h] : sizes)
    script += "resize " + std::to_string(w) + " " + std::to_string(h) + "\nwait 3\nscreenshot " +
              (dir / (std::to_string(w) + ".png")).string() + "\n";
  script += "quit\n";
  const RunResult r = runScript(dir, script, "--msaa 1 --view split --compare-b dof=layered", 960, 540);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  for (const auto& [w, h] : sizes) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    EXPECT_EQ(sizeFrom(dir / (std::to_string(w) + ".txt"), "window"), (std::pair{w, h}));
    int iw = 0;
    expectImageBesideThePanel(dir / (std::to_string(w) + ".png"), w, h, iw);
  }
}

// A backend that fails to register the new targets mid-run (injected: its second attach,
// when the SAT format changes, throws as a refused registration would) hands over to the
// next backend with one line, and the window goes on rendering.
TEST(AppScript, BackendFailingMidRunHandsOverToTheNext) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("script_fallback");
  const std::string shot = (dir / "after.png").string();
  const RunResult r = runScript(dir, "wait 2\nset sat-format float32\nwait 2\nscreenshot " + shot + "\nwait 1\nquit\n",
                                "--backend gl-compute --msaa 1", 320, 180, "SATDOF_INJECT_ATTACH_FAILURE=gl-compute:2 ");
  if (r.err.find("GL-compute") != std::string::npos && r.exitCode == 3) SATDOF_SKIP_WITHOUT_GL(r.err);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  EXPECT_NE(r.err.find("the gl-compute backend cannot run this frame"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("now CPU backend"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("backend cpu"), std::string::npos) << r.out;
  expectNotBlank(loadPng(shot));
}

// The panel's layout check (app/ui/widgets.h) counts a control that ends past the panel's
// right edge and names it, and leaves one that fits alone; `openAll` opens or folds every
// section for one frame. In process, on ImGui without a window: the check itself, so that
// the window tests' "no control cut" can fail.
namespace {

// An ImGui context with no window and no backend, its font atlas built: frames can be made
// and rendered into draw data.
void createHeadlessImGui(float width, float height) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(width, height);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int tw = 0, th = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
}

}  // namespace

TEST(PanelLayout, AControlPastTheRightEdgeIsCountedAndSectionsOpenOnRequest) {
  createHeadlessImGui(640, 400);
  satdof::widgets::LayoutCheck check;
  satdof::widgets::checkLayout(&check);
  auto frame = [&](std::optional<bool> openAll, bool wide, bool* open) {
    check = {};
    check.openAll = openAll;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(200, 300));
    ImGui::Begin("panel");
    *open = satdof::widgets::header("Section", "S");
    if (*open) {
      ImGui::Button("fits");
      satdof::widgets::tooltip("fits");
      if (wide) {
        ImGui::Button("a button far wider than the panel it sits in");
        satdof::widgets::tooltip("the wide one");
      }
    }
    ImGui::End();
    ImGui::Render();
  };
  bool open = true;
  frame(std::nullopt, true, &open);
  EXPECT_FALSE(open) << "a section starts folded";
  EXPECT_EQ(check.cut, 0);
  frame(true, true, &open);
  ASSERT_TRUE(open) << "openAll opens it";
  EXPECT_EQ(check.cut, 1);
  EXPECT_EQ(check.first, "the wide one");
  frame(std::nullopt, false, &open);
  EXPECT_TRUE(open) << "and it stays open";
  EXPECT_EQ(check.cut, 0);
  frame(false, true, &open);
  EXPECT_FALSE(open) << "openAll = false folds it";
  satdof::widgets::checkLayout(nullptr);
  ImGui::DestroyContext();
}

// At 1280x720, the window a new user gets, with every section of the panel open (a
// script's `sections open`) and each section showing its most (a filter, bokeh, a float
// format and its precision, the split view and B's fields, the scan times' table, the
// race's bars), no control is cut at the panel's edge: the app would say so on stdout.
// The panel folded first, then opened: its pixels change, so the check ran over the open
// sections.
TEST(AppWindow, At1280x720NoControlOfEveryOpenSectionIsCut) {
  SATDOF_SKIP_WITHOUT_XVFB();
  constexpr int w = 1280, h = 720;
  for (const std::string backend : {"cpu", "gl-compute"}) {
    SCOPED_TRACE(backend);
    const fs::path dir = freshDir("panel_open_" + backend);
    const std::string before = (dir / "folded.png").string(), open = (dir / "open.png").string();
    const std::string script = "sections fold\nwait 2\nscreenshot " + before +
                               "\nsections open\nset filter gaussian\nset bokeh on\nset sat-format float32\n"
                               "view split\nwait 3\n" +
                               (backend == "cpu" ? "race\n" : "time-scans\n") + "wait 3\nscreenshot " + open +
                               "\nview diff\nwait 2\nquit\n";
    const RunResult r = runScript(dir, script, "--backend " + backend + " --msaa 1", w, h);
    if (backend != "cpu" && r.exitCode == 3) SATDOF_SKIP_WITHOUT_GL("gl-compute unavailable here: " + r.err);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    EXPECT_EQ(r.out.find("cut at the right edge"), std::string::npos) << "a control of the panel is cut: " << r.out;
    int iw = 0;
    const Png a = expectImageBesideThePanel(before, w, h, iw), b = loadPng(open);
    ASSERT_EQ(a.width, b.width);
    std::size_t changed = 0;  // the panel's pixels (right of the image) that differ
    for (int y = 0; y < h; ++y)
      for (int x = iw; x < w; ++x) {
        const std::size_t i = (std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4;
        changed += a.rgba[i] != b.rgba[i] || a.rgba[i + 1] != b.rgba[i + 1] || a.rgba[i + 2] != b.rgba[i + 2];
      }
    EXPECT_GT(changed, std::size_t(w - iw) * h / 10) << "the panel hardly changed: did its sections open?";
  }
}

// The lesson view's stepping (app/ui/lesson_view.h): steps stay within the first and the
// last; play advances one step per LessonView::kStepSeconds of the frame clock, only while
// shown, and stops at the last step; play from the last starts over.
TEST(LessonView, StepsStayInRangeAndPlayFollowsTheFrameClock) {
  satdof::LessonView v;
  ASSERT_GT(v.steps(), 4);
  EXPECT_NE(v.caption().find("scan blelloch, n 16 in 2 blocks: step 1 of "), std::string::npos) << v.caption();
  v.step(+3);
  EXPECT_EQ(v.currentStep(), 3);
  v.step(-10);
  EXPECT_EQ(v.currentStep(), 0);
  v.step(+1000);
  EXPECT_EQ(v.currentStep(), v.steps() - 1);
  v.step(-1000);
  v.togglePlay();
  v.advance(5.0f);
  EXPECT_EQ(v.currentStep(), 0) << "hidden: nothing plays";
  v.toggle();
  v.advance(satdof::LessonView::kStepSeconds * 0.9f);
  EXPECT_EQ(v.currentStep(), 0);
  v.advance(satdof::LessonView::kStepSeconds * 0.2f);
  EXPECT_EQ(v.currentStep(), 1);
  v.advance(satdof::LessonView::kStepSeconds * 1000);
  EXPECT_EQ(v.currentStep(), v.steps() - 1);
  EXPECT_FALSE(v.playing()) << "stops at the last step";
  v.togglePlay();
  EXPECT_EQ(v.currentStep(), 0) << "play from the last step starts over";
}

// Every lesson draws in an ImGui frame at its largest size (the most cells a picture has:
// a convolution's at radius 15, and at 2, where three of them walk their strips), and the
// window's draw list holds the picture.
TEST(LessonView, EveryLessonDrawsAtItsLargestSize) {
  createHeadlessImGui(1280, 720);
  ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;  // as the OpenGL 3 backend sets it
  satdof::LessonView v;
  v.toggle();
  const std::vector<std::string> names = v.names();
  ASSERT_EQ(names.size(), 15u) << "6 block scans (subgroup's the GLSL one), the look-back, 2 SATs, 6 convolutions";
  for (const std::string& name : names) {
    const bool conv = name == "basic" || name == "constant-memory" || name.rfind("tiled", 0) == 0 ||
                      name == "separable" || name == "sat-box";
    const bool sat = name.rfind("rows-", 0) == 0;
    for (const int size : conv ? std::vector<int>{15, 2} : std::vector<int>{sat ? 16 : 64}) {
      ASSERT_TRUE(v.select(name, size)) << name;
      for (int step : {0, 1000}) {  // the first step and the last
        v.step(step);
        ImGui::NewFrame();
        v.draw(950);
        ImGui::Render();
        std::size_t vertices = 0;
        for (int i = 0; i < ImGui::GetDrawData()->CmdListsCount; ++i) vertices += std::size_t(ImGui::GetDrawData()->CmdLists[i]->VtxBuffer.Size);
        EXPECT_GT(vertices, 1000u) << name << " step " << v.currentStep() << ": " << v.caption();
        EXPECT_EQ(v.caption().find("must"), std::string::npos) << v.caption();
      }
    }
  }
  ImGui::DestroyContext();
}

// Opened, the lesson follows the scan variant the app runs where that has one.
TEST(LessonView, OpensOnTheScanVariantThatRuns) {
  satdof::LessonView v;
  v.toggle("hillis-steele");
  EXPECT_TRUE(v.shown());
  EXPECT_EQ(v.caption().rfind("scan hillis-steele, ", 0), 0u) << v.caption();
  v.toggle("blelloch");  // hiding changes nothing
  EXPECT_FALSE(v.shown());
  EXPECT_EQ(v.caption().rfind("scan hillis-steele, ", 0), 0u) << v.caption();
  v.toggle("cub");  // no lesson for it: the last one stays
  EXPECT_EQ(v.caption().rfind("scan hillis-steele, ", 0), 0u) << v.caption();
  v.toggle();
  v.toggle("decoupled-lookback");
  EXPECT_EQ(v.caption().rfind("scan decoupled-lookback, n 16 in 2 tiles: step 1 of ", 0), 0u) << v.caption();
  v.toggle();
  v.toggle("warp-shuffle");
  EXPECT_EQ(v.caption().rfind("scan warp-shuffle, n 16 in 2 blocks: step 1 of ", 0), 0u) << v.caption();
  v.toggle();
  v.toggle("blelloch-8-per-thread");
  EXPECT_EQ(v.caption(), "scan blelloch-8-per-thread, n 16 in 2 blocks: step 1 of 8, reduce the tiles");
}

// On gl-compute the convolution lessons are its GLSL shaders' (lesson/conv_trace.h), in place
// of the CUDA kernels'; a convolution shown stays shown as its namesake where there is one.
// Each draws at its largest radius and its smallest.
TEST(LessonView, OnGlComputeTheConvolutionsAreItsGlslShaders) {
  satdof::LessonView v;
  const std::size_t cuda = v.names().size();
  ASSERT_TRUE(v.select("tiled-halo", 3));
  v.setConvBackend(satdof::lesson::ConvBackend::GlCompute);
  const std::vector<std::string> names = v.names();
  EXPECT_EQ(names.size(), cuda - 6 + 4);
  for (const std::string& name : satdof::lesson::tracedConvVariants(satdof::lesson::ConvBackend::GlCompute))
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_EQ(std::find(names.begin(), names.end(), "tiled-halo"), names.end());
  EXPECT_EQ(v.caption().rfind("convolution glsl-tiled-halo, r 3, zero border: step 1 of 2, load the tile", 0), 0u) << v.caption();
  EXPECT_FALSE(v.select("basic"));
  createHeadlessImGui(1280, 720);
  ImGui::GetIO().BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  v.toggle();
  for (const std::string& name : satdof::lesson::tracedConvVariants(satdof::lesson::ConvBackend::GlCompute))
    for (const int radius : {satdof::kMaxFilterRadius, 1}) {
      ASSERT_TRUE(v.select(name, radius)) << name;
      ImGui::NewFrame();
      v.draw(950);
      ImGui::Render();
      std::size_t vertices = 0;
      for (int i = 0; i < ImGui::GetDrawData()->CmdListsCount; ++i) vertices += std::size_t(ImGui::GetDrawData()->CmdLists[i]->VtxBuffer.Size);
      EXPECT_GT(vertices, 1000u) << name << ": " << v.caption();
      EXPECT_EQ(v.caption().find("must"), std::string::npos) << v.caption();
    }
  ImGui::DestroyContext();
  ASSERT_TRUE(v.select("glsl-sat-box", 2));
  v.setConvBackend(satdof::lesson::ConvBackend::Cuda);
  EXPECT_EQ(v.names().size(), cuda);
  EXPECT_EQ(v.caption().rfind("convolution sat-box, r 2", 0), 0u) << v.caption();
}

// The lesson in the window, driven by the keys a user presses: L shows it over the image,
// Space plays (a script's frames are 1/30 s apart: 30 frames are one step of 0.8 s), Right
// and Left step, L hides it. Each screenshot's settings name the step shown; the picture
// of a step is the same when it is come back to, and another step's differs.
TEST(AppScript, TheLessonViewStepsWithTheKeysAndPlays) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("lesson_view");
  const std::string shot = "wait 2\nscreenshot " + dir.string() + "/";
  const std::string script = shot + "none.png\nkey L\n" + shot + "first.png\nkey Space\nwait 28\n" + shot +
                             "played.png\nkey Space\nkey Right\nkey Right\n" + shot + "fourth.png\nkey Left\nkey Left\n"
                             "key Left\n" + shot + "back.png\nkey L\n" + shot + "closed.png\nquit\n";
  const RunResult r = runScript(dir, script, "--msaa 1", 1280, 720);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  auto lessonLine = [&](const char* name) {
    const std::string text = slurp(dir / name);
    const std::size_t at = text.find("# lesson ");
    return at == std::string::npos ? std::string("(none)") : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_EQ(lessonLine("none.txt"), "(none)");
  EXPECT_EQ(lessonLine("first.txt"), "# lesson scan blelloch, n 16 in 2 blocks: step 1 of 12, load");
  EXPECT_EQ(lessonLine("played.txt"), "# lesson scan blelloch, n 16 in 2 blocks: step 2 of 12, up-sweep");
  EXPECT_EQ(lessonLine("fourth.txt"), "# lesson scan blelloch, n 16 in 2 blocks: step 4 of 12, up-sweep");
  EXPECT_EQ(lessonLine("back.txt"), "# lesson scan blelloch, n 16 in 2 blocks: step 1 of 12, load");
  EXPECT_EQ(lessonLine("closed.txt"), "(none)");

  // A part of the picture well inside its white page (the window opens at the top left).
  auto page = [&](const char* name) {
    const Png png = loadPng(dir / name);
    std::vector<unsigned char> part;
    if (png.width != 1280 || png.height != 720) return part;
    for (int y = 130; y < 330; ++y)
      part.insert(part.end(), png.rgba.begin() + (std::ptrdiff_t(y) * png.width + 40) * 4,
                  png.rgba.begin() + (std::ptrdiff_t(y) * png.width + 700) * 4);
    return part;
  };
  const std::vector<unsigned char> none = page("none.png"), first = page("first.png");
  ASSERT_FALSE(first.empty());
  std::size_t white = 0;
  for (std::size_t i = 0; i + 3 < first.size(); i += 4) white += first[i] == 255 && first[i + 1] == 255 && first[i + 2] == 255;
  EXPECT_GT(white * 4, first.size() / 2) << "most of it the page's white";
  EXPECT_NE(first, none) << "L shows the lesson over the image";
  EXPECT_EQ(first, page("back.png")) << "step 1 again looks as it did";
  EXPECT_NE(first, page("played.png"));
  EXPECT_NE(page("played.png"), page("fourth.png"));
}

// On gl-compute, L opens on the scan variant the backend runs (chosen by a script here).
TEST(AppScript, TheLessonViewOpensOnTheScanVariantThatRuns) {
  SATDOF_SKIP_WITHOUT_XVFB();
  const fs::path dir = freshDir("lesson_follows");
  const std::string script = "select scan hillis-steele\nwait 2\nkey L\nwait 2\nscreenshot " + (dir / "shot.png").string() +
                             "\nquit\n";
  const RunResult r = runScript(dir, script, "--backend gl-compute --msaa 1", 640, 360);
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const std::string text = slurp(dir / "shot.txt");
  EXPECT_NE(text.find("# lesson scan hillis-steele, n 16 in 2 blocks: step 1 of "), std::string::npos) << text;
}
