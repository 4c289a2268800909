// tests/test_dof_gl.cpp — the GL passes on a headless EGL context (Mesa's llvmpipe in CI,
// NVIDIA's EGL on a GPU machine):
//   * the DoF shader on a known colour + depth input against the CPU reference of the
//     DoF, within one grey level, and exactly the input where everything is in focus;
//   * the CPU SAT backend fills the SAT buffer with exactly the reference SAT.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>
#include <random>

#include "context/context.h"
#include "gl/program.h"
#include "image_io.h"
#include "passes/dof_pass.h"
#include "passes/compute_pass.h"
#include "satdof/reference/dof.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::test::freshRng;
using satdof::test::randomImage;

namespace {

class GlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    try {
      context_ = satdof::createHeadlessContext();
    } catch (const std::exception& e) {
      reason_ = e.what();
    }
  }
  static void TearDownTestSuite() { context_.reset(); }
  void SetUp() override {
    if (!context_) GTEST_SKIP() << "no headless GL context: " << reason_;
  }
  static inline std::unique_ptr<satdof::Context> context_;
  static inline std::string reason_;
};

satdof::gl::Texture uploadColour(const ref::ImageRgba8& img) {
  auto t = satdof::gl::createTexture2D(GL_RGBA8, img.width, img.height);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(t.get(), 0, 0, 0, img.width, img.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      img.pixels.data());
  return t;
}

satdof::gl::Texture uploadDepth(const ref::ImageR32F& depth) {
  auto t = satdof::gl::createTexture2D(GL_R32F, depth.width, depth.height);
  glTextureSubImage2D(t.get(), 0, 0, 0, depth.width, depth.height, GL_RED, GL_FLOAT,
                      depth.pixels.data());
  return t;
}

ref::ImageRgba8 runDof(const ref::ImageRgba8& colour, const ref::ImageR32F& depth,
                       const ref::DofParams& params) {
  const ref::Sat sat = ref::computeSat(colour);
  const auto ssbo = satdof::gl::createBuffer(GLsizeiptr(sat.values.size() * 4), sat.values.data(), 0);
  const auto depthTexture = uploadDepth(depth);
  satdof::DofPass pass(satdof::gl::findShaderDir());
  pass.resize({colour.width, colour.height});
  pass.run(depthTexture.get(), ssbo.get(), satdof::DofSettings{params, false});
  return satdof::readTexture(pass.outputTexture(), colour.width, colour.height);
}

TEST_F(GlTest, DofMatchesTheCpuReferenceWithinOneGreyLevel) {
  auto rng = freshRng();
  const int w = 173, h = 91;  // odd sizes: rows not a multiple of anything
  const auto colour = randomImage(w, h, rng);
  // With focal 10, range 8 and radius 8, a depth of 10 +- k gives a radius of exactly k,
  // far from a rounding boundary, so CPU and GPU agree on every box.
  const ref::DofParams params{10.0f, 8.0f, 8.0f};
  ref::ImageR32F depth(w, h);
  std::uniform_int_distribution<int> k(-9, 9);
  for (int by = 0; by < h; by += 7)
    for (int bx = 0; bx < w; bx += 9) {
      const float d = 10.0f + float(k(rng));
      for (int y = by; y < std::min(by + 7, h); ++y)
        for (int x = bx; x < std::min(bx + 9, w); ++x) depth.at(x, y) = d;
    }
  const auto expected = ref::depthOfField(colour, depth, params);
  const auto got = runDof(colour, depth, params);
  int worst = 0;
  for (std::size_t i = 0; i < got.pixels.size(); ++i)
    worst = std::max(worst, std::abs(int(got.pixels[i]) - int(expected.pixels[i])));
  EXPECT_LE(worst, 1) << "largest difference from the CPU reference, in grey levels";
}

TEST_F(GlTest, DofAtTheFocalDepthReturnsTheInput) {
  auto rng = freshRng();
  auto colour = randomImage(64, 40, rng);
  for (std::size_t i = 3; i < colour.pixels.size(); i += 4) colour.pixels[i] = 255;  // opaque
  const ref::DofParams params{7.5f, 3.0f, 16.0f};
  const ref::ImageR32F depth(64, 40, 7.5f);
  EXPECT_EQ(runDof(colour, depth, params).pixels, colour.pixels);
}

TEST_F(GlTest, CpuSatBackendUploadsTheReferenceSat) {
  auto rng = freshRng();
  const auto colour = randomImage(57, 33, rng);
  const auto texture = uploadColour(colour);
  satdof::ComputePass pass(satdof::createCpuComputeBackend());
  pass.resize({57, 33}, texture.get());
  pass.run(satdof::FilterSettings{});
  std::vector<std::uint32_t> got(std::size_t(57) * 33 * 4);
  glGetNamedBufferSubData(pass.satBuffer(), 0, GLsizeiptr(got.size() * 4), got.data());
  EXPECT_EQ(got, ref::computeSat(colour).values);
}

}  // namespace

namespace {

// A broken shader on reload: the error names the file and line, the old program stays.
TEST_F(GlTest, ShaderReloadReportsFileAndLineAndKeepsTheOldProgram) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("satdof_shaders_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(satdof::gl::findShaderDir(), dir);
  satdof::DofPass pass(dir);
  pass.resize({8, 8});
  {
    std::ofstream broken(dir / "dof.frag", std::ios::app);
    broken << "\nthis is not GLSL;\n";
  }
  try {
    pass.reloadShaders(dir);
    ADD_FAILURE() << "a broken shader must not load";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("shaders/dof.frag:"), std::string::npos) << e.what();
  }
  // The pass still renders with the program it had.
  const ref::ImageR32F depth(8, 8, 1.0f);
  const auto ssbo = satdof::gl::createBuffer(8 * 8 * 16, std::vector<std::uint32_t>(8 * 8 * 4, 0).data(), 0);
  const auto depthTexture = uploadDepth(depth);
  pass.run(depthTexture.get(), ssbo.get(), satdof::DofSettings{});
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  fs::remove_all(dir);
}

}  // namespace
