// tests/test_dof_gl.cpp — the GL passes on a headless EGL context (Mesa's llvmpipe in CI,
// NVIDIA's EGL on a GPU machine):
//   * every GLSL DoF implementation on random colour + depth, in every SAT format, both
//     camera models and both apertures (box, disc), byte for byte the CPU reference, and
//     the input where all is in focus;
//   * the CPU SAT backend fills the SAT buffer with exactly the reference SAT.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>
#include <random>

#include "engine/context/context.h"
#include "engine/gl/program.h"
#include "engine/image/image_io.h"
#include "engine/dof/dof_implementation.h"
#include "engine/frame/frame_targets.h"
#include "engine/passes/backend_pass.h"
#include "satdof/reference/dof.h"
#include "satdof/reference/layered_dof.h"
#include "satdof/reference/lens_truth.h"
#include "gl_test_support.h"
#include "reach_test_support.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::test::freshRng;
using satdof::test::randomImage;

namespace {

using satdof::test::GlTest;

satdof::gl::Texture uploadColour(const ref::ImageRgba8& img) {
  auto t = satdof::gl::createTexture2D(GL_RGBA8, img.width, img.height);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(t.get(), 0, 0, 0, img.width, img.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      img.pixels.data());
  return t;
}

// Frame targets (with the DoF's `fields`) holding `colour`, `depth` and the reference SAT
// of `colour`, as the stages before the DoF would leave them.
satdof::FrameTargets targetsFor(const ref::ImageRgba8& colour, const ref::ImageR32F& depth,
                                satdof::SatFormat format = satdof::SatFormat::Uint32,
                                satdof::DofFields fields = satdof::DofFields::None) {
  satdof::FrameTargets targets;
  targets.allocate({colour.width, colour.height}, format, fields);
  const satdof::Targets& t = targets.targets();
  glTextureSubImage2D(t.sceneColour, 0, 0, 0, colour.width, colour.height, GL_RGBA, GL_UNSIGNED_BYTE,
                      colour.pixels.data());
  const std::vector<std::uint8_t> table = ref::satTableBytesOf(ref::computeSat(colour, format));
  glNamedBufferSubData(t.sat, 0, GLsizeiptr(table.size()), table.data());
  glTextureSubImage2D(t.depth, 0, 0, 0, depth.width, depth.height, GL_RED, GL_FLOAT, depth.pixels.data());
  return targets;
}

std::unique_ptr<satdof::ComputeBackend> cpuBackend() {
  std::string reason;
  return satdof::createCpuBackend(*GlTest::context(), {}, reason);
}

ref::ImageRgba8 runDof(const satdof::DofEntry& entry, const ref::ImageRgba8& colour, const ref::ImageR32F& depth,
                       const ref::DofParams& params, satdof::SatFormat format = satdof::SatFormat::Uint32,
                       bool showCoc = false) {
  const satdof::FrameTargets targets = targetsFor(colour, depth, format);
  const auto backend = cpuBackend();
  const auto dof = entry.create(satdof::gl::findShaderDir(), *backend);
  dof->attach(targets.targets());
  satdof::Profiler profiler;
  dof->run(satdof::DofSettings{params, showCoc}, {}, profiler);
  return satdof::readTexture(targets.targets().dofOutput, colour.width, colour.height);
}

ref::DofParams linear(float focus, float range, float maxRadius) {
  ref::DofParams p;
  p.focalDistance = focus;
  p.focalRange = range;
  p.maxRadius = maxRadius;
  return p;
}

// A depth map of random blocks at random distances (a continuum of radii, rounding
// boundaries included: the circle of confusion is computed the same way everywhere).
ref::ImageR32F blockyDepth(int w, int h, std::mt19937& rng, float lo, float hi) {
  ref::ImageR32F depth(w, h);
  std::uniform_real_distribution<float> d(lo, hi);
  for (int by = 0; by < h; by += 7)
    for (int bx = 0; bx < w; bx += 9) {
      const float v = d(rng);
      for (int y = by; y < std::min(by + 7, h); ++y)
        for (int x = bx; x < std::min(bx + 9, w); ++x) depth.at(x, y) = v;
    }
  return depth;
}

// Every GLSL implementation, every SAT format, both camera models, both apertures (the
// box and the disc of slabs) and the radius view: byte for byte the CPU reference (the
// circle of confusion and the rounded mean are computed without a division, the
// aperture's boxes in integers, so no rounding can differ).
TEST_F(GlTest, DofIsByteIdenticalToTheCpuReference) {
  auto rng = freshRng();
  const int w = 173, h = 91;  // odd sizes: rows not a multiple of anything
  const auto colour = randomImage(w, h, rng);
  const auto depth = blockyDepth(w, h, rng, 0.5f, 30.0f);
  // A 135 mm lens at f/1.4 focused at 2 m on a 173-pixel-wide image: radii 0..14 over the
  // depths 0.5..30 (clamped near the camera).
  ref::DofParams lens = linear(2.0f, 1.0f, 14.0f);
  lens.model = ref::CocModel::ThinLens;
  lens.focalLengthMm = 135;
  lens.fNumber = 1.4f;
  const auto backend = cpuBackend();
  for (ref::DofParams params : {linear(10.0f, 8.0f, 8.0f), linear(7.3f, 3.1f, 13.7f), lens}) {
    for (const ref::Aperture aperture : {ref::Aperture::Box, ref::Aperture::Disc}) {
      params.aperture = aperture;
      for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
        for (const bool showCoc : {false, true}) {
          if (showCoc && (format.id != satdof::SatFormat::Uint32 || aperture != ref::Aperture::Box)) continue;
          const auto expected = ref::depthOfField(colour, depth, params, format.id, showCoc);
          for (const satdof::DofEntry& entry : satdof::dofImplementations()) {
            if (entry.whyNot(*backend)) continue;  // needs another backend (its own tests cover it)
            if (entry.fields != satdof::DofFields::None) continue;  // another model: LayeredDofMatchesItsReference
            SCOPED_TRACE(std::string(entry.name) + " / " + std::string(format.name) +
                         (params.model == ref::CocModel::ThinLens ? " / thin lens" : " / linear") +
                         (aperture == ref::Aperture::Disc ? " / disc" : " / box") + (showCoc ? " / radius view" : ""));
            const auto got = runDof(entry, colour, depth, params, format.id, showCoc);
            std::size_t differing = 0;
            for (std::size_t i = 0; i < got.pixels.size(); ++i) differing += got.pixels[i] != expected.pixels[i];
            EXPECT_EQ(differing, 0u) << "bytes that differ from the CPU reference";
          }
        }
      }
    }
  }
}

// The disc is not the box: on the same input the two apertures give different images
// (so the comparison above compares two things), and the GLSL disc is not the reference's
// box.
TEST_F(GlTest, DiscApertureDiffersFromTheBox) {
  auto rng = freshRng();
  const int w = 97, h = 61;
  const auto colour = randomImage(w, h, rng);
  const auto depth = blockyDepth(w, h, rng, 0.5f, 30.0f);
  ref::DofParams disc = linear(10.0f, 8.0f, 12.0f);
  disc.aperture = ref::Aperture::Disc;
  const auto box = ref::depthOfField(colour, depth, linear(10.0f, 8.0f, 12.0f));
  EXPECT_NE(ref::depthOfField(colour, depth, disc).pixels, box.pixels);
  EXPECT_NE(runDof(satdof::defaultDofImplementation(), colour, depth, disc).pixels, box.pixels);
}

// The layered DoF on GL (split, dilation and composite passes; the field SATs by the CPU
// backend's default path) against its CPU reference: the fields exactly, the image within
// one grey level (its composite divides in float, where GLSL may differ by an ulp).
TEST_F(GlTest, LayeredDofMatchesItsReference) {
  auto rng = freshRng();
  const int w = 150, h = 83;
  auto colour = randomImage(w, h, rng);
  const auto depth = blockyDepth(w, h, rng, 0.5f, 30.0f);
  const satdof::DofEntry* layered = satdof::findDofImplementation("layered");
  ASSERT_NE(layered, nullptr);
  // Max blur 20, and 130: windows of the reach passes over most of the image.
  for (const float maxBlur : {20.0f, 130.0f})
  for (const ref::Aperture aperture : {ref::Aperture::Box, ref::Aperture::Disc}) {
    ref::DofParams lens = linear(6.0f, 4.0f, maxBlur);
    lens.aperture = aperture;
    for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
      if (satdof::whyNotMaxBlur(format, maxBlur)) continue;  // uint21x3's bound
      SCOPED_TRACE(std::string(format.name) + (aperture == ref::Aperture::Disc ? " / disc" : " / box") +
                   " / max blur " + std::to_string(int(maxBlur)));
      const satdof::FrameTargets targets = targetsFor(colour, depth, format.id, satdof::DofFields::Layers);
      const satdof::Targets& t = targets.targets();
      const auto backend = cpuBackend();
      const auto dof = layered->create(satdof::gl::findShaderDir(), *backend);
      dof->attach(t);
      satdof::Profiler profiler;
      dof->run(satdof::DofSettings{lens, false}, {}, profiler);
      const auto split = ref::splitLayers(colour, depth, ref::cocRamp(lens, w));
      EXPECT_TRUE(satdof::readTexture(t.nearField, w, h).pixels == split.nearField.pixels) << "near field";
      EXPECT_TRUE(satdof::readTexture(t.farField, w, h).pixels == split.farField.pixels) << "far field";
      const auto expected = ref::layeredDepthOfField(colour, depth, lens, format.id);
      const auto got = satdof::readTexture(t.dofOutput, w, h);
      int worst = 0;
      for (std::size_t i = 0; i < got.pixels.size(); ++i)
        worst = std::max(worst, std::abs(int(got.pixels[i]) - int(expected.pixels[i])));
      EXPECT_LE(worst, 1) << "grey levels from the reference";
    }
  }
}

// The reach passes (dof_layers_reach.comp: a work group walks the tiles within its bound)
// against reference::reachPass, exactly, after each pass (reach_test_support.h's cases).
TEST_F(GlTest, ReachPassesMatchTheReferenceExactly) {
  auto rng = freshRng();
  const std::filesystem::path dir = satdof::gl::findShaderDir();
  const satdof::gl::Program program = satdof::gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layers_reach.comp"}}, {});
  for (const auto& [w, h] : satdof::test::kReachSizes)
    for (const int maxBound : satdof::test::kReachMaxBounds) {
      SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + ", bounds up to " + std::to_string(maxBound));
      const satdof::test::ReachCase c = satdof::test::randomReachCase(w, h, maxBound, rng);
      const ref::LayerSplit& split = c.split;
      const std::vector<std::int32_t>& radius = c.radius;
      auto tileBounds = satdof::gl::createTexture2D(GL_R32I, split.tilesX, split.tilesY);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
      glTextureSubImage2D(tileBounds.get(), 0, 0, 0, split.tilesX, split.tilesY, GL_RED_INTEGER, GL_INT,
                          split.nearTileRadius.data());
      std::vector<std::int16_t> radius16(radius.begin(), radius.end());
      std::array<satdof::gl::Texture, 3> images;  // the radii, then each pass's result
      for (auto& image : images) image = satdof::gl::createTexture2D(GL_R16I, w, h);
      glTextureSubImage2D(images[0].get(), 0, 0, 0, w, h, GL_RED_INTEGER, GL_SHORT, radius16.data());
      glUseProgram(program.get());
      glUniform2i(5, w, h);  // uSize (coc.glsl)
      glBindImageTexture(3, tileBounds.get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32I);
      for (int pass = 1; pass <= 2; ++pass) {
        satdof::gl::uniform1i(program.get(), "uPass", pass);
        glBindImageTexture(2, images[pass - 1].get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R16I);
        glBindImageTexture(4, images[pass].get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R16I);
        glDispatchCompute(GLuint(split.tilesX), GLuint(split.tilesY), 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
      }
      glUseProgram(0);
      for (int pass = 1; pass <= 2; ++pass) {
        std::vector<std::int16_t> got(std::size_t(w) * h);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTextureImage(images[pass].get(), 0, GL_RED_INTEGER, GL_SHORT, GLsizei(got.size() * 2), got.data());
        const std::vector<std::int32_t>& want = pass == 1 ? c.rows : c.reach;
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != want[i];
        EXPECT_EQ(wrong, 0u) << "pixels differing from the reference after pass " << pass;
      }
    }
}

// Linear light's GLSL (linear_light.glsl) against the reference, exactly: the dithered
// byte of every encoded byte at several weights and every dither position, and the
// encoding of values on both sides of every threshold (one float step apart), at the
// ends and beyond them, just outside the shader's margin around each, at every bucket's
// ends, and at random (uniformly, and spread over the exponents). The shader takes pow()'s byte away from the thresholds and the bucket's
// (reference::encodeLinearByBucket) near them; it must be the binary search's.
TEST_F(GlTest, LinearLightShaderMatchesTheReferenceExactly) {
  const ref::LinearLightTables& tables = ref::linearLightTables();
  std::vector<float> values = {0.0f, -0.0f, -1.0f, 255.0f, 256.0f, 1e9f};
  for (int b = 1; b < 256; ++b) {
    const float t = tables.threshold[std::size_t(b)];
    values.insert(values.end(), {t, std::nextafter(t, 0.0f), std::nextafter(t, 1e9f)});
    // Just outside the shader's 1e-3 margin around each threshold in encoded units, where
    // pow()'s own byte is taken.
    for (const double away : {-1.2e-3, 1.2e-3, -3e-3, 3e-3})
      values.push_back(float(255.0 * std::pow((b - 0.5 + away) / 255.0, ref::kSceneGamma)));
  }
  for (std::uint32_t bucket = ref::kEncodeFirstBucket - 1; bucket <= ref::kEncodeFirstBucket + ref::kEncodeBuckets;
       ++bucket)
    for (const std::uint32_t low : {0u, 0xFFFFu}) values.push_back(std::bit_cast<float>(bucket << 16 | low));
  auto rng = freshRng();
  std::uniform_real_distribution<float> anywhere(0.0f, 255.0f), exponent(-20.0f, 8.0f);
  for (int i = 0; i < 4096; ++i) values.insert(values.end(), {anywhere(rng), std::exp2(exponent(rng))});
  struct Dithered {
    int c, w, x, y;
  };
  std::vector<Dithered> dithered;
  for (int c = 0; c < 256; ++c)
    for (const int w : {0, 1, 128, 200, 255})
      for (int k = 0; k < 16; ++k) dithered.push_back({c, w, k % 4, k / 4});
  // A compute shader beside the tests' output, including the real linear_light.glsl.
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("satdof-linear-light-" + std::to_string(::getpid()) + ".comp");
  std::ofstream(file) << R"(#version 450 core
layout(local_size_x = 64) in;
#include "linear_light.glsl"
layout(std430, binding = 0) readonly buffer Values { float values[]; };
layout(std430, binding = 1) writeonly buffer Encoded { int encoded[]; };
layout(std430, binding = 2) readonly buffer Dithered { ivec4 dithered[]; };
layout(std430, binding = 3) writeonly buffer Bytes { uint bytes[]; };
layout(location = 0) uniform int uValues;
layout(location = 1) uniform int uDithered;
void main() {
  int i = int(gl_GlobalInvocationID.x);
  if (i < uValues) encoded[i] = int(encodeLinear(values[i]));
  if (i < uDithered) {
    ivec4 d = dithered[i];
    bytes[i] = linearBytes(decodeColour(uvec3(d.x)), d.y, d.zw).r;
  }
}
)";
  satdof::gl::Program program;
  try {
    program = satdof::gl::loadProgram(satdof::gl::findShaderDir(), {{GL_COMPUTE_SHADER, file.string()}}, {});
  } catch (...) {
    std::filesystem::remove(file);
    throw;
  }
  std::filesystem::remove(file);
  const auto tableBuffer = satdof::createLinearLightTables();
  const auto valueBuffer = satdof::gl::createBuffer(GLsizeiptr(values.size() * 4), values.data(), 0);
  const auto encodedBuffer = satdof::gl::createBuffer(GLsizeiptr(values.size() * 4), nullptr, GL_DYNAMIC_STORAGE_BIT);
  const auto ditheredBuffer = satdof::gl::createBuffer(GLsizeiptr(dithered.size() * 16), dithered.data(), 0);
  const auto bytesBuffer = satdof::gl::createBuffer(GLsizeiptr(dithered.size() * 4), nullptr, GL_DYNAMIC_STORAGE_BIT);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, tableBuffer.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, valueBuffer.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, encodedBuffer.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, ditheredBuffer.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, bytesBuffer.get());
  glUseProgram(program.get());
  glUniform1i(0, GLint(values.size()));
  glUniform1i(1, GLint(dithered.size()));
  glDispatchCompute(GLuint((std::max(values.size(), dithered.size()) + 63) / 64), 1, 1);
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  glUseProgram(0);
  for (GLuint binding = 0; binding <= 4; ++binding) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, 0);
  std::vector<std::int32_t> encoded(values.size());
  glGetNamedBufferSubData(encodedBuffer.get(), 0, GLsizeiptr(encoded.size() * 4), encoded.data());
  for (std::size_t i = 0; i < values.size(); ++i)
    ASSERT_EQ(encoded[i], ref::encodeLinear(values[i], tables)) << "encoding " << values[i];
  std::vector<std::uint32_t> bytes(dithered.size());
  glGetNamedBufferSubData(bytesBuffer.get(), 0, GLsizeiptr(bytes.size() * 4), bytes.data());
  for (std::size_t i = 0; i < dithered.size(); ++i) {
    const Dithered& d = dithered[i];
    ASSERT_EQ(bytes[i], ref::linearByte(tables.decode[std::size_t(d.c)], d.w, d.x, d.y))
        << "byte " << d.c << ", weight " << d.w << ", at " << d.x << "," << d.y;
  }
}

// The see-through DoF (the layered one with the scene's second layer) on GL against its
// CPU reference: the three fields exactly, the image within one grey level. The second
// layer lies partly behind the focal plane and partly in front of it (where see-through
// must leave the layered result), and holds the empty depth (nothing behind) in a third of
// its tiles, on blocky depths with every radius. The same for see-through in linear light:
// its fourth field (the image in dithered linear bytes) exactly too.
TEST_F(GlTest, SeeThroughDofMatchesItsReference) {
  auto rng = freshRng();
  const int w = 131, h = 77;
  const auto colour = randomImage(w, h, rng);
  const auto depth = blockyDepth(w, h, rng, 0.5f, 30.0f);
  const auto behindColour = randomImage(w, h, rng);
  auto behindDepth = blockyDepth(w, h, rng, 3.0f, 40.0f);
  const float nothingBehind = 50.0f;  // the depth where no surface lies behind (the sky's)
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if ((x / 16 + y / 16) % 3 == 0) behindDepth.at(x, y) = nothingBehind;
  const ref::BehindLayer behind{behindColour, behindDepth, nothingBehind};
  const auto behindColourTexture = satdof::gl::createTexture2D(GL_RGBA8, w, h);
  const auto behindDepthTexture = satdof::gl::createTexture2D(GL_R32F, w, h);
  glTextureSubImage2D(behindColourTexture.get(), 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, behindColour.pixels.data());
  glTextureSubImage2D(behindDepthTexture.get(), 0, 0, 0, w, h, GL_RED, GL_FLOAT, behindDepth.pixels.data());
  for (const bool linearLight : {false, true}) {
  const satdof::DofEntry* seeThrough = satdof::findDofImplementation(linearLight ? "see-through-linear" : "see-through");
  ASSERT_NE(seeThrough, nullptr);
  ASSERT_EQ(seeThrough->fields, linearLight ? satdof::DofFields::SeeThroughLinear : satdof::DofFields::SeeThrough);
  int changed = 0;
  for (const ref::Aperture aperture : {ref::Aperture::Box, ref::Aperture::Disc})
    for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
      ref::DofParams lens = linear(6.0f, 4.0f, 20.0f);
      lens.aperture = aperture;
      SCOPED_TRACE(std::string(seeThrough->name) + " / " + std::string(format.name) +
                   (aperture == ref::Aperture::Disc ? " / disc" : " / box"));
      const satdof::FrameTargets targets = targetsFor(colour, depth, format.id, seeThrough->fields);
      const satdof::Targets& t = targets.targets();
      ASSERT_NE(t.farSide, 0u);
      ASSERT_EQ(t.linearColour != 0, linearLight);
      const auto backend = cpuBackend();
      const auto dof = seeThrough->create(satdof::gl::findShaderDir(), *backend);
      dof->attach(t);
      satdof::Profiler profiler;
      satdof::DofInputs inputs;
      inputs.behind = {behindColourTexture.get(), behindDepthTexture.get(), nothingBehind};
      dof->run(satdof::DofSettings{lens, false}, inputs, profiler);
      const auto split = ref::splitLayers(colour, depth, ref::cocRamp(lens, w), &behind, linearLight);
      EXPECT_TRUE(satdof::readTexture(t.nearField, w, h).pixels == split.nearField.pixels) << "near field";
      EXPECT_TRUE(satdof::readTexture(t.farField, w, h).pixels == split.farField.pixels) << "far field";
      EXPECT_TRUE(satdof::readTexture(t.farSide, w, h).pixels == split.farSide.pixels) << "far side";
      if (linearLight) {
        EXPECT_TRUE(satdof::readTexture(t.linearColour, w, h).pixels == split.linearColour.pixels) << "linear colour";
      }
      const auto expected = ref::layeredDepthOfField(colour, depth, lens, format.id, &behind, linearLight);
      const auto got = satdof::readTexture(t.dofOutput, w, h);
      int worst = 0;
      for (std::size_t i = 0; i < got.pixels.size(); ++i)
        worst = std::max(worst, std::abs(int(got.pixels[i]) - int(expected.pixels[i])));
      EXPECT_LE(worst, 1) << "grey levels from the reference";
      // Against layered; in linear light, against see-through in encoded bytes.
      const auto other = linearLight ? ref::layeredDepthOfField(colour, depth, lens, format.id, &behind)
                                     : ref::layeredDepthOfField(colour, depth, lens, format.id);
      for (std::size_t i = 0; i < got.pixels.size(); ++i) changed += std::abs(int(expected.pixels[i]) - int(other.pixels[i])) > 8;
    }
  EXPECT_GT(changed, 100) << "the case must make " << seeThrough->name << " differ from the one it extends";
  }
}

// uint21x3 keeps only 21/22 bits of each sum, yet within its bound (radius <= 44) every
// GLSL implementation, the layered one included, with either aperture, gives uint32's
// image byte for byte: on
// an image whose sums wrap the fields many times, with a bright block where the largest
// boxes come closest to the bound, and radii 0..44 (the bound itself included).
TEST_F(GlTest, Uint21x3DofEqualsUint32WithinItsBound) {
  auto rng = freshRng();
  const int w = 301, h = 197;
  auto colour = randomImage(w, h, rng);
  for (int y = 40; y < 160; ++y)
    for (int x = 100; x < 250; ++x) std::fill_n(&colour.pixels[(std::size_t(y) * w + x) * 4], 4, std::uint8_t(255));
  const auto depth = blockyDepth(w, h, rng, 0.5f, 30.0f);
  ref::DofParams params = linear(10.0f, 6.0f, 44.0f);
  ASSERT_EQ(ref::cocRamp(params, w).maxRadius, satdof::kUint21x3MaxRadius);
  const auto backend = cpuBackend();
  int compared = 0;
  for (const satdof::DofEntry& entry : satdof::dofImplementations()) {
    for (const ref::Aperture aperture : {ref::Aperture::Box, ref::Aperture::Disc}) {
      if (entry.whyNot(*backend)) continue;
      params.aperture = aperture;
      SCOPED_TRACE(std::string(entry.name) + (aperture == ref::Aperture::Disc ? " / disc" : " / box"));
      ref::ImageRgba8 images[2];
      for (int k = 0; k < 2; ++k) {
        const satdof::SatFormat format = k ? satdof::SatFormat::Uint21x3 : satdof::SatFormat::Uint32;
        satdof::FrameTargets targets;
        targets.allocate({w, h}, format, entry.fields);
        const satdof::Targets& t = targets.targets();
        glTextureSubImage2D(t.sceneColour, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, colour.pixels.data());
        glTextureSubImage2D(t.depth, 0, 0, 0, w, h, GL_RED, GL_FLOAT, depth.pixels.data());
        const auto table = ref::satTableBytesOf(ref::computeSat(colour, format));
        glNamedBufferSubData(t.sat, 0, GLsizeiptr(table.size()), table.data());
        const auto dof = entry.create(satdof::gl::findShaderDir(), *backend);
        dof->attach(t);
        satdof::Profiler profiler;
        dof->run(satdof::DofSettings{params, false}, {}, profiler);
        images[k] = satdof::readTexture(t.dofOutput, w, h);
      }
      EXPECT_TRUE(images[0].pixels == images[1].pixels) << "uint21x3's image differs from uint32's";
      ++compared;
    }
  }
  EXPECT_GE(compared, 6) << "fragment, compute and layered run on the cpu backend, with each aperture";
  // Past the bound the same boxes lose their sums: the bound is where the bytes start to
  // differ, so the check above could fail.
  EXPECT_NE(ref::depthOfField(colour, depth, linear(10.0f, 6.0f, 46.0f), satdof::SatFormat::Uint21x3).pixels,
            ref::depthOfField(colour, depth, linear(10.0f, 6.0f, 46.0f), satdof::SatFormat::Uint32).pixels);
}

// In focus (radius 0) the aperture is the pixel alone, box or disc: the input, byte for
// byte, from every GLSL implementation that blurs the SAT.
TEST_F(GlTest, DofAtTheFocalDepthReturnsTheInput) {
  auto rng = freshRng();
  auto colour = randomImage(64, 40, rng);
  for (std::size_t i = 3; i < colour.pixels.size(); i += 4) colour.pixels[i] = 255;  // opaque
  ref::DofParams params = linear(7.5f, 3.0f, 16.0f);
  const ref::ImageR32F depth(64, 40, 7.5f);
  const auto backend = cpuBackend();
  for (const ref::Aperture aperture : {ref::Aperture::Box, ref::Aperture::Disc}) {
    params.aperture = aperture;
    for (const satdof::DofEntry& entry : satdof::dofImplementations()) {
      if (entry.whyNot(*backend) || entry.fields != satdof::DofFields::None) continue;
      SCOPED_TRACE(std::string(entry.name) + (aperture == ref::Aperture::Disc ? " / disc" : " / box"));
      EXPECT_EQ(runDof(entry, colour, depth, params).pixels, colour.pixels);
    }
  }
}

TEST_F(GlTest, CpuSatBackendUploadsTheReferenceSatInEveryFormat) {
  auto rng = freshRng();
  const auto colour = randomImage(57, 33, rng);
  const auto texture = uploadColour(colour);
  for (const satdof::SatFormatInfo& format : satdof::satFormats()) {
    SCOPED_TRACE(std::string(format.name));
    satdof::FrameTargets targets;
    targets.allocate({57, 33}, format.id);
    glCopyImageSubData(texture.get(), GL_TEXTURE_2D, 0, 0, 0, 0, targets.targets().sceneColour, GL_TEXTURE_2D, 0,
                       0, 0, 0, 57, 33, 1);
    satdof::BackendPass pass(cpuBackend());
    pass.backend().attach(targets.targets());
    satdof::Profiler profiler;
    pass.run(satdof::FilterSettings{}, nullptr, profiler);
    const auto expected = ref::satTableBytesOf(ref::computeSat(colour, format.id));
    std::vector<std::uint8_t> got(expected.size());
    glGetNamedBufferSubData(targets.targets().sat, 0, GLsizeiptr(got.size()), got.data());
    EXPECT_TRUE(got == expected) << "the table's bytes differ from the reference";
  }
}

}  // namespace

namespace {

// A broken shader on reload: the error names the file and line, the old program stays.
TEST_F(GlTest, ShaderReloadReportsFileAndLineAndKeepsTheOldProgram) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("satdof_shaders_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(satdof::gl::findShaderDir(), dir);
  const ref::ImageR32F depth(8, 8, 1.0f);
  const satdof::FrameTargets targets = targetsFor(ref::ImageRgba8(8, 8), depth);
  const auto backend = cpuBackend();
  const auto pass = satdof::findDofImplementation("fragment")->create(dir, *backend);
  pass->attach(targets.targets());
  {
    std::ofstream broken(dir / "dof.frag", std::ios::app);
    broken << "\nthis is not GLSL;\n";
  }
  try {
    pass->reloadShaders(dir);
    ADD_FAILURE() << "a broken shader must not load";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("shaders/dof.frag:"), std::string::npos) << e.what();
  }
  // The pass still renders with the program it had.
  satdof::Profiler profiler;
  pass->run(satdof::DofSettings{}, {}, profiler);
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  fs::remove_all(dir);
}

}  // namespace
