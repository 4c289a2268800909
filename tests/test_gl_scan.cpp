// tests/test_gl_scan.cpp — the gl-compute backend's SAT passes (engine/backends/gl_scan_sat.h)
// on a headless EGL context (Mesa's llvmpipe in CI, NVIDIA's EGL on a GPU machine):
//   * every SAT algorithm x every scan variant x every SAT format writes exactly the
//     reference's bytes (satdof/reference/sat.h) over a poisoned table, on fresh random
//     images and on all-255 ones (the largest sums), at sizes on the edges of the 512-wide
//     blocks and the 512 x 16 tiles: 1x1, 2x2, 31x17, 33x65, one row, one column, a tile
//     and one off it both ways, odd sizes, and a large one (3 x 3 tiles and a part); and,
//     on a GPU, 3840x2160 in uint32 (two fresh images per combination);
//   * the backend offers the variants as its `scan` option (what --scan, the panel's
//     combo and keys 1-9 use), select() switches between them, and each then gives the
//     reference frame, tagged "<algorithm> / <scan>" in the profiler.
// A variant this GL cannot run (subgroup without GL_KHR_shader_subgroup arithmetic) is
// skipped visibly, with the reason the backend gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/backends/gl_scan_sat.h"
#include "engine/gl/program.h"
#include "gl_test_support.h"
#include "lesson/scan_trace.h"
#include "satdof/reference/sat.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::Extent;
using satdof::test::freshRng;
using satdof::test::randomImage;

namespace {

// What runs at each size, to keep llvmpipe's time to seconds: every format, or uint32 and
// float32-offset (the wrapping one and the signed, largest-range one), or uint32 alone;
// random images, and all-255 ones too.
enum class Formats { Every, Two, Uint32 };
struct Size {
  int width, height;
  Formats formats;
  bool saturatedToo;
};

constexpr Size kSizes[] = {
    {1, 1, Formats::Every, true},     {2, 2, Formats::Every, true},      {31, 17, Formats::Every, true},
    {33, 65, Formats::Every, false},  {1, 700, Formats::Every, false},   {700, 1, Formats::Every, false},
    {511, 15, Formats::Every, false}, {513, 17, Formats::Every, true},   {512, 16, Formats::Two, true},
    {1025, 33, Formats::Two, false},  {1537, 49, Formats::Uint32, false}};

bool runs(const Size& size, satdof::SatFormat format) {
  using satdof::SatFormat;
  return size.formats == Formats::Every || format == SatFormat::Uint32 ||
         (size.formats == Formats::Two && format == SatFormat::Float32Offset);
}

ref::ImageRgba8 saturated(int width, int height) {
  ref::ImageRgba8 image(width, height);
  std::fill(image.pixels.begin(), image.pixels.end(), std::uint8_t(255));
  return image;
}

void upload(GLuint texture, const ref::ImageRgba8& image) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(texture, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
}

// The table GlSat builds of `image` in `format` (every byte poisoned first).
std::vector<std::uint8_t> build(satdof::GlSat& sat, const ref::ImageRgba8& image, satdof::SatFormat format,
                                int algorithm, int scan) {
  const Extent e{image.width, image.height};
  const satdof::gl::Texture texture = satdof::gl::createTexture2D(GL_RGBA8, e.width, e.height);
  upload(texture.get(), image);
  const std::size_t bytes = satdof::satTableBytes(format, e.width, e.height);
  const satdof::gl::Buffer table = satdof::gl::createBuffer(GLsizeiptr(bytes), nullptr, 0);
  const std::uint8_t poison[4] = {0xA5, 0x5A, 0xA5, 0x5A};
  glClearNamedBufferData(table.get(), GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, poison);
  sat.attach(e, format);
  sat.build(texture.get(), e, format, table.get(), algorithm, scan);
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  std::vector<std::uint8_t> got(bytes);
  glGetNamedBufferSubData(table.get(), 0, GLsizeiptr(bytes), got.data());
  sat.detach();
  return got;
}

// One test per (SAT algorithm, scan variant), named after both.
using Combination = std::tuple<int, int>;
class GlScanSat : public satdof::test::GlTest, public ::testing::WithParamInterface<Combination> {};

TEST_P(GlScanSat, IsTheReferenceBytesForEverySizeAndFormat) {
  const auto [algorithm, scan] = GetParam();
  satdof::GlSat sat(satdof::gl::findShaderDir(), satdof::whyNoSubgroups(*context()));
  if (auto why = sat.prepare(scan)) {
    // Only the subgroup variant may be missing, and only where the GL lacks subgroups.
    ASSERT_TRUE(satdof::glScanVariants()[std::size_t(scan)].subgroups) << *why;
    GTEST_SKIP() << *why;
  }
  auto rng = freshRng();
  for (const satdof::SatFormatInfo& format : satdof::satFormats())
    for (const Size size : kSizes) {
      if (!runs(size, format.id)) continue;
      for (const bool full : {false, true}) {
        if (full && !size.saturatedToo) continue;
        SCOPED_TRACE(std::string(format.name) + " " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                     (full ? " all 255" : " random"));
        const ref::ImageRgba8 image = full ? saturated(size.width, size.height)
                                           : randomImage(size.width, size.height, rng);
        const std::vector<std::uint8_t> got = build(sat, image, format.id, algorithm, scan);
        const std::vector<std::uint8_t> expected = ref::satTableBytesOf(ref::computeSat(image, format.id));
        ASSERT_EQ(got.size(), expected.size());
        const auto diff = std::mismatch(got.begin(), got.end(), expected.begin());
        ASSERT_TRUE(diff.first == got.end())
            << "first wrong byte at " << (diff.first - got.begin()) << " of " << expected.size();
      }
    }
}

std::vector<Combination> combinations() {
  std::vector<Combination> all;
  for (std::size_t a = 0; a < satdof::glSatAlgorithms().size(); ++a)
    for (std::size_t s = 0; s < satdof::glScanVariants().size(); ++s) all.emplace_back(int(a), int(s));
  return all;
}

std::string identifier(std::string_view name) {
  std::string id(name);
  std::replace(id.begin(), id.end(), '-', '_');
  return id;
}

INSTANTIATE_TEST_SUITE_P(GlScan, GlScanSat, ::testing::ValuesIn(combinations()),
                         [](const ::testing::TestParamInfo<Combination>& info) {
                           return identifier(satdof::glSatAlgorithms()[std::size_t(std::get<0>(info.param))].name) +
                                  "__" +
                                  identifier(satdof::glScanVariants()[std::size_t(std::get<1>(info.param))].name);
                         });

// At 4K, where thousands of work groups are in flight at once (a look-back that read a
// tile's sums before they were visible would show here): every combination in uint32,
// two fresh images each. Too slow for a software GL (seconds per table): skipped there.
TEST_P(GlScanSat, IsTheReferenceBytesAt4K) {
  if (context()->renderer.find("llvmpipe") != std::string::npos || std::getenv("SATDOF_TEST_MAX_N"))
    GTEST_SKIP() << "4K tables on " << context()->renderer << " take too long; this runs on a GPU";
  const auto [algorithm, scan] = GetParam();
  satdof::GlSat sat(satdof::gl::findShaderDir(), satdof::whyNoSubgroups(*context()));
  if (auto why = sat.prepare(scan)) GTEST_SKIP() << *why;
  auto rng = freshRng();
  for (int run = 0; run < 2; ++run) {
    const ref::ImageRgba8 image = randomImage(3840, 2160, rng);
    const std::vector<std::uint8_t> got = build(sat, image, satdof::SatFormat::Uint32, algorithm, scan);
    EXPECT_TRUE(got == ref::satTableBytesOf(ref::computeSat(image, satdof::SatFormat::Uint32))) << "image " << run;
  }
}

// ---- the backend's `scan` option -------------------------------------------------------

class GlScanOption : public satdof::test::GlTest {};

const satdof::BackendOption* option(const std::vector<satdof::BackendOption>& options, const std::string& key) {
  for (const satdof::BackendOption& o : options)
    if (o.key == key) return &o;
  return nullptr;
}

TEST_F(GlScanOption, EveryVariantIsOfferedSelectableAndGivesTheReferenceFrame) {
  const satdof::ComputeBackendInfo* info = satdof::findComputeBackend("gl-compute");
  ASSERT_TRUE(info);
  const std::vector<satdof::BackendOption> options = info->options();
  const satdof::BackendOption* scan = option(options, "scan");
  const satdof::BackendOption* sat = option(options, "sat");
  ASSERT_TRUE(scan && sat);
  ASSERT_EQ(scan->choices.size(), satdof::glScanVariants().size());
  for (std::size_t i = 0; i < scan->choices.size(); ++i)
    EXPECT_EQ(scan->choices[i].name, satdof::glScanVariants()[i].name);
  std::string reason;
  auto backend = info->create(*context(), {}, reason);
  ASSERT_TRUE(backend) << "the defaults must run on every GL 4.3: " << reason;
  // The default is subgroup, where the GL has subgroup arithmetic; elsewhere another.
  satdof::GlSat probe(satdof::gl::findShaderDir(), satdof::whyNoSubgroups(*context()));
  // Said once, on the line that names the variant (choiceNote), never in the backend's reason.
  if (probe.prepare(satdof::glScanVariantIndex(scan->defaultChoice))) {
    EXPECT_NE(backend->selected("scan"), scan->defaultChoice);
    EXPECT_NE(backend->choiceNote("scan").find("the default needs"), std::string::npos) << backend->choiceNote("scan");
    EXPECT_TRUE(backend->whyNotHere("scan", scan->defaultChoice));
  } else {
    EXPECT_EQ(backend->selected("scan"), scan->defaultChoice);
    EXPECT_EQ(backend->choiceNote("scan"), "");
  }
  EXPECT_EQ(reason.find("scan variant"), std::string::npos) << reason;
  // Keys 1-9 number what runs here: every entry but those whyNotHere refuses, in order.
  const std::vector<const satdof::Choice*> runs = satdof::runnableChoices(*backend, *scan);
  std::size_t refused = 0;
  for (const satdof::Choice& c : scan->choices) refused += backend->whyNotHere("scan", c.name) ? 1 : 0;
  EXPECT_EQ(runs.size() + refused, scan->choices.size());
  for (const satdof::Choice* c : runs) EXPECT_FALSE(backend->select("scan", c->name)) << c->name;
  EXPECT_EQ(backend->selected("sat"), sat->defaultChoice);
  EXPECT_TRUE(backend->select("scan", "no-such-scan"));

  auto rng = freshRng();
  const ref::ImageRgba8 image = randomImage(600, 40, rng);
  const std::vector<std::uint8_t> expected = ref::satTableBytesOf(ref::computeSat(image, satdof::SatFormat::Uint32));
  satdof::FrameTargets frame;
  frame.allocate({image.width, image.height}, satdof::SatFormat::Uint32);
  const satdof::Targets& t = frame.targets();
  upload(t.sceneColour, image);
  backend->attach(t);
  for (const satdof::Choice& algorithm : sat->choices)
    for (const satdof::Choice& variant : scan->choices) {
      SCOPED_TRACE(algorithm.name + " / " + variant.name);
      ASSERT_FALSE(backend->select("sat", algorithm.name));
      if (auto why = backend->select("scan", variant.name)) {
        EXPECT_NE(why->find("subgroup"), std::string::npos) << *why;
        std::printf("[  SKIPPED ] %s\n", why->c_str());
        continue;
      }
      EXPECT_EQ(backend->selected("scan"), variant.name);
      const std::uint8_t poison[4] = {0xA5, 0x5A, 0xA5, 0x5A};
      glClearNamedBufferData(t.sat, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, poison);
      satdof::Profiler profiler;
      satdof::ProfileHistory history;
      const satdof::FilterSettings settings;
      backend->compute({settings, nullptr, profiler});
      profiler.endFrame(history);
      profiler.drain(history);
      std::vector<std::uint8_t> got(expected.size());
      glGetNamedBufferSubData(t.sat, 0, GLsizeiptr(got.size()), got.data());
      EXPECT_TRUE(got == expected);
      EXPECT_EQ(history.tagTimes("sat").count(algorithm.name + " / " + variant.name), 1u);
    }
  backend->detach();
}

class GlScanTrace : public satdof::test::GlTest {
 protected:
  // Checks `variant`'s GLSL block scan against its trace; the backend's reason where this GL
  // cannot run it (only subgroup may be missing).
  std::optional<std::string> check(const char* variant) {
    satdof::GlSat sat(satdof::gl::findShaderDir(), satdof::whyNoSubgroups(*context()));
    const int algorithm = satdof::glSatAlgorithmIndex("rows-columns"), scan = satdof::glScanVariantIndex(variant);
    EXPECT_GE(algorithm, 0);
    EXPECT_GE(scan, 0);
    if (algorithm < 0 || scan < 0) return std::nullopt;
    if (auto why = sat.prepare(scan)) {
      EXPECT_TRUE(satdof::glScanVariants()[std::size_t(scan)].subgroups) << *why;
      return why;
    }
    const satdof::lesson::ScanTarget target{true, std::max(1, satdof::glSubgroupSize())};
    EXPECT_EQ(satdof::lesson::kernelTile(variant, target), 512);
    auto rng = freshRng();
    const ref::ImageRgba8 image = randomImage(512, 1, rng);
    const std::vector<std::uint8_t> got = build(sat, image, satdof::SatFormat::Uint32, algorithm, scan);
    EXPECT_EQ(got.size(), std::size_t(512) * 4 * sizeof(std::uint32_t));
    if (got.size() != std::size_t(512) * 4 * sizeof(std::uint32_t)) return std::nullopt;
    for (int c = 0; c < 4; ++c) {
      std::vector<std::uint32_t> in(512);
      for (int x = 0; x < 512; ++x) in[std::size_t(x)] = image.pixels[std::size_t(x) * 4 + std::size_t(c)];
      const satdof::lesson::ScanTrace trace = satdof::lesson::traceScan(variant, in, 512, target);
      EXPECT_EQ(trace.blocks, 1);
      for (int x = 0; x < 512; ++x) {
        std::uint32_t value = 0;
        std::memcpy(&value, got.data() + (std::size_t(x) * 4 + std::size_t(c)) * sizeof value, sizeof value);
        EXPECT_EQ(value, trace.result[std::size_t(x)] + in[std::size_t(x)]) << "channel " << c << " element " << x;
        if (value != trace.result[std::size_t(x)] + in[std::size_t(x)]) return std::nullopt;
      }
    }
    return std::nullopt;
  }
};

// The lesson's traces of the GLSL block scans (lesson/scan_trace.h, ScanTarget::glsl) against
// the shaders themselves: one block of 512 random values through rows-columns (one row, so
// the table's row is the block scan, inclusive), in uint32, each channel against the trace's
// exclusive scan plus the element.
TEST_F(GlScanTrace, TheTreesAndHillisSteeleAreWhatTheShadersCompute) {
  for (const char* variant : {"hillis-steele", "blelloch", "blelloch-conflict-free", "blelloch-8-per-thread"}) {
    SCOPED_TRACE(variant);
    const auto why = check(variant);
    EXPECT_FALSE(why) << *why;
  }
}

// subgroup at this GL's subgroup width; skipped, with the backend's reason, where the GL has
// no subgroup arithmetic in compute shaders (llvmpipe lacks GL_KHR_shader_subgroup).
TEST_F(GlScanTrace, SubgroupIsWhatTheShaderComputes) {
  if (const auto why = check("subgroup")) GTEST_SKIP() << *why;
}

}  // namespace
