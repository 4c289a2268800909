// tests/test_bokeh_select_gl.cpp — the GLSL highlight rule (shaders/compute/
// bokeh_select.glsl) against the reference's (satdof/reference/bokeh.h), pixel for pixel:
// a probe shader reads an RGBA8 texture as bokeh_flags.comp does and writes, for every
// pixel, its encoded luminance, its linear luminance and whether it outshines its ring.
// Every byte through the decoding table; random frames rich in highlights (lamps, glints,
// white walls, equal light) at sizes on both sides of the ring radius's steps and at the
// smallest sizes, at contrasts from 1 to 16.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "bokeh_test_support.h"
#include "engine/gl/program.h"
#include "gl_test_support.h"
#include "satdof/reference/bokeh.h"
#include "test_support.h"

namespace ref = satdof::reference;
namespace fs = std::filesystem;
namespace {

class BokehSelectGl : public satdof::test::GlTest {
 protected:
  // The probe, built once per test beside a copy of the shipped bokeh_select.glsl.
  void SetUp() override {
    GlTest::SetUp();
    if (IsSkipped()) return;
    fs::create_directories(folder_);
    fs::copy_file(satdof::gl::findShaderDir() / "compute" / "bokeh_select.glsl", folder_ / "bokeh_select.glsl",
                  fs::copy_options::overwrite_existing);
    std::ofstream(folder_ / "bokeh_select_probe.comp")
        << "#version 450 core\n"
           "layout(local_size_x = 16, local_size_y = 16) in;\n"
           "layout(binding = 0) uniform sampler2D uColour;\n"
           "layout(std430, binding = 0) writeonly buffer Out { uvec4 result[]; };\n"
           "uniform ivec2 uImage;\n"
           "uniform uint uContrast;\n"
           "uvec3 bokehColourAt(ivec2 p) { return uvec3(round(texelFetch(uColour, p, 0).rgb * 255.0)); }\n"
           "#include \"bokeh_select.glsl\"\n"
           "void main() {\n"
           "  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
           "  if (p.x >= uImage.x || p.y >= uImage.y) return;\n"
           "  const uvec3 c = bokehColourAt(p);\n"
           "  result[p.y * uImage.x + p.x] = uvec4(bokehLuminance(c), bokehLinearLuminance(c),\n"
           "                                       bokehOutshines(p, uImage, uContrast) ? 1u : 0u, 0u);\n"
           "}\n";
    probe_ = satdof::gl::loadProgram(folder_, {{GL_COMPUTE_SHADER, "bokeh_select_probe.comp"}});
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(folder_, ec);
  }

  struct PixelResult {
    std::uint32_t luminance, linear, outshines, unused;
  };
  std::vector<PixelResult> run(const ref::ImageRgba8& image, std::uint32_t contrast) {
    const satdof::gl::Texture texture = satdof::gl::createTexture2D(GL_RGBA8, image.width, image.height);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(texture.get(), 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE,
                        image.pixels.data());
    const std::size_t n = std::size_t(image.width) * std::size_t(image.height);
    const std::uint32_t poison = 0xA5A5A5A5u;
    std::vector<std::uint32_t> poisoned(n * 4, poison);
    const satdof::gl::Buffer out = satdof::gl::createBuffer(GLsizeiptr(n * 16), poisoned.data(), 0);
    satdof::gl::uniform2i(probe_.get(), "uImage", image.width, image.height);
    satdof::gl::uniform1ui(probe_.get(), "uContrast", contrast);
    glUseProgram(probe_.get());
    glBindTextureUnit(0, texture.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out.get());
    glDispatchCompute(GLuint((image.width + 15) / 16), GLuint((image.height + 15) / 16), 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::vector<PixelResult> got(n);
    glGetNamedBufferSubData(out.get(), 0, GLsizeiptr(n * 16), got.data());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glBindTextureUnit(0, 0);
    glUseProgram(0);
    return got;
  }

  // Every pixel's three answers against the reference's; the first few differences named.
  // Returns how many pixels outshine their ring.
  int expectReference(const ref::ImageRgba8& image, std::uint32_t contrast) {
    const std::vector<PixelResult> got = run(image, contrast);
    const auto linear = [&](int x, int y) {
      const std::uint8_t* c = image.at(x, y);
      return ref::bokehLinearLuminance(c[0], c[1], c[2]);
    };
    int wrong = 0, outshining = 0;
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x) {
        const std::uint8_t* c = image.at(x, y);
        const PixelResult& g = got[std::size_t(y) * std::size_t(image.width) + std::size_t(x)];
        const std::uint32_t outshines = ref::bokehOutshines(x, y, image.width, image.height, contrast, linear) ? 1 : 0;
        outshining += int(outshines);
        if (g.luminance == ref::bokehLuminance(c[0], c[1], c[2]) && g.linear == linear(x, y) &&
            g.outshines == outshines)
          continue;
        if (++wrong <= 5)
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") of " << image.width << "x" << image.height << " rgb "
                        << int(c[0]) << " " << int(c[1]) << " " << int(c[2]) << " contrast " << contrast
                        << ": glsl (" << g.luminance << ", " << g.linear << ", " << g.outshines << ") reference ("
                        << ref::bokehLuminance(c[0], c[1], c[2]) << ", " << linear(x, y) << ", " << outshines << ")";
      }
    EXPECT_EQ(wrong, 0) << image.width << "x" << image.height << " contrast " << contrast;
    return outshining;
  }

  fs::path folder_ = fs::temp_directory_path() / ("satdof_bokeh_select_" + std::to_string(::getpid()));
  satdof::gl::Program probe_;
};

// Every byte in every channel (a 256 x 3 image of pure channels), so the shader's table is
// the reference's entry by entry.
TEST_F(BokehSelectGl, EveryByteDecodesAsTheReference) {
  ref::ImageRgba8 image(256, 4);
  for (int x = 0; x < 256; ++x)
    for (int y = 0; y < 4; ++y) {
      std::uint8_t* p = image.at(x, y);
      for (int c = 0; c < 3; ++c) p[c] = std::uint8_t(y == 3 || y == c ? x : 0);
      p[3] = 255;
    }
  expectReference(image, 32);
}

TEST_F(BokehSelectGl, RandomFramesSelectTheReferencesPixels) {
  auto rng = satdof::test::freshRng();
  struct Size {
    int width, height;
  };
  int outshining = 0;
  for (const Size size : {Size{1, 1}, {2, 3}, {17, 9}, {95, 40}, {96, 41}, {191, 64}, {192, 100}, {640, 360}}) {
    const ref::ImageRgba8 image = satdof::test::highlightFrame(size.width, size.height, rng);
    for (const std::uint32_t contrast : {16u, 24u, 32u, 64u, 256u}) outshining += expectReference(image, contrast);
  }
  EXPECT_GT(outshining, 1000) << "the random frames must hold highlights";
}

}  // namespace
