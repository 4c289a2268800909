// shaders/compute/conv_common.glsl — what every convolution of the gl-compute backend
// shares: the input texture, the output image, the filter, the border rule and the
// reference's arithmetic (satdof/reference/conv.h, ConvMath):
//   * a channel becomes a float exactly (0..255);
//   * one float accumulator per channel, starting at +0, one fused multiply-add per tap
//     in the reference's order: fmaRounded(), from "compute/fma.glsl", which the backend
//     aliases to fma_native.glsl where the GL's fma() rounds once, else fma_exact.glsl;
//     `precise` keeps the compiler from reordering the chain;
//   * rounded once: clamp(floor(acc + 0.5), 0, 255);
//   * a ghost cell under the zero border is skipped (fma(w, 0, acc) == acc, so skipping
//     it and multiplying by 0 give the same bits).
// The index arithmetic (the work group, the border rule, the tiles, sat-box's corners) is
// in "compute/conv_index.glsl", which the lesson's traces run too.

#include "compute/fma.glsl"
#include "compute/conv_index.glsl"

layout(local_size_x = 16, local_size_y = 16) in;  // kTile x kTile

layout(binding = 0) uniform sampler2D uInput;                 // RGBA8 scene colour
layout(rgba8, binding = 0) writeonly uniform image2D uOutput;  // RGBA8 filtered image
// The filter: (2r+1)^2 weights row-major, then the 2r+1 row factors, then the 2r+1
// column factors (separable filters only).
layout(std430, binding = 2) readonly buffer FilterWeights { float uWeights[]; };

uniform int uRadius;
uniform int uBorder;  // kBorderZero (ghost cells are 0) or kBorderClamp (edge pixels repeat)

int taps1D() { return 2 * uRadius + 1; }
float weight2D(int i, int j) { return uWeights[i * taps1D() + j]; }
float rowWeight(int j) { return uWeights[taps1D() * taps1D() + j]; }
float colWeight(int i) { return uWeights[taps1D() * taps1D() + taps1D() + i]; }

// The source index for coordinate c of a line of n, or -1 for a ghost cell (zero border).
int sourceIndex(int c, int n) { return sourceIndex(c, n, uBorder); }

ivec2 imageSize2D() { return textureSize(uInput, 0); }

// The four bytes of a texel as exact floats.
vec4 texelValue(ivec2 p) { return round(texelFetch(uInput, p, 0) * 255.0); }

// The one rounding rule, then the byte as a unorm value (stored back exactly).
void storeRounded(ivec2 p, vec4 acc) {
  precise vec4 v = clamp(floor(acc + 0.5), 0.0, 255.0);
  imageStore(uOutput, p, v / 255.0);
}
