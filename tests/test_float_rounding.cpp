// tests/test_float_rounding.cpp — the float SAT formats and the reference DoF do not depend
// on the host thread's rounding mode (satdof/reference/fp_environment.h): the GPUs round to
// nearest always, so the reference must too, even where a library left the thread in
// another mode.
//   * nearestFloat (the entries' rounding in integers) is the round-to-nearest conversion
//     on every integer up to 2^27 in magnitude, on every rounding edge above 2^24 and on
//     random int64 values of every magnitude;
//   * the float32 and float32-offset tables, the ramp and the DoF image of both (a thin
//     lens: the ramp's constants round) are the same bytes in each of the four rounding
//     modes, at an odd size whose entries pass 2^24 (where the modes round differently);
//   * RoundToNearest sets round-to-nearest for its lifetime and gives the mode back.
#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "satdof/reference/dof.h"
#include "satdof/reference/fp_environment.h"
#include "satdof/reference/sat.h"
#include "test_support.h"

namespace ref = satdof::reference;
using satdof::SatFormat;

namespace {

#if defined(__x86_64__) || defined(__i386__)
// The four modes as MXCSR's rounding control: nearest, down, up, toward zero.
constexpr unsigned kModes[] = {0x0000u, 0x2000u, 0x4000u, 0x6000u};
const char* modeName(unsigned m) {
  return m == 0 ? "nearest" : m == 0x2000u ? "down" : m == 0x4000u ? "up" : "toward zero";
}

// Runs `f` with this thread's MXCSR rounding control set to `mode`, restored after.
template <class F>
auto inMode(unsigned mode, F&& f) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr((saved & ~0x6000u) | mode);
  struct Restore {
    unsigned csr;
    ~Restore() { _mm_setcsr(csr); }
  } restore{saved};
  return f();
}
#endif

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

TEST(FloatRounding, NearestFloatIsTheRoundToNearestConversion) {
  ASSERT_TRUE(ref::roundsToNearest()) << "the tests start in the default mode";
  std::size_t wrong = 0;
  const auto check = [&](std::int64_t v) {
    if (bits(ref::nearestFloat(v)) != bits(static_cast<float>(v)) && ++wrong <= 5)
      ADD_FAILURE() << v << ": bits " << std::hex << bits(ref::nearestFloat(v)) << ", the nearest float's "
                    << bits(static_cast<float>(v));
  };
  for (std::int64_t v = -(std::int64_t(1) << 27); v <= (std::int64_t(1) << 27); ++v) check(v);
  for (int e = 24; e < 63; ++e)  // around halfway between the floats above 2^e, both signs
    for (const std::int64_t k : {0, 1, 2, 3, 1000})
      for (const std::int64_t d : {-1, 0, 1}) {
        const std::int64_t step = std::int64_t(1) << (e - 23);
        const std::int64_t v = (std::int64_t(1) << e) + k * step + step / 2 + d;
        check(v);
        check(-v);
      }
  for (const std::int64_t v : {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                               std::numeric_limits<std::int64_t>::min() + 1})
    check(v);
  std::mt19937_64 rng(satdof::test::freshSeed());
  for (int i = 0; i < 2'000'000; ++i) check(std::int64_t(rng()) >> (rng() % 64));
  EXPECT_EQ(wrong, 0u);
}

#if defined(__x86_64__) || defined(__i386__)
TEST(FloatRounding, FloatTablesRampAndDofAreTheSameInEveryRoundingMode) {
  auto rng = satdof::test::freshRng();
  const int w = 853, h = 479;  // odd; the sums pass 2^24 over most of the table
  const ref::ImageRgba8 colour = satdof::test::randomImage(w, h, rng);
  ref::ImageR32F depth(w, h);
  std::uniform_real_distribution<float> d(0.5f, 30.0f);
  for (float& v : depth.pixels) v = d(rng);
  ref::DofParams lens;
  lens.model = ref::CocModel::ThinLens;
  lens.focalDistance = 2.3f;
  lens.focalLengthMm = 135.0f;
  lens.fNumber = 1.4f;
  lens.maxRadius = 21.0f;
  for (const SatFormat format : {SatFormat::Float32, SatFormat::Float32Offset}) {
    const std::vector<std::uint8_t> table = ref::satTableBytesOf(ref::computeSat(colour, format));
    const ref::CocRamp ramp = ref::cocRamp(lens, w);
    const ref::ImageRgba8 image = ref::depthOfField(colour, depth, lens, format);
    for (const unsigned mode : kModes) {
      SCOPED_TRACE(std::string(satdof::satFormatInfo(format).name) + ", rounding " + modeName(mode));
      EXPECT_TRUE(inMode(mode, [&] { return ref::satTableBytesOf(ref::computeSat(colour, format)); }) == table);
      const ref::CocRamp r = inMode(mode, [&] { return ref::cocRamp(lens, w); });
      EXPECT_EQ(bits(r.a), bits(ramp.a));
      EXPECT_EQ(bits(r.b), bits(ramp.b));
      EXPECT_EQ(bits(r.c), bits(ramp.c));
      EXPECT_TRUE(inMode(mode, [&] { return ref::depthOfField(colour, depth, lens, format); }).pixels == image.pixels);
    }
  }
  // The modes do round differently here: an odd entry above 2^24 converted in each.
  const volatile std::int64_t odd = (std::int64_t(1) << 24) + 1;
  EXPECT_NE(inMode(0x2000u, [&] { return bits(static_cast<float>(odd)); }),
            inMode(0x4000u, [&] { return bits(static_cast<float>(odd)); }));
}

TEST(FloatRounding, RoundToNearestHoldsForItsLifetimeAndGivesTheModeBack) {
  inMode(0x6000u, [] {
    EXPECT_FALSE(ref::roundsToNearest());
    {
      const ref::RoundToNearest rounding;
      EXPECT_TRUE(ref::roundsToNearest());
      const volatile std::int64_t odd = (std::int64_t(1) << 24) + 3;  // halfway: up to the even one
      EXPECT_EQ(static_cast<float>(odd), 16777220.0f);
    }
    EXPECT_EQ(_mm_getcsr() & 0x6000u, 0x6000u);
    return 0;
  });
  EXPECT_TRUE(ref::roundsToNearest());
}
#endif

}  // namespace
