// tests/test_app.cpp — the satdof executable end to end:
//   * headless with the CPU backend writes non-blank PNGs;
//   * bad flags give one line on stderr and exit code 2;
//   * the CUDA backend gives the same image as the CPU backend (skips where CUDA-GL
//     interop is impossible, with satdof's own reason); so does the gl-compute backend,
//     filtering or not;
//   * the window app under Xvfb renders N frames, exits 0 and saves a screenshot
//     (kept as an artefact in the build folder: artifacts/window.png);
//   * issue 12: bad values said in words, scripts (errors with file:line; focus on the
//     near teapot keeps it sharp and blurs the far one, measured; every registry entry
//     renders when selected), the docked panel's share of the window, the settings file.
#include <gtest/gtest.h>

#include <stb/stb_image.h>

#include <glm/glm.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "backends/compute_backend.h"
#include "dof/dof_implementation.h"
#include "passes/view_pass.h"
#include "scene/scene.h"

namespace fs = std::filesystem;

namespace {

// Where the binary and the outputs are: compile-time paths, overridable through the
// environment (SATDOF_BINARY, SATDOF_TEST_OUT) when the build folder was moved.
std::string envOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
const std::string kBinary = envOr("SATDOF_BINARY", SATDOF_BINARY);
const std::string kTestOut = envOr("SATDOF_TEST_OUT", SATDOF_TEST_OUT);

struct RunResult {
  int exitCode = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunResult run(const std::string& args, const std::string& prefix = "") {
  const fs::path dir = fs::temp_directory_path() / ("satdof_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cmd = prefix + kBinary + " " + args + " >" + (dir / "out").string() +
                          " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  return r;
}

struct Png {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

Png loadPng(const fs::path& p) {
  Png png;
  int channels = 0;
  unsigned char* data = stbi_load(p.c_str(), &png.width, &png.height, &channels, 4);
  if (!data) return png;
  png.rgba.assign(data, data + std::size_t(png.width) * png.height * 4);
  stbi_image_free(data);
  return png;
}

// Not blank: the luminance varies (several distinct values, a real spread).
void expectNotBlank(const Png& png) {
  ASSERT_GT(png.width, 0);
  double sum = 0, sum2 = 0;
  const std::size_t n = png.rgba.size() / 4;
  for (std::size_t i = 0; i < n; ++i) {
    const double y = 0.3 * png.rgba[i * 4] + 0.59 * png.rgba[i * 4 + 1] + 0.11 * png.rgba[i * 4 + 2];
    sum += y;
    sum2 += y * y;
  }
  const double mean = sum / double(n);
  EXPECT_GT(std::sqrt(sum2 / double(n) - mean * mean), 10.0) << "image looks blank";
}

fs::path freshDir(const std::string& name) {
  const fs::path d = fs::path(kTestOut) / name;
  fs::remove_all(d);
  return d;
}

TEST(App, HeadlessCpuWritesNonBlankPngs) {
  const fs::path out = freshDir("headless_cpu");
  const RunResult r = run("--headless --frames 3 --backend cpu --size 320x180 --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("CPU backend"), std::string::npos) << r.out;
  for (int i = 0; i < 3; ++i) {
    const fs::path p = out / ("frame_000" + std::to_string(i) + ".png");
    ASSERT_TRUE(fs::exists(p)) << p;
    const Png png = loadPng(p);
    EXPECT_EQ(png.width, 320);
    EXPECT_EQ(png.height, 180);
    expectNotBlank(png);
  }
}

TEST(App, BadFlagsGiveOneLineAndExitCode2) {
  for (const char* args : {"--size 0x5", "--size wide", "--size 99999x2", "--frames 0", "--frames -3",
                           "--backend gpu", "--focal -1", "--max-blur nope", "--no-such-flag",
                           "bench", "bench nosuch", "--filter blur", "--filter box --radius 16",
                           "--filter custom --weights 1,2", "--filter box --conv no-such-kernel",
                           "--view diff --filter box", "--weights 1 --filter box",
                           "--filter sharpen --conv cpu-separable --backend cpu"}) {
    SCOPED_TRACE(args);
    const RunResult r = run(args);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("satdof: ", 0), 0u) << r.err;
  }
}

// A frame whose SAT exceeds the GL's largest shader storage block is refused up front, as
// a bad command line (exit 2).
TEST(App, OversizedFrameFailsWithOneLine) {
  const RunResult r = run("--headless --frames 1 --backend cpu --size 16384x16384 --out " +
                          freshDir("oversized").string() + " --save none");
  if (r.exitCode == 0) GTEST_SKIP() << "this GL accepts a 4 GiB shader storage block";
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("shader storage block"), std::string::npos) << r.err;
}

TEST(App, HelpExitsZero) {
  const RunResult r = run("--help");
  EXPECT_EQ(r.exitCode, 0);
  for (const char* flag : {"--headless", "--frames", "--size", "--out", "--backend", "--focal"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

TEST(App, CudaBackendGivesTheCpuImage) {
  const fs::path cpu = freshDir("same_cpu"), cuda = freshDir("same_cuda");
  const RunResult rc = run("--headless --frames 2 --backend cuda --size 640x360 --out " + cuda.string());
  if (rc.exitCode == 3) GTEST_SKIP() << "CUDA backend unavailable: " << rc.err;
  ASSERT_EQ(rc.exitCode, 0) << rc.err;
  const RunResult rp = run("--headless --frames 2 --backend cpu --size 640x360 --out " + cpu.string());
  ASSERT_EQ(rp.exitCode, 0) << rp.err;
  const Png a = loadPng(cpu / "frame_0001.png"), b = loadPng(cuda / "frame_0001.png");
  expectNotBlank(a);
  ASSERT_EQ(a.rgba.size(), b.rgba.size());
  EXPECT_TRUE(a.rgba == b.rgba) << "the CUDA and CPU backends must give the same image";
}

// A filtered frame: the CUDA kernel and the CPU reference of the same arithmetic
// (tiled-halo and cpu-direct are both the direct float sum) give the same image.
TEST(App, CudaFilterGivesTheCpuReferenceImage) {
  const fs::path cpu = freshDir("filter_cpu"), cuda = freshDir("filter_cuda");
  const std::string common = " --headless --frames 2 --size 480x270 --filter gaussian --radius 3 --view filtered";
  const RunResult rc = run("--backend cuda --conv tiled-halo --out " + cuda.string() + common);
  if (rc.exitCode == 3) GTEST_SKIP() << "CUDA backend unavailable: " << rc.err;
  ASSERT_EQ(rc.exitCode, 0) << rc.err;
  const RunResult rp = run("--backend cpu --conv cpu-direct --out " + cpu.string() + common);
  ASSERT_EQ(rp.exitCode, 0) << rp.err;
  const Png a = loadPng(cpu / "frame_0001.png"), b = loadPng(cuda / "frame_0001.png");
  expectNotBlank(a);
  EXPECT_TRUE(a.rgba == b.rgba) << "filtered images differ between CUDA and the CPU reference";
}

// Every DoF implementation the CUDA backend can run, in every SAT format and with the thin
// lens, gives the CPU backend's image byte for byte: fragment, compute and cuda the CPU
// backend's fragment pass; layered (CUDA split and SATs there) the CPU backend's layered.
TEST(App, EveryDofImplementationAndFormatGivesTheCpuImage) {
  const std::string common = " --headless --frames 2 --size 400x224 --camera thin-lens --focal-length 135";
  for (const char* format : {"uint32", "float32", "float32-offset"}) {
    std::map<std::string, Png> cpuImages;
    for (const char* dof : {"fragment", "layered"}) {
      const fs::path cpu = freshDir(std::string("dof_cpu_") + dof + "_" + format);
      const RunResult rp = run("--backend cpu --dof " + std::string(dof) + " --sat-format " + std::string(format) +
                               " --out " + cpu.string() + common);
      ASSERT_EQ(rp.exitCode, 0) << rp.err;
      cpuImages[dof] = loadPng(cpu / "frame_0001.png");
      expectNotBlank(cpuImages[dof]);
    }
    for (const char* dof : {"fragment", "compute", "cuda", "layered"}) {
      const Png& expected = cpuImages[std::string(dof) == "layered" ? "layered" : "fragment"];
      SCOPED_TRACE(std::string(dof) + " / " + format);
      const fs::path out = freshDir(std::string("dof_") + dof + "_" + format);
      const RunResult rc = run("--backend cuda --dof " + std::string(dof) + " --sat-format " + format +
                               " --out " + out.string() + common);
      if (rc.exitCode == 3) GTEST_SKIP() << "CUDA backend unavailable: " << rc.err;
      ASSERT_EQ(rc.exitCode, 0) << rc.err;
      EXPECT_TRUE(loadPng(out / "frame_0001.png").rgba == expected.rgba) << "differs from the CPU backend's image";
    }
  }
}

// satdof quality renders every scene, prints a PSNR per implementation, and on the two
// artifact scenes the layered DoF is at least 3 dB closer to the ground truth than the
// textbook fragment pass.
TEST(App, QualityToolShowsTheLayeredDofBeatingTheTextbook) {
  const fs::path out = freshDir("quality");
  const RunResult r = run("quality --backend cpu --size 320x180 --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::istringstream lines(r.out);
  int artifactRows = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream row(line);
    std::string scene, fragment, compute, cuda, layered;
    float focus = 0;
    if (!(row >> scene >> focus >> fragment >> compute >> cuda >> layered)) continue;
    if (scene != "sharp-front" && scene != "blurred-front") continue;
    ++artifactRows;
    EXPECT_GE(std::stod(layered), std::stod(fragment) + 3.0) << line;
    EXPECT_EQ(fragment, compute) << "the fragment and compute passes give the same image";
  }
  EXPECT_EQ(artifactRows, 2) << r.out;
  EXPECT_TRUE(fs::exists(out / "sharp-front_focus3.0_truth.png"));
}

// The gl-compute backend renders the CPU backend's frame: unfiltered (in a float SAT
// format too, and with the layered DoF, whose field SATs it builds), and filtered by a
// GLSL convolution against the cpu implementation of the same maths (the direct sum; the
// exact box mean, whose SAT-based GLSL version reads the SAT of the scene).
TEST(App, GlComputeBackendGivesTheCpuImage) {
  struct Case {
    const char *glCompute, *cpu;
  };
  for (const Case c : {Case{"", ""}, Case{"--sat-format float32-offset", "--sat-format float32-offset"},
                       Case{"--dof layered", "--dof layered"},
                       Case{"--filter gaussian --radius 3 --conv glsl-tiled-halo --compare glsl-basic",
                            "--filter gaussian --radius 3 --conv cpu-direct"},
                       Case{"--filter box --radius 5 --border zero --conv glsl-sat-box --compare glsl-separable",
                            "--filter box --radius 5 --border zero --conv cpu-box-sum"}}) {
    SCOPED_TRACE(c.glCompute);
    const fs::path gpu = freshDir("glc_gl"), cpu = freshDir("glc_cpu");
    const std::string common = "--headless --frames 2 --size 480x270 ";
    const RunResult rg = run(common + "--backend gl-compute --out " + gpu.string() + " " + c.glCompute);
    if (rg.exitCode == 3) GTEST_SKIP() << "gl-compute backend unavailable: " << rg.err;
    ASSERT_EQ(rg.exitCode, 0) << rg.err;
    EXPECT_NE(rg.out.find("GL-compute backend"), std::string::npos) << rg.out;
    const RunResult rp = run(common + "--backend cpu --out " + cpu.string() + " " + c.cpu);
    ASSERT_EQ(rp.exitCode, 0) << rp.err;
    const Png a = loadPng(cpu / "frame_0001.png"), b = loadPng(gpu / "frame_0001.png");
    expectNotBlank(a);
    EXPECT_TRUE(a.rgba == b.rgba) << "the gl-compute and cpu backends must give the same image";
  }
}

// satdof soak switches every registry entry at random; each check renders the same
// settings in a fresh process and compares the bytes; memory stays flat.
TEST(App, SoakSwitchingEveryEntryMatchesFreshRenders) {
  const fs::path out = freshDir("soak");
  const RunResult r = run("soak --backend cpu --frames 90 --check-every 30 --size 160x90 --seed 3 --out " +
                          out.string());
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 mismatches, memory flat"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n') >= 3, true);
}

// The difference view of an implementation against itself is black, with maximum 0.
TEST(App, DifferenceOfAnImplementationWithItselfIsZero) {
  const fs::path out = freshDir("diff_self");
  const RunResult r = run("--headless --frames 2 --size 160x90 --backend cpu --filter box --radius 2 "
                          "--conv cpu-direct --compare cpu-direct --view diff --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("max difference cpu-direct vs cpu-direct: 0 grey levels"), std::string::npos) << r.out;
  const Png png = loadPng(out / "frame_0001.png");
  ASSERT_GT(png.width, 0);
  for (std::size_t i = 0; i < png.rgba.size(); i += 4) ASSERT_EQ(png.rgba[i] + png.rgba[i + 1] + png.rgba[i + 2], 0);
}

TEST(App, WindowUnderXvfbRendersAndExits) {
  if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "xvfb-run not installed (scripts/test installs it)";
  const fs::path shot = fs::path(kTestOut) / "artifacts" / "window.png";
  fs::remove(shot);
  const RunResult r = run("--frames 5 --size 800x450 --backend cpu --screenshot " + shot.string(),
                          "xvfb-run -a -s '-screen 0 1024x768x24' ");
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const Png png = loadPng(shot);
  EXPECT_EQ(png.width, 800);
  EXPECT_EQ(png.height, 450);
  expectNotBlank(png);
}

}  // namespace

// =====================================================================================
// Issue 12: the command line in words, scripts, focus, registries, layout, settings
// =====================================================================================

namespace {

bool haveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

// Runs satdof in an Xvfb window of `w` x `h` with the script `text`; settings in a
// private folder so that the user's own never matter.
RunResult runScript(const fs::path& dir, const std::string& text, const std::string& args, int w, int h) {
  fs::create_directories(dir);
  const fs::path script = dir / "script.txt";
  std::ofstream(script) << text;
  return run("--backend cpu --size " + std::to_string(w) + "x" + std::to_string(h) + " --script " + script.string() +
                 " " + args,
             "XDG_CONFIG_HOME=" + (dir / "config").string() + " xvfb-run -a -s '-screen 0 " + std::to_string(w) + "x" +
                 std::to_string(h) + "x24' ");
}

struct Box {
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
  int cx() const { return (x0 + x1) / 2; }
  int cy() const { return (y0 + y1) / 2; }
};

// Where an instance of the default scene lands in a w x h image (the app's own camera
// and projection), and where its centre does.
Box screenBox(const satdof::scene::Scene& s, int instance, int w, int h, int& cx, int& cy) {
  const auto& inst = s.instances[std::size_t(instance)];
  const glm::mat4 m = s.camera.projection(float(w) / float(h)) * s.camera.view() * inst.model;
  auto toPixel = [&](glm::vec3 p, int& x, int& y) {
    const glm::vec4 c = m * glm::vec4(p, 1.0f);
    x = int((c.x / c.w * 0.5f + 0.5f) * float(w));
    y = int((0.5f - c.y / c.w * 0.5f) * float(h));
  };
  Box b;
  for (const auto& v : s.meshes[std::size_t(inst.mesh)].vertices) {
    int x = 0, y = 0;
    toPixel(v.position, x, y);
    b.x0 = std::max(0, std::min(b.x0, x));
    b.y0 = std::max(0, std::min(b.y0, y));
    b.x1 = std::min(w - 1, std::max(b.x1, x));
    b.y1 = std::min(h - 1, std::max(b.y1, y));
  }
  toPixel(satdof::scene::computeBounds(s.meshes[std::size_t(inst.mesh)]).centre(), cx, cy);
  return b;
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
  std::vector<satdof::FilterImplementation> filterImplementations() const override { return {}; }
  std::vector<satdof::BackendOption> options() const override { return {}; }
  std::string selected(const std::string&) const override { return {}; }
  std::optional<std::string> select(const std::string&, const std::string&) override { return std::nullopt; }
};

// "image WxH" from a screenshot's settings file.
std::pair<int, int> imageSizeFrom(const fs::path& sidecar) {
  const std::string text = slurp(sidecar);
  const std::size_t at = text.find("image ");
  int w = 0, h = 0;
  if (at != std::string::npos) std::sscanf(text.c_str() + at, "image %dx%d", &w, &h);
  return {w, h};
}

}  // namespace

TEST(AppCli, BadValuesSayWhatIsWrongInWords) {
  const std::pair<const char*, const char*> cases[] = {
      {"--max-blur banana", "satdof: --max-blur: 'banana' is not a number"},
      {"--max-blur 300", "'300' is out of range: must be between 0 and 256"},
      {"--frames 1.5", "--frames: '1.5' is not a whole number"},
      {"--view nope", "no view 'nope'; valid: final, scene, depth, sat, focus, filtered, split, diff"},
      {"--filter box --conv nosuch", "no convolution implementation 'nosuch'"},
      {"--conv cpu-direct", "--conv: applies only with --filter"},
      {"--filter box --sigma 2", "--sigma: applies only to --filter gaussian"},
      {"--headless --screenshot x.png", "--screenshot: applies to the window only"},
      {"--headless --script x.txt", "--script: applies to the window only"},
      {"--headless --out /proc/satdof-test", "--out: cannot create the folder '/proc/satdof-test'"},
      {"--backend cpu --sat nosuch", "no SAT algorithm 'nosuch' in the cpu backend; valid: reference"},
      {"--diff-gain 4", "--diff-gain: applies only to --view diff"},
      {"--msaa 3", "'3' is not a power of two"},
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
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed (scripts/test installs it)";
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
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed (scripts/test installs it)";
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
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed (scripts/test installs it)";
  for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{640, 400}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const fs::path dir = freshDir("layout_" + std::to_string(w));
    const RunResult r = runScript(dir, "wait 3\nscreenshot " + (dir / "shot.png").string() + "\nquit\n", "", w, h);
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const auto [iw, ih] = imageSizeFrom(dir / "shot.txt");
    EXPECT_GE(3 * iw, 2 * w) << "the panel covers more than a third";
    EXPECT_EQ(ih, h);
    Png png = loadPng(dir / "shot.png");
    ASSERT_EQ(png.width, w);
    Png image;  // the image's part of the window
    image.width = iw;
    image.height = ih;
    for (int y = 0; y < ih; ++y)
      for (int x = 0; x < iw; ++x)
        for (int c = 0; c < 4; ++c) image.rgba.push_back(png.rgba[(std::size_t(y) * w + x) * 4 + c]);
    expectNotBlank(image);
  }
}

// Keys pressed by a script act as in the window: H hides the panel (the image takes the
// whole window), R puts back the settings the run started with.
TEST(AppScript, KeysHideThePanelAndReset) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed (scripts/test installs it)";
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

// Settings are kept between window runs; a corrupt file gives one warning and defaults.
TEST(AppSettings, KeptBetweenRunsAndCorruptFileWarnsOnce) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed (scripts/test installs it)";
  const fs::path dir = freshDir("settings");
  const fs::path config = dir / "config";
  const std::string env = "XDG_CONFIG_HOME=" + config.string() + " xvfb-run -a -s '-screen 0 640x360x24' ";
  const fs::path file = config / "satdof" / "settings.ini";
  // Run 1 sets focal 11 on the command line; run 2 starts from the file.
  RunResult r = run("--backend cpu --size 640x360 --frames 2 --focal 11 --max-blur 9", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  ASSERT_TRUE(fs::exists(file));
  EXPECT_NE(slurp(file).find("focal=11"), std::string::npos) << slurp(file);
  r = run("--backend cpu --size 640x360 --frames 2 --screenshot " + (dir / "second.png").string(), env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(slurp(dir / "second.txt").find("max-blur=9"), std::string::npos) << slurp(dir / "second.txt");
  // A corrupt file: one warning line, the defaults, and the run goes on.
  std::ofstream(file) << "focal=11\nthis line has no equals sign\n";
  r = run("--backend cpu --size 640x360 --frames 2 --screenshot " + (dir / "third.png").string(), env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("warning: ignoring the settings file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 2: expected key=value"), std::string::npos) << r.err;
  EXPECT_NE(slurp(dir / "third.txt").find("max-blur=12"), std::string::npos) << slurp(dir / "third.txt");
  // --no-settings: neither read nor written.
  fs::remove(file);
  r = run("--backend cpu --size 640x360 --frames 2 --no-settings", env);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(fs::exists(file));
}

// Autofocus keeps the image centre in focus: a focal distance set by hand is pulled back
// to the centre's depth; without autofocus it stays where it was set.
TEST(AppScript, AutofocusPullsTheFocusToTheCentre) {
  if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not installed (scripts/test installs it)";
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
