// tests/test_gl_compute.cpp — the gl-compute backend (engine/backends/gl_compute_backend.cpp)
// on a headless EGL context (Mesa's llvmpipe in CI, NVIDIA's EGL on a GPU machine):
//   * every SAT algorithm it offers (with the default scan variant) writes exactly the
//     reference's bytes into the SAT buffer through a whole frame, in every SAT format, on
//     sizes at the edges of its blocks (1x1, one row, one column, 31/32/33, the work group
//     and the block and one more, odd, 1280x720), for random and all-255 images (the
//     largest sums); tests/test_gl_scan.cpp runs every scan variant with each;
//   * every GLSL convolution gives the bytes of the reference of its maths, as filter A
//     and as comparison B, for zero and clamp borders and radii up to the largest; and
//     the SAT is then the one of the filtered image;
//   * the lesson's traces of the GLSL convolutions (lesson/conv_trace.h) are what the
//     shaders write inside the traced work group, on the lesson's image and filter;
//   * the fused multiply-add matters and is honoured (an image where rounding twice
//     changes a byte), and the exact emulation (fma_exact.glsl) equals std::fma;
//   * the layered DoF's field SATs (buildFieldSats) are the reference's too, and the CPU
//     paths' uploader writes buffers with and without dynamic storage;
//   * its profiler sections carry the other backends' names;
//   * `auto` tries cuda, then gl-compute, then cpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <filesystem>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/backends/compute_backend.h"
#include "engine/frame/frame_targets.h"
#include "engine/gl/program.h"
#include "engine/image/image_io.h"
#include "engine/passes/backend_pass.h"
#include "lesson/conv_trace.h"
#include "satdof/reference/sat.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::test::freshRng;
using satdof::test::randomImage;

namespace {

// One headless context for the whole file (made on first use), or why there is none.
struct SharedContext {
  std::unique_ptr<satdof::Context> context;
  std::string whyNot;
};
SharedContext& shared() {
  static SharedContext s = [] {
    SharedContext made;
    try {
      made.context = satdof::createHeadlessContext();
    } catch (const std::exception& e) {
      made.whyNot = e.what();
    }
    return made;
  }();
  return s;
}

#define REQUIRE_GL_CONTEXT()                                                                 \
  if (!shared().context) SATDOF_SKIP_WITHOUT_GL("no headless GL context: " + shared().whyNot)

// The gl-compute backend with these selections (none: its defaults), or null and why not.
std::unique_ptr<satdof::ComputeBackend> glCompute(std::string& whyNot, const satdof::BackendSelections& selections = {}) {
  const satdof::ComputeBackendInfo* info = satdof::findComputeBackend("gl-compute");
  if (!info) {
    whyNot = "no gl-compute entry in the backend registry";
    return nullptr;
  }
  return info->create(*shared().context, selections, whyNot);
}

// The names offered for option `key`, the default first.
std::vector<std::string> choices(const std::string& key) {
  for (const satdof::BackendOption& o : satdof::findComputeBackend("gl-compute")->options())
    if (o.key == key) {
      std::vector<std::string> names{o.defaultChoice};
      for (const satdof::Choice& c : o.choices)
        if (c.name != o.defaultChoice) names.push_back(c.name);
      return names;
    }
  return {};
}

// What one frame of the backend leaves in the targets.
struct Frame {
  std::vector<std::uint8_t> sat;
  ref::ImageRgba8 filtered, compare;
  satdof::ProfileHistory history;
};

Frame runFrame(std::unique_ptr<satdof::ComputeBackend> backend, const ref::ImageRgba8& image,
               satdof::SatFormat format, const satdof::FilterSettings& settings = {}) {
  satdof::FrameTargets targets;
  targets.allocate({image.width, image.height}, format);
  const satdof::Targets& t = targets.targets();
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(t.sceneColour, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      image.pixels.data());
  // Poison every output: a byte the backend does not write fails the comparison.
  const std::size_t bytes = satdof::satTableBytes(format, image.width, image.height);
  const std::uint8_t poison[4] = {0xA5, 0x5A, 0xA5, 0x5A};
  glClearNamedBufferData(t.sat, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, poison);
  for (GLuint texture : {t.filtered, t.compare}) glClearTexImage(texture, 0, GL_RGBA, GL_UNSIGNED_BYTE, poison);
  satdof::BackendPass pass(std::move(backend));
  pass.backend().attach(t);
  satdof::Profiler profiler;
  Frame frame;
  pass.run(settings, nullptr, profiler);
  EXPECT_EQ(pass.filterProblem(), "");
  profiler.endFrame(frame.history);
  profiler.drain(frame.history);
  frame.sat.resize(bytes);
  glGetNamedBufferSubData(t.sat, 0, GLsizeiptr(bytes), frame.sat.data());
  if (settings.enabled) {
    frame.filtered = satdof::readTexture(t.filtered, image.width, image.height);
    if (settings.compare) frame.compare = satdof::readTexture(t.compare, image.width, image.height);
  }
  return frame;
}

ref::ImageRgba8 filled(int width, int height, std::uint8_t value) {
  ref::ImageRgba8 image(width, height);
  std::fill(image.pixels.begin(), image.pixels.end(), value);
  return image;
}

// ---- SAT ---------------------------------------------------------------------------------

struct Size {
  int width, height;
};

// The edges of sat_scan.comp's blocks (256 invocations, 512 elements) along both axes.
constexpr Size kSatSizes[] = {{1, 1},   {1, 1300},  {1300, 1}, {31, 31},  {32, 32},  {33, 33},
                              {256, 3}, {257, 5},   {512, 2},  {513, 3},  {3, 513},  {1025, 2},
                              {173, 91}, {1280, 720}};

// One test per SAT algorithm the backend offers (named after it).
class GlComputeSat : public ::testing::TestWithParam<std::string> {};

TEST_P(GlComputeSat, IsTheReferenceBytesForEverySizeAndFormat) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  const std::string algorithm = GetParam();
  std::string whyNot;
  // Every SAT algorithm runs with the default scan wherever GL compute shaders do.
  ASSERT_TRUE(glCompute(whyNot, {{"sat", algorithm}})) << whyNot;
  for (const satdof::SatFormatInfo& format : satdof::satFormats())
    for (const Size size : kSatSizes)
      for (const bool saturated : {false, true}) {
        SCOPED_TRACE(std::string(format.name) + " " + std::to_string(size.width) + "x" +
                     std::to_string(size.height) + (saturated ? " all 255" : " random"));
        const ref::ImageRgba8 image =
            saturated ? filled(size.width, size.height, 255) : randomImage(size.width, size.height, rng);
        const Frame frame = runFrame(glCompute(whyNot, {{"sat", algorithm}}), image, format.id);
        const std::vector<std::uint8_t> expected = ref::satTableBytesOf(ref::computeSat(image, format.id));
        ASSERT_EQ(frame.sat.size(), expected.size());
        const auto diff = std::mismatch(frame.sat.begin(), frame.sat.end(), expected.begin());
        ASSERT_TRUE(diff.first == frame.sat.end())
            << "first wrong byte at " << (diff.first - frame.sat.begin()) << " of " << expected.size();
      }
}

INSTANTIATE_TEST_SUITE_P(GlCompute, GlComputeSat, ::testing::ValuesIn(choices("sat")),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The layered DoFs' field SATs (ComputeBackend::buildFieldSats): the reference's, each in
// its format, for every field layout, with reduce-then-scan and every scan variant (it
// builds the tables side by side, each on its own carries; look-back one after another)
// and with rows-columns (one after another). The linear image's table takes every format
// in turn (those its buffer holds), so that one batch mixes formats.
TEST(GlCompute, FieldSatsAreTheReferenceBytes) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  const int w = 517, h = 389;  // two tiles along x, 25 bands of rows
  const std::vector<std::string> sats = choices("sat"), scans = choices("scan");  // the defaults first
  std::vector<std::pair<std::string, std::string>> runs;
  for (const std::string& scan : scans) runs.emplace_back(sats.front(), scan);
  for (std::size_t i = 1; i < sats.size(); ++i) runs.emplace_back(sats[i], scans.front());
  std::string whyNot;
  const auto defaults = glCompute(whyNot);
  ASSERT_TRUE(defaults) << whyNot;
  int built = 0;
  for (const auto& [sat, scan] : runs) {
    if (auto why = defaults->whyNotHere("scan", scan)) {
      std::cout << "[ NOTE ] field SATs with scan " << scan << " not run: " << *why << "\n";
      continue;
    }
    auto backend = glCompute(whyNot, {{"sat", sat}, {"scan", scan}});
    ASSERT_TRUE(backend) << sat << " / " << scan << ": " << whyNot;
    struct Layout {
      satdof::DofFields fields;
      satdof::SatFormat linear;
    };
    std::vector<Layout> layouts{{satdof::DofFields::Layers, satdof::SatFormat::Uint32},
                                {satdof::DofFields::SeeThrough, satdof::SatFormat::Uint32}};
    for (const satdof::SatFormatInfo& format : satdof::satFormats())  // those its buffer holds
      if (satdof::satTableBytes(format.id, w, h) <= satdof::satTableBytes(satdof::SatFormat::Uint32, w, h))
        layouts.push_back({satdof::DofFields::SeeThroughLinear, format.id});
    for (const Layout& layout : layouts) {
      SCOPED_TRACE(sat + " / " + scan + ", fields " + std::to_string(int(layout.fields)) + ", linear table " +
                   std::string(satdof::satFormatInfo(layout.linear).name));
      satdof::FrameTargets targets;
      targets.allocate({w, h}, satdof::SatFormat::Uint32, layout.fields);
      satdof::Targets t = targets.targets();
      t.linearColourSatFormat = layout.linear;  // its buffer is a uint32 table's
      const satdof::FieldTables tables = satdof::fieldTables(t);
      std::vector<ref::ImageRgba8> images;
      for (std::size_t i = 0; i < tables.count; ++i) {  // one all-255 field: the largest sums
        images.push_back(i == 1 ? filled(w, h, 255) : randomImage(w, h, rng));
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTextureSubImage2D(tables.items[i].fieldImage, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE,
                            images.back().pixels.data());
      }
      backend->attach(t);
      satdof::Profiler profiler;
      backend->buildFieldSats(t, profiler);
      for (std::size_t i = 0; i < tables.count; ++i) {
        const satdof::FieldTable& f = tables.items[i];
        const std::vector<std::uint8_t> expected = ref::satTableBytesOf(ref::computeSat(images[i], f.format));
        std::vector<std::uint8_t> got(expected.size());
        glGetNamedBufferSubData(f.tableBuffer, 0, GLsizeiptr(got.size()), got.data());
        EXPECT_TRUE(got == expected) << "field table " << i << " of " << tables.count;
      }
      backend->detach();
      ++built;
    }
  }
  EXPECT_GT(built, 0);
}

// The CPU paths write their tables with gl::BufferUploader: into a buffer without dynamic
// storage (as one GL imported from CUDA memory is) through its kept staging buffer, which
// grows when a later write is larger; the bytes land either way.
TEST(GlCompute, BufferUploaderWritesBuffersWithAndWithoutDynamicStorage) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  satdof::gl::BufferUploader uploader;
  for (const GLbitfield flags : {GLbitfield(0), GLbitfield(GL_DYNAMIC_STORAGE_BIT)}) {
    SCOPED_TRACE(flags ? "dynamic storage" : "no dynamic storage");
    for (const std::size_t words : {std::size_t(16), std::size_t(4096), std::size_t(1000)}) {  // grow, then reuse
      std::vector<std::uint32_t> data(words);
      for (std::uint32_t& v : data) v = static_cast<std::uint32_t>(rng());
      const satdof::gl::Buffer buffer = satdof::gl::createBuffer(GLsizeiptr(words * 4), nullptr, flags);
      uploader.upload(buffer.get(), data.data(), GLsizeiptr(words * 4));
      std::vector<std::uint32_t> got(words);
      glGetNamedBufferSubData(buffer.get(), 0, GLsizeiptr(words * 4), got.data());
      EXPECT_EQ(got, data) << words << " words";
      EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    }
  }
}

// ---- convolutions ------------------------------------------------------------------------

// The reference maths each GLSL convolution follows (conv_common.glsl).
satdof::ConvMath mathsOf(const std::string& implementation) {
  if (implementation == "glsl-separable") return satdof::ConvMath::Separable;
  if (implementation == "glsl-sat-box") return satdof::ConvMath::BoxSum;
  EXPECT_TRUE(implementation == "glsl-basic" || implementation == "glsl-tiled-halo")
      << "new implementation " << implementation << ": say here which maths it follows";
  return satdof::ConvMath::Direct;
}

std::vector<satdof::FilterSettings> filterCases(std::mt19937& rng) {
  std::vector<satdof::FilterSettings> cases;
  std::uniform_real_distribution<float> weight(-1.0f, 1.0f);
  for (const satdof::Border border : {satdof::Border::Zero, satdof::Border::Clamp}) {
    auto add = [&](satdof::FilterKind kind, int radius, float sigma = 0.0f) {
      satdof::FilterSettings s;
      s.enabled = true;
      s.kind = kind;
      s.radius = radius;
      s.sigma = sigma;
      s.border = border;
      if (kind == satdof::FilterKind::Custom)
        for (int k = 0; k < (2 * radius + 1) * (2 * radius + 1); ++k) s.customWeights.push_back(weight(rng));
      cases.push_back(s);
    };
    add(satdof::FilterKind::Gaussian, 2);
    add(satdof::FilterKind::Gaussian, 7);
    add(satdof::FilterKind::Gaussian, satdof::kMaxFilterRadius, 1.1f);  // subnormal outer weights
    add(satdof::FilterKind::Box, 1);
    add(satdof::FilterKind::Box, satdof::kMaxFilterRadius);
    add(satdof::FilterKind::Sharpen, 1);
    add(satdof::FilterKind::Emboss, 3);
    add(satdof::FilterKind::Laplacian, satdof::kMaxFilterRadius);
    add(satdof::FilterKind::Custom, 2);
  }
  return cases;
}

std::string describe(const satdof::FilterSettings& s) {
  return std::string(satdof::toString(s.kind)) + " r" + std::to_string(s.radius) + " border " +
         std::string(satdof::toString(s.border));
}

TEST(GlCompute, EveryConvolutionIsTheReferenceBytesAsAAndAsB) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  std::string whyNot;
  ASSERT_TRUE(glCompute(whyNot)) << whyNot;
  const ref::ImageRgba8 image = randomImage(67, 45, rng);  // tiles cut at both edges
  const auto implementations = glCompute(whyNot)->filterImplementations();
  ASSERT_GE(implementations.size(), 4u);
  for (const satdof::FilterSettings& base : filterCases(rng)) {
    const satdof::Filter filter = base.build();
    for (std::size_t a = 0; a < implementations.size(); ++a) {
      if (implementations[a].whyNot(filter)) continue;
      // B: the next implementation that runs this filter (A itself when none other does).
      std::size_t b = (a + 1) % implementations.size();
      while (implementations[b].whyNot(filter)) b = (b + 1) % implementations.size();
      satdof::FilterSettings s = base;
      s.implementation = implementations[a].name;
      s.compareImplementation = implementations[b].name;
      s.compare = true;
      SCOPED_TRACE(describe(s) + ", A " + s.implementation + ", B " + s.compareImplementation);
      const Frame frame = runFrame(glCompute(whyNot), image, satdof::SatFormat::Uint32, s);
      const ref::ImageRgba8 expectA = ref::convolve(image, filter, s.border, mathsOf(s.implementation));
      const ref::ImageRgba8 expectB = ref::convolve(image, filter, s.border, mathsOf(s.compareImplementation));
      EXPECT_TRUE(frame.filtered.pixels == expectA.pixels) << "filter A differs from the reference";
      EXPECT_TRUE(frame.compare.pixels == expectB.pixels) << "filter B differs from the reference";
      EXPECT_TRUE(frame.sat == ref::satTableBytesOf(ref::computeSat(expectA)))
          << "the SAT is not the filtered image's";
    }
  }
}

// The lesson's trace of each GLSL convolution (lesson/conv_trace_glsl*.cpp, from the shaders'
// index arithmetic in conv_index.glsl) against the shader itself: the lesson's image and
// filter (and, for the direct ones, random weights of both signs), both borders, a few
// radii; the filtered image's channel 0 inside the traced group is the trace's result.
TEST(GlCompute, LessonTracesOfTheConvolutionsAreWhatTheShadersWrite) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  std::string whyNot;
  ASSERT_TRUE(glCompute(whyNot)) << whyNot;
  std::vector<std::string> offered;
  for (const auto& implementation : glCompute(whyNot)->filterImplementations()) offered.push_back(implementation.name);
  std::uniform_real_distribution<float> weight(-0.2f, 1.0f);
  namespace lesson = satdof::lesson;
  for (const std::string& variant : lesson::tracedConvVariants(lesson::ConvBackend::GlCompute)) {
    EXPECT_NE(std::find(offered.begin(), offered.end(), variant), offered.end()) << variant << " is traced, not offered";
    for (const int radius : {1, 3, 7, satdof::kMaxFilterRadius})
      for (const satdof::Border border : {satdof::Border::Zero, satdof::Border::Clamp})
        for (const bool random : {false, true}) {
          const bool direct = variant == "glsl-basic" || variant == "glsl-tiled-halo";
          if (random && !direct) continue;
          satdof::FilterSettings s;
          s.enabled = true;
          s.kind = variant == "glsl-sat-box" ? satdof::FilterKind::Box : satdof::FilterKind::Gaussian;
          s.radius = radius;
          s.border = border;
          s.implementation = variant;
          if (random) {
            s.kind = satdof::FilterKind::Custom;
            const int taps = (2 * radius + 1) * (2 * radius + 1);
            for (int k = 0; k < taps; ++k) s.customWeights.push_back(weight(rng) * 2.5f / float(taps));  // adding up to about 1
          }
          const satdof::Filter filter = s.build();
          if (!random) {
            EXPECT_EQ(filter.weights, lesson::convLessonFilter(variant, radius).weights);
          }
          SCOPED_TRACE(variant + " " + describe(s));
          const ref::ImageRgba8 image = lesson::convLessonImage(variant, radius, unsigned(rng()));
          const lesson::ConvTrace trace = lesson::traceConv(variant, image, filter, border);
          const Frame frame = runFrame(glCompute(whyNot), image, satdof::SatFormat::Uint32, s);
          ASSERT_EQ(frame.filtered.width, image.width);
          std::vector<std::uint8_t> shader;
          for (int y = trace.outY0; y < trace.outY0 + trace.outH; ++y)
            for (int x = trace.outX0; x < trace.outX0 + trace.outW; ++x) shader.push_back(frame.filtered.at(x, y)[0]);
          EXPECT_EQ(shader, trace.result);
        }
  }
}

// The fma matters: a GLSL compiler that split fma() into a multiply and an add would
// still match on most images (a byte changes only where the sum sits within an ulp of
// a rounding boundary). So find, on the CPU, an image where the unfused sum rounds to
// another byte than the reference's fused one, and require the reference's bytes there.

// The direct or separable sum with a rounded multiply, then a rounded add (zero border).
ref::ImageRgba8 unfused(const ref::ImageRgba8& image, const satdof::Filter& f, satdof::ConvMath maths) {
  const int r = f.radius, n = f.size(), w = image.width, h = image.height;
  auto value = [&](int x, int y, int c) { return x < 0 || y < 0 || x >= w || y >= h ? 0.0f : float(image.at(x, y)[c]); };
  ref::ImageRgba8 out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) {
        volatile float acc = 0.0f;  // volatile: each product and sum rounded on its own
        for (int i = 0; i < n; ++i) {
          if (maths == satdof::ConvMath::Separable && (y - r + i < 0 || y - r + i >= h)) continue;
          volatile float row = 0.0f;  // direct: the taps go straight into acc
          for (int j = 0; j < n; ++j) {
            if (maths == satdof::ConvMath::Direct && (y - r + i < 0 || y - r + i >= h)) continue;
            const float weight = maths == satdof::ConvMath::Separable ? f.rowWeights[j] : f.at(i, j);
            volatile float product = weight * value(x - r + j, y - r + i, c);
            if (maths == satdof::ConvMath::Separable)
              row = row + product;
            else
              acc = acc + product;
          }
          if (maths == satdof::ConvMath::Separable) {
            volatile float product = f.colWeights[i] * row;
            acc = acc + product;
          }
        }
        out.at(x, y)[c] = ref::roundToByte(acc);
      }
  return out;
}

TEST(GlCompute, ConvolutionsFuseEveryMultiplyAddLikeTheReference) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  std::string whyNot;
  ASSERT_TRUE(glCompute(whyNot)) << whyNot;
  std::uniform_real_distribution<float> sigma(0.6f, 2.0f);
  for (const satdof::ConvMath maths : {satdof::ConvMath::Direct, satdof::ConvMath::Separable}) {
    // A Gaussian of random sigma: inexact weights, sums away from the clamp.
    satdof::FilterSettings s;
    s.enabled = true;
    s.border = satdof::Border::Zero;
    s.kind = satdof::FilterKind::Gaussian;
    s.radius = 2;
    ref::ImageRgba8 image;
    satdof::Filter filter;
    for (int attempt = 0; attempt < 2000 && image.width == 0; ++attempt) {
      s.sigma = sigma(rng);
      filter = s.build();
      ref::ImageRgba8 candidate = randomImage(32, 32, rng);
      if (unfused(candidate, filter, maths).pixels != ref::convolve(candidate, filter, s.border, maths).pixels)
        image = std::move(candidate);
    }
    ASSERT_GT(image.width, 0) << "no image found where fusing changes a byte";
    const ref::ImageRgba8 expected = ref::convolve(image, filter, s.border, maths);
    for (const satdof::FilterImplementation& impl : glCompute(whyNot)->filterImplementations()) {
      if (impl.whyNot(filter) || mathsOf(impl.name) != maths) continue;
      SCOPED_TRACE(impl.name + " sigma " + std::to_string(s.sigma));
      s.implementation = impl.name;
      const Frame frame = runFrame(glCompute(whyNot), image, satdof::SatFormat::Uint32, s);
      EXPECT_TRUE(frame.filtered.pixels == expected.pixels)
          << "not the fused (reference) bytes" << (frame.filtered.pixels == unfused(image, filter, maths).pixels
                                                       ? ": the GL split fma() into a multiply and an add"
                                                       : "");
    }
  }
}

// The emulation itself (fma_exact.glsl), against std::fma on random triples: normal
// values over a wide range, products near the subnormal range, cancellation, and ties.
TEST(GlCompute, ExactFmaEmulationRoundsLikeStdFma) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> sign(0, 1);
  auto value = [&](int lo, int hi) {
    const float m = std::ldexp(mantissa(rng), std::uniform_int_distribution<int>(lo, hi)(rng));
    return sign(rng) ? -m : m;
  };
  std::vector<float> triples;  // a, b, c, unused
  auto add = [&](float a, float b, float c) { triples.insert(triples.end(), {a, b, c, 0.0f}); };
  for (int k = 0; k < 20000; ++k) {
    add(value(-40, 40), value(-40, 40), value(-60, 60));             // anything
    add(value(-75, -60), value(-75, -60), value(-149, -126));        // subnormal results
    const float a = value(-10, 10), b = std::floor(mantissa(rng) * 127.0f);
    add(a, b, -a * b);                                                // cancellation
    // a * b exactly halfway between two floats (u, v odd: the 2^-24 bit is set), plus a c
    // far below a double's ulp: a sum rounded to double first would land on the tie.
    const float u = float(2 * (k % 30) + 1), v = float(2 * (k / 30 % 30) + 1);
    add(1.0f + std::ldexp(u, -12), 1.0f + std::ldexp(v, -12), value(-70, -56));
  }
  const satdof::gl::Program program = satdof::gl::loadProgram(satdof::gl::findShaderDir(),
                                                      {{GL_COMPUTE_SHADER, "compute/fma_check.comp"}},
                                                      {{"compute/fma.glsl", "compute/fma_exact.glsl"}});
  const std::size_t n = triples.size() / 4;
  const auto in = satdof::gl::createBuffer(GLsizeiptr(triples.size() * 4), triples.data(), 0);
  const auto out = satdof::gl::createBuffer(GLsizeiptr(n * 4), nullptr, 0);
  glUseProgram(program.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, in.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out.get());
  glDispatchCompute(GLuint((n + 63) / 64), 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<float> got(n);
  glGetNamedBufferSubData(out.get(), 0, GLsizeiptr(n * 4), got.data());
  glUseProgram(0);
  int wrong = 0;
  for (std::size_t i = 0; i < n && wrong < 5; ++i) {
    const float a = triples[4 * i], b = triples[4 * i + 1], c = triples[4 * i + 2];
    const float expected = std::fma(a, b, c);
    if (std::memcmp(&expected, &got[i], 4) != 0) {
      ++wrong;
      ADD_FAILURE() << std::hexfloat << "fma(" << a << ", " << b << ", " << c << ") = " << expected << ", got "
                    << got[i];
    }
  }
}

// ---- the float formats' rounding ----------------------------------------------------------

// sat_entry_bits.glsl's floatBits (the float formats' entries from exact uint32 sums) is
// the reference's static_cast<float>: the nearest float, ties to even, at every edge the
// rounding has (powers of two, halfway cases both ways, the largest sums) and on random
// values of every magnitude.
TEST(GlCompute, FloatFormatRoundingIsTheReferences) {
  REQUIRE_GL_CONTEXT();
  namespace fs = std::filesystem;
  struct Folder {
    fs::path path = fs::temp_directory_path() / ("satdof_float_bits_" + std::to_string(::getpid()));
    Folder() { fs::create_directories(path); }
    ~Folder() { fs::remove_all(path); }
  } folder;
  fs::copy_file(satdof::gl::findShaderDir() / "compute" / "sat_entry_bits.glsl", folder.path / "sat_entry_bits.glsl");
  std::ofstream(folder.path / "float_bits_probe.comp")
      << "#version 450 core\nlayout(local_size_x = 64) in;\n"
         "layout(std430, binding = 0) buffer Values { uint v[]; };\n#include \"sat_entry_bits.glsl\"\n"
         "void main() { uint i = gl_GlobalInvocationID.x; if (i < uint(v.length())) v[i] = floatBits(v[i]); }\n";
  const satdof::gl::Program probe =
      satdof::gl::loadProgram(folder.path, {{GL_COMPUTE_SHADER, "float_bits_probe.comp"}});
  std::vector<std::uint32_t> values{0u, 1u, 2u, 0xFFFFu, 0x10000u, 0xFFFFFFu, 0x1000000u, 0xFFFFFFFFu, 0x80000000u};
  for (int e = 24; e < 32; ++e) {  // around 2^e, where a float's step is 2^(e - 23)
    const std::uint32_t base = 1u << e, step = 1u << (e - 23), half = step / 2;
    for (const std::uint32_t k : {0u, 1u, 2u, 3u, 1000u})
      for (const std::int64_t d : {-1, 0, 1})
        values.push_back(std::uint32_t(base + k * step + std::uint32_t(std::int64_t(half) + d)));  // halfway +-1
    values.push_back(base - 1u);
  }
  auto rng = freshRng();
  for (int i = 0; i < 100000; ++i) values.push_back(std::uint32_t(rng()) >> (rng() % 32));
  const satdof::gl::Buffer buffer = satdof::gl::createBuffer(GLsizeiptr(values.size() * 4), values.data(), 0);
  glUseProgram(probe.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer.get());
  glDispatchCompute(GLuint((values.size() + 63) / 64), 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<std::uint32_t> got(values.size());
  glGetNamedBufferSubData(buffer.get(), 0, GLsizeiptr(got.size() * 4), got.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  int wrong = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint32_t want = std::bit_cast<std::uint32_t>(static_cast<float>(values[i]));
    if (got[i] != want && ++wrong <= 5)
      ADD_FAILURE() << values[i] << ": got bits " << std::hex << got[i] << ", the nearest float's " << want;
  }
  EXPECT_EQ(wrong, 0);
}

// ---- profiler sections and the backend order ---------------------------------------------

TEST(GlCompute, ProfilerSectionsAreNamedLikeTheOtherBackends) {
  REQUIRE_GL_CONTEXT();
  auto rng = freshRng();
  std::string whyNot;
  ASSERT_TRUE(glCompute(whyNot)) << whyNot;
  satdof::FilterSettings s;
  s.enabled = true;
  s.kind = satdof::FilterKind::Box;
  s.compare = true;
  s.implementation = "glsl-tiled-halo";
  s.compareImplementation = "glsl-sat-box";
  const Frame frame = runFrame(glCompute(whyNot), randomImage(40, 30, rng), satdof::SatFormat::Uint32, s);
  for (const char* section : {"filter A", "filter B", "sat"}) {
    EXPECT_EQ(frame.history.count(section), 1u) << section;
  }
  EXPECT_EQ(frame.history.tagTimes("filter B").count("glsl-sat-box"), 1u);
  // "<algorithm> / <scan variant>" (the default scan depends on the GL: test_gl_scan.cpp).
  const auto& satTags = frame.history.tagTimes("sat");
  ASSERT_EQ(satTags.size(), 1u);
  EXPECT_EQ(satTags.begin()->first.rfind(choices("sat").front() + " / ", 0), 0u) << satTags.begin()->first;
}

// A backend replaced mid-run (after a failure) takes its clock with it: the profiler drops
// the pending sections on that clock, keeps its own, and never reads the dead clock.
TEST(GlCompute, ProfilerForgetsAReplacedBackendsClock) {
  REQUIRE_GL_CONTEXT();
  struct BackendClock final : satdof::TimestampSource {
    bool gone = false;
    int marks = 0;
    int mark(int) override {
      EXPECT_FALSE(gone) << "marked after its backend went away";
      return marks++;
    }
    std::optional<float> elapsed(int, int, int, bool) override {
      EXPECT_FALSE(gone) << "read after its backend went away";
      return 1.0f;
    }
    void reset(int) override { EXPECT_FALSE(gone) << "reset after its backend went away"; }
  };
  satdof::Profiler profiler;
  satdof::ProfileHistory history;
  BackendClock clock;
  {
    auto map = profiler.section(clock, "map");
    auto sat = profiler.section(profiler.host(), "sat");
  }
  profiler.forgetOtherClocks();
  clock.gone = true;
  profiler.endFrame(history);
  profiler.drain(history);
  EXPECT_EQ(history.count("map"), 0u);
  EXPECT_EQ(history.count("sat"), 1u);
}

TEST(GlCompute, AutoTriesCudaThenGlComputeThenCpu) {
  std::vector<std::string> order;
  for (const satdof::ComputeBackendInfo& b : satdof::computeBackends()) order.emplace_back(b.name);
  EXPECT_EQ(order, (std::vector<std::string>{"cuda", "gl-compute", "cpu"}));
}

// On a software GL (llvmpipe here) `auto` passes over gl-compute, saying why and what to
// type instead; elsewhere it never falls back to the cpu backend.
TEST(GlCompute, AutoPassesOverGlComputeOnlyOnASoftwareGl) {
  REQUIRE_GL_CONTEXT();
  const satdof::Context& context = *shared().context;
  const satdof::BackendChoice choice = satdof::chooseComputeBackend("auto", context, {});
  if (context.renderer.find("llvmpipe") != std::string::npos) {
    EXPECT_EQ(choice.backend->name(), "cpu");
    EXPECT_NE(choice.reason.find("--backend gl-compute"), std::string::npos) << choice.reason;
  } else {
    EXPECT_NE(choice.backend->name(), "cpu") << choice.reason;
  }
  EXPECT_EQ(choice.reason.find('\n'), std::string::npos) << "one line";
}

}  // namespace
