// satdof/reference/coc.h — the circle of confusion: how many pixels of box half-size a
// pixel at a given linear view distance gets. One formula for the CPU reference, the
// CUDA kernels (this header compiles as device code too) and, line for line, the GLSL
// include shaders/dof_common.glsl.
//
// Two camera models reduce to one ramp, r(d) = |d - focus| * a / (b + c * d):
//   linear     r = maxRadius * |d - focus| / focalRange          (a = maxRadius, b = range)
//   thin lens  the blur circle of a lens of focal length f and f-number N focused at S1,
//              for an object at S2:  c_sensor = (f / N) * |S2 - S1| / S2 * f / (S1 - f),
//              in pixels  r = c_sensor / 2 * imageWidth / sensorWidth       (b = 0, c = 1)
// Scene units are metres; focal length and sensor width are in millimetres.
//
// The integer radius is floor(r + 0.5), clamped to [0, maxRadius], decided without a
// division: it is the k for which (k - 0.5) * den <= num < (k + 0.5) * den. Every product
// and sum is a single IEEE operation (never fused, see SATDOF_MUL), so the CPU, GLSL and
// CUDA get the same k for every pixel, which makes their images byte-identical.
#pragma once

#include <cmath>
#include <cstdint>

#include "satdof/host_device.h"

#define SATDOF_HD SATDOF_HOST_DEVICE

// Round-to-nearest products and sums that a compiler may not fuse into an FMA.
#if defined(__CUDA_ARCH__)
#define SATDOF_MUL(a, b) __fmul_rn(a, b)
#define SATDOF_ADD(a, b) __fadd_rn(a, b)
#define SATDOF_SUB(a, b) __fsub_rn(a, b)
#else
#define SATDOF_MUL(a, b) ((a) * (b))
#define SATDOF_ADD(a, b) ((a) + (b))
#define SATDOF_SUB(a, b) ((a) - (b))
#endif

namespace satdof::reference {

enum class CocModel { Linear, ThinLens };
// Its name on the command line, in the settings file and in messages.
constexpr const char* cocModelName(CocModel m) { return m == CocModel::ThinLens ? "thin-lens" : "linear"; }

// The shape each pixel is averaged over (satdof/reference/aperture.h): the (2r+1)^2 box,
// or the disc of radius r approximated by a few boxes.
enum class Aperture { Box, Disc };
// Its name on the command line, in the settings file and in messages.
constexpr const char* apertureName(Aperture a) { return a == Aperture::Disc ? "disc" : "box"; }

// What the user sets (panel, command line).
struct DofParams {
  CocModel model = CocModel::Linear;
  float focalDistance = 8.0f;  // view distance that is sharp (scene units, metres)
  float focalRange = 6.0f;     // linear: distance from focus where blur is at its maximum
  float maxRadius = 12.0f;     // largest box half-size, pixels (both models clamp to it)
  float focalLengthMm = 85.0f;   // thin lens: a portrait lens ...
  float fNumber = 1.4f;          // ... wide open ...
  float sensorWidthMm = 36.0f;   // ... on a full-frame sensor
  Aperture aperture = Aperture::Box;
};

// The ramp's constants for an image `imageWidth` pixels wide (computed once per frame on
// the host, uploaded as they are).
struct CocRamp {
  float focus = 0;  // S1
  float a = 0, b = 1, c = 0;
  int maxRadius = 0;
};

// Empty when the parameters make a camera; else why not (one line).
const char* whyNotACamera(const DofParams& p);

CocRamp cocRamp(const DofParams& p, int imageWidth);

// Box half-size in whole pixels for a pixel at linear view distance `depth`.
SATDOF_HD inline int cocRadius(float depth, const CocRamp& k) {
  const float off = SATDOF_SUB(depth, k.focus);
  const float num = SATDOF_MUL(off < 0.0f ? -off : off, k.a);
  const float den = SATDOF_ADD(k.b, SATDOF_MUL(k.c, depth));
  if (!(den > 0.0f)) return num > 0.0f ? k.maxRadius : 0;
  float estimate = num / den + 0.5f;
  if (!(estimate < float(k.maxRadius))) estimate = float(k.maxRadius);  // also catches inf / nan
  int r = estimate > 0.0f ? int(estimate) : 0;
  while (r > 0 && SATDOF_MUL(float(r) - 0.5f, den) > num) --r;
  while (r < k.maxRadius && SATDOF_MUL(float(r) + 0.5f, den) <= num) ++r;
  return r;
}

// The colour the "show blur radius" view gives radius r: red grows, green shrinks.
SATDOF_HD inline std::uint8_t cocShade(int r, int maxRadius) {
  return maxRadius > 0 ? std::uint8_t((r * 255 + maxRadius / 2) / maxRadius) : 0;
}

}  // namespace satdof::reference
