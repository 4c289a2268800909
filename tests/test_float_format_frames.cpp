// tests/test_float_format_frames.cpp — the float SAT formats (float32, float32-offset) give
// the same frame on every backend and every SAT algorithm, at odd sizes up to 4K: the
// frame as headless runs save it (bokeh on, the default), byte for byte the cpu backend's;
// and, with bokeh off, the frame's table byte for byte the reference's table of the image
// the SAT read (reference::computeSat) and its DoF image byte for byte the reference's DoF
// from that table (verifyFrame, what the app's verify runs). The CUDA DoF kernel (--dof
// cuda) too, on the cuda backend.
//
// One headless app per backend (in this process), resized, switched between formats, SAT
// algorithms and DoF implementations as the panel switches them; every case renders two
// frames and reads the second, as a headless run saves it. The thread's rounding mode
// (MXCSR) is printed after each app starts: the GPUs round to nearest, and a host left in
// another mode by a driver would round the cpu backend's entries otherwise, were the
// reference not independent of it (satdof/reference/fp_environment.h).
//
//   EveryBackendAndSatAlgorithmAtOddSizesUpTo4K  (GPU) cpu, gl-compute, cuda at 853x479,
//       2561x1443 and 3839x2159 (the gl-compute backend builds float formats up to
//       8421504 pixels: 3839x2159 is 8288401); skips visibly without CUDA
//   HeadlessRunsOfEveryBackendGiveTheCpuRunsFrame  (GPU) the same sizes, formats and
//       algorithms as separate `satdof --headless` runs, PNG against PNG: each process
//       with its own drivers' state, as a user compares them
//   GlComputeGivesTheCpuFrameAtAnOddSize  (any GL, llvmpipe too) cpu and gl-compute at
//       853x479
// SATDOF_TEST_MAX_N caps the sizes (pixels), as in the other GPU tests.
#include <glad/gl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app_run_support.h"

#include "app/app.h"
#include "engine/content/content.h"
#include "engine/image/image_io.h"
#include "settings/cli.h"
#include "satdof/reference/fp_environment.h"
#include "satdof/reference/sat.h"
#include "satdof/sat_format.h"
#include "qa/verify.h"

namespace {

using satdof::Extent;
namespace ref = satdof::reference;

struct Size {
  int width, height;
};

std::string sizeName(Size s) { return std::to_string(s.width) + "x" + std::to_string(s.height); }

std::size_t maxPixels() {
  const char* v = std::getenv("SATDOF_TEST_MAX_N");
  return v ? std::size_t(std::strtoull(v, nullptr, 10)) : 0;
}

// A headless app on `backend` at `size`, or why it cannot start here.
std::unique_ptr<satdof::App> headlessApp(const std::string& backend, Size size, std::string& why) {
  std::vector<std::string> flags = {"satdof", "--headless", "--backend", backend, "--size", sizeName(size),
                                    "--sat-format", "float32"};
  std::vector<char*> argv;
  for (std::string& f : flags) argv.push_back(f.data());
  const satdof::ParseOutcome parsed = satdof::parseCommandLine(int(argv.size()), argv.data());
  if (!parsed.options) {
    why = "the command line was refused";
    return nullptr;
  }
  const satdof::Options& o = *parsed.options;
  try {
    return std::make_unique<satdof::App>(o, std::map<std::string, std::string>{},
                                         satdof::content::loadContent({o.scene, o.photo, o.depth, o.depthMapping}));
  } catch (const std::exception& e) {
    why = e.what();
    return nullptr;
  }
}

// This thread's rounding, in words.
std::string roundingNow() {
#if defined(__x86_64__) || defined(__i386__)
  char text[64];
  std::snprintf(text, sizeof text, "MXCSR %#06x", _mm_getcsr());
  return std::string(text) + (ref::roundsToNearest() ? " (round to nearest)" : " (NOT round to nearest)");
#else
  return ref::roundsToNearest() ? "round to nearest" : "NOT round to nearest";
#endif
}

// The backend's SAT algorithms, as its panel lists them.
std::vector<std::string> satAlgorithms(const satdof::ComputeBackend& backend) {
  std::vector<std::string> names;
  for (const satdof::BackendOption& o : backend.options())
    if (o.key == "sat")
      for (const satdof::Choice& c : o.choices) names.push_back(c.name);
  if (names.empty()) names.push_back(backend.selected("sat"));  // one fixed algorithm
  return names;
}

// Two frames, as a headless run renders them; the second's image as it saves it.
ref::ImageRgba8 renderShown(satdof::App& app) {
  for (int i = 0; i < 2; ++i) {
    app.renderer().renderFrame();
    app.renderer().endFrame();
  }
  glFinish();
  const Extent e = app.renderer().extent();
  return satdof::readFramebuffer(app.renderer().shownFramebuffer(), e.width, e.height);
}

// Where two images first differ, and how many bytes do, in words ("" when equal).
std::string imageDifference(const ref::ImageRgba8& got, const ref::ImageRgba8& want) {
  if (got.width != want.width || got.height != want.height) return "sizes differ";
  std::size_t bytes = 0, first = 0;
  int largest = 0;
  for (std::size_t i = 0; i < got.pixels.size(); ++i)
    if (got.pixels[i] != want.pixels[i]) {
      if (bytes++ == 0) first = i;
      largest = std::max(largest, std::abs(int(got.pixels[i]) - int(want.pixels[i])));
    }
  if (bytes == 0) return "";
  const std::size_t pixel = first / 4;
  std::ostringstream s;
  s << bytes << " of " << got.pixels.size() << " bytes differ, by up to " << largest << "; the first at x="
    << pixel % std::size_t(got.width) << " y=" << pixel / std::size_t(got.width) << " channel " << first % 4 << " ("
    << int(got.pixels[first]) << ", expected " << int(want.pixels[first]) << ")";
  return s.str();
}

// The first entry where a table differs from the reference's, in words ("" when equal).
std::string tableDifference(const std::vector<std::uint8_t>& got, const ref::Sat& want) {
  const std::vector<std::uint8_t> bytes = ref::satTableBytesOf(want);
  if (got.size() != bytes.size()) return "sizes differ";
  if (std::memcmp(got.data(), bytes.data(), bytes.size()) == 0) return "";
  std::size_t words = 0, first = 0;
  for (std::size_t w = 0; w * 4 < bytes.size(); ++w)
    if (std::memcmp(got.data() + w * 4, bytes.data() + w * 4, 4) != 0 && words++ == 0) first = w;
  float g, e;
  std::memcpy(&g, got.data() + first * 4, 4);
  std::memcpy(&e, bytes.data() + first * 4, 4);
  const std::size_t pixel = first / 4, pixels = std::size_t(want.width) * want.height;
  std::ostringstream s;
  s << words << " words differ; the first: ";
  if (pixel >= pixels)
    s << "trailer word " << first - pixels * 4;
  else
    s << "x=" << pixel % std::size_t(want.width) << " y=" << pixel / std::size_t(want.width) << " channel "
      << first % 4;
  s << ", " << g << " (expected " << e << ")";
  return s.str();
}

// Every backend in `backends` (the first gives the expected frames) x every SAT algorithm
// it has x float32 and float32-offset x `sizes`.
void checkFrames(const std::vector<std::string>& backends, const std::vector<Size>& sizes) {
  const std::size_t cap = maxPixels();
  std::map<std::string, ref::ImageRgba8> expected;  // "<size> <format>": the first backend's frame
  for (const std::string& backend : backends) {
    SCOPED_TRACE("backend " + backend);
    std::string why;
    const std::unique_ptr<satdof::App> app = headlessApp(backend, sizes.front(), why);
    ASSERT_TRUE(app) << "the " << backend << " backend did not start: " << why;
    std::printf("  %s app started: %s\n", backend.c_str(), roundingNow().c_str());
    const std::vector<std::string> algorithms = satAlgorithms(app->renderer().pipeline().backend());
    std::vector<std::string> dofs = {"compute"};
    if (backend == "cuda") dofs.push_back("cuda");  // the CUDA kernel's box means (box_mean.h)
    for (const Size size : sizes) {
      if (cap && std::size_t(size.width) * std::size_t(size.height) > cap) continue;
      app->renderer().resize({size.width, size.height});
      ASSERT_EQ(app->renderer().extent().width, size.width);
      ASSERT_EQ(app->renderer().extent().height, size.height);
      for (const char* format : {"float32", "float32-offset"}) {
        app->renderer().setSatFormat(format);
        ASSERT_EQ(satdof::satFormatInfo(app->renderer().pipeline().targets().satFormat).name, format);
        const std::string key = sizeName(size) + " " + format;
        for (const std::string& algorithm : algorithms) {
          app->renderer().applyChoices(std::string(app->renderer().pipeline().dofEntry().name), {{"sat", algorithm}});
          if (app->renderer().pipeline().backend().selected("sat") != algorithm) {
            std::printf("  %s %s: %s does not build %s (skipped)\n", backend.c_str(), key.c_str(),
                        algorithm.c_str(), format);
            continue;
          }
          for (const std::string& dof : dofs) {
            SCOPED_TRACE(key + ", sat " + algorithm + ", dof " + dof);
            app->renderer().applyChoices(dof, {});
            ASSERT_EQ(app->renderer().pipeline().dofEntry().name, dof);
            // The frame as saved, with bokeh (the default): the first backend's bytes.
            app->renderer().settings().bokeh.enabled = true;
            const ref::ImageRgba8 shown = renderShown(*app);
            if (!expected.count(key)) {
              expectNotBlank(Png{shown.width, shown.height, shown.pixels});
              expected[key] = shown;
            }
            const std::string frameDiff = imageDifference(shown, expected[key]);
            EXPECT_EQ(frameDiff, "") << "the frame differs from the " << backends.front() << " backend's";
            // Without bokeh: the table and the DoF image against the reference of the
            // image the SAT read.
            app->renderer().settings().bokeh.enabled = false;
            renderShown(*app);
            const satdof::Targets& t = app->renderer().pipeline().targets();
            satdof::FrameCopy copy;
            auto [source, depth] = app->renderer().readBackColourAndDepth();
            copy.source = std::move(source);
            copy.depth = std::move(depth);
            copy.dof = satdof::readTexture(t.dofOutput, size.width, size.height);
            copy.sat.resize(satdof::satTableBytes(t.satFormat, size.width, size.height));
            glGetNamedBufferSubData(t.sat, 0, GLsizeiptr(copy.sat.size()), copy.sat.data());
            satdof::VerifyRequest request;
            request.format = t.satFormat;
            request.params = app->renderer().frameBlur().dof.params;
            request.dofName = dof;
            bool allOk = true;
            std::string lines;
            for (const satdof::VerifyLine& l : satdof::verifyFrame(copy, request)) {
              allOk = allOk && l.ok;
              lines += "\n  " + l.text;
            }
            EXPECT_TRUE(allOk) << lines << "\n  table: "
                               << tableDifference(copy.sat, ref::computeSat(copy.source, t.satFormat));
            std::printf("  %-10s %-9s %-14s %-19s %-7s frame %s; %s\n", backend.c_str(), sizeName(size).c_str(),
                        format, algorithm.c_str(), dof.c_str(), frameDiff.empty() ? "same" : "DIFFERS",
                        allOk ? "SAT and DoF the reference's" : "NOT the reference's");
          }
        }
      }
    }
    app->renderer().settings().bokeh.enabled = true;
    std::printf("  %s app done: %s\n", backend.c_str(), roundingNow().c_str());
  }
}

// The SAT algorithms of `backend` that build the float formats (those an app of it in
// float32 accepts), or none with why it cannot start.
std::vector<std::string> floatAlgorithmsOf(const std::string& backend, std::string& why) {
  const std::unique_ptr<satdof::App> app = headlessApp(backend, {64, 48}, why);
  std::vector<std::string> names;
  if (!app) return names;
  for (const std::string& name : satAlgorithms(app->renderer().pipeline().backend())) {
    app->renderer().applyChoices(std::string(app->renderer().pipeline().dofEntry().name), {{"sat", name}});
    if (app->renderer().pipeline().backend().selected("sat") == name) names.push_back(name);
  }
  return names;
}

// `satdof --headless` with `flags`: its second frame, or empty with the failure recorded.
ref::ImageRgba8 headlessRunFrame(const std::string& flags, const std::string& name) {
  const fs::path out = freshDir("float_frames_" + name);
  const RunResult r = run("--headless --frames 2 --save last --out " + out.string() + " " + flags);
  ref::ImageRgba8 image;
  EXPECT_EQ(r.exitCode, 0) << flags << ": " << r.err;
  if (r.exitCode != 0) return image;
  const Png png = loadPng(out / "frame_0001.png");
  fs::remove_all(out);
  image.width = png.width;
  image.height = png.height;
  image.pixels = png.rgba;
  return image;
}

TEST(FloatFormatFrames, EveryBackendAndSatAlgorithmAtOddSizesUpTo4K) {
  {  // CUDA first: without it the test skips before the slower backends run
    std::string why;
    if (!headlessApp("cuda", {64, 48}, why)) SATDOF_SKIP_WITHOUT_GPU("the cuda backend cannot run here: " + why);
  }
  checkFrames({"cpu", "gl-compute", "cuda"}, {{853, 479}, {2561, 1443}, {3839, 2159}});
}

TEST(FloatFormatFrames, HeadlessRunsOfEveryBackendGiveTheCpuRunsFrame) {
  std::string why;
  const std::vector<std::string> cudaSats = floatAlgorithmsOf("cuda", why);
  if (cudaSats.empty()) SATDOF_SKIP_WITHOUT_GPU("the cuda backend cannot run here: " + why);
  const std::vector<std::string> glSats = floatAlgorithmsOf("gl-compute", why);
  ASSERT_FALSE(glSats.empty()) << "gl-compute did not start: " << why;
  std::vector<std::string> configurations;  // every backend's flags beside the cpu's
  for (const std::string& sat : glSats) configurations.push_back("--backend gl-compute --sat " + sat);
  for (const std::string& sat : cudaSats) configurations.push_back("--backend cuda --sat " + sat);
  configurations.push_back("--backend cuda --dof cuda");
  const std::size_t cap = maxPixels();
  for (const Size size : {Size{853, 479}, Size{2561, 1443}, Size{3839, 2159}}) {
    if (cap && std::size_t(size.width) * std::size_t(size.height) > cap) continue;
    for (const char* format : {"float32", "float32-offset"}) {
      const std::string common = "--size " + sizeName(size) + " --sat-format " + format + " ";
      SCOPED_TRACE(common);
      const ref::ImageRgba8 cpu = headlessRunFrame(common + "--backend cpu", "cpu");
      ASSERT_EQ(cpu.width, size.width);
      expectNotBlank(Png{cpu.width, cpu.height, cpu.pixels});
      for (const std::string& flags : configurations) {
        const ref::ImageRgba8 got = headlessRunFrame(common + flags, "gpu");
        const std::string diff = imageDifference(got, cpu);
        EXPECT_EQ(diff, "") << flags << ": the frame differs from the cpu backend's";
        std::printf("  %-9s %-14s %-48s %s\n", sizeName(size).c_str(), format, flags.c_str(),
                    diff.empty() ? "the cpu run's bytes" : "DIFFERS");
      }
    }
  }
}

TEST(FloatFormatFrames, GlComputeGivesTheCpuFrameAtAnOddSize) {
  {
    std::string why;
    if (!headlessApp("gl-compute", {64, 48}, why)) SATDOF_SKIP_WITHOUT_GL("gl-compute cannot run here: " + why);
  }
  checkFrames({"cpu", "gl-compute"}, {{853, 479}});
}

}  // namespace
