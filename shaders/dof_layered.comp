// shaders/dof_layered.comp — the layered DoF's composite (reference::composeLayers): a
// blurred near pixel's own box; elsewhere the near field over the box of the reach R(p),
// over the far field's weighted blur or the textbook box blur. Each "box" is the
// aperture's shape (aperture.glsl: one box, or the disc's slabs), four reads per box of
// each field's SAT (uint32, exact sums) and of the colour's SAT (the chosen format,
// through its reader). See-through (SEE_THROUGH, satdof/reference/layered_dof.h): a
// blurred near pixel's box with what it shows of the far side replaced by what lies behind
// the pixel (the scene's second layer, blurred as a far pixel). Linear light (LINEAR): the
// fields hold light, the textbook box is read from the image's linear SAT (uint32, or
// uint21x3 where LINEAR_PACKED: each box's difference masked to its field), and the result
// is encoded back (linear_light.glsl).
//
// The mode is fixed when the program is built (gl::loadProgram's defines, 0 or 1 each;
// LayeredDof builds one program for each mode it runs), so that each program holds only
// the branches it takes: SEE_THROUGH, LINEAR, LINEAR_PACKED, and the aperture's shape,
// APERTURE (aperture.glsl).
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uDistance;
layout(binding = 0, rgba8) writeonly uniform image2D uOutput;
layout(binding = 3, r16i) readonly uniform iimage2D uReach;  // R(p), dof_layers_reach.comp
layout(std430, binding = 1) readonly buffer NearSat { uvec4 nearSat[]; };
layout(std430, binding = 2) readonly buffer FarSat { uvec4 farSat[]; };
layout(std430, binding = 3) readonly buffer FarSideSat { uvec4 farSideSat[]; };
layout(binding = 1) uniform sampler2D uBehindColour;  // see-through: the second layer
layout(binding = 2) uniform sampler2D uBehindDistance;
layout(std430, binding = 5) readonly buffer LinearColourSat { uvec4 linearColourSat[]; };
layout(std430, binding = 6) readonly buffer LinearColourPacked { uvec2 linearColourPacked[]; };  // uint21x3
#if !defined(SEE_THROUGH) || !defined(LINEAR) || !defined(LINEAR_PACKED) || !defined(APERTURE)
#error dof_layered.comp is built with SEE_THROUGH, LINEAR, LINEAR_PACKED and APERTURE defined
#endif
const bool kSeeThrough = SEE_THROUGH != 0;
const bool kLinear = LINEAR != 0;               // the fields in linear light, and the image's SAT
const bool kLinearPacked = LINEAR_PACKED != 0;  // that SAT in uint21x3 (binding 6), not uint32 (5)

#include "dof_layers.glsl"
#include "sat_format.glsl"
#include "aperture.glsl"
#include "linear_light.glsl"
#include "uint21x3_fields.glsl"

uvec4 nearAt(int x, int y) { return x < 0 || y < 0 ? uvec4(0u) : nearSat[y * uSize.x + x]; }
uvec4 farAt(int x, int y) { return x < 0 || y < 0 ? uvec4(0u) : farSat[y * uSize.x + x]; }
uvec4 farSideAt(int x, int y) { return x < 0 || y < 0 ? uvec4(0u) : farSideSat[y * uSize.x + x]; }
uvec4 linearAt(int x, int y) {
  if (x < 0 || y < 0) return uvec4(0u);
  if (!kLinearPacked) return linearColourSat[y * uSize.x + x];
  return uvec4(uint21x3Fields(linearColourPacked[y * uSize.x + x]), 0u);
}

// Sums of (premultiplied rgb, weight) over the aperture of radius r around p, clipped; and
// its pixel count. Each box's difference is masked with `mask` (a packed table's fields).
#define ALL_BITS uvec4(0xFFFFFFFFu)
#define UINT21X3_FIELDS uvec4(kUint21x3Masks, 0u)
#define APERTURE_SUMS(at, mask, p, r, sums, area)                                                       \
  {                                                                                                     \
    sums = uvec4(0u);                                                                                   \
    uint count = 0u;                                                                                    \
    for (int i = 0; i < apertureBoxes(); ++i) {                                                         \
      ivec2 lo, hi;                                                                                     \
      if (!apertureBox(p, r, i, lo, hi)) continue;                                                      \
      sums += (at(hi.x, hi.y) - at(lo.x - 1, hi.y) - at(hi.x, lo.y - 1) + at(lo.x - 1, lo.y - 1)) & (mask);\
      count += uint((hi.x - lo.x + 1) * (hi.y - lo.y + 1));                                             \
    }                                                                                                   \
    area = float(count);                                                                                \
  }

// The far field's mean over the aperture of radius r around p, where r >= 2 and the far
// field holds something there (sharp pixels weigh 0): true, with the mean; else false.
bool farFieldMean(ivec2 p, int r, out vec3 mean) {
  mean = vec3(0.0);
  if (farFieldWeight(r) == 0) return false;
  uvec4 f;
  float area;
  APERTURE_SUMS(farAt, ALL_BITS, p, r, f, area)
  if (f.a == 0u) return false;
  precise vec3 m = vec3(f.rgb) * 255.0 / float(f.a);
  mean = m;
  return true;
}

// The textbook box of the pixel's own radius: the encoded mean, or in linear light the
// linear one. Read only where a branch uses it (each is four reads a box of a table).
vec3 textbookMean(ivec2 p, int r) {
  if (!kLinear) return vec3(satApertureMean(p, r));
  uvec4 l;
  float area;
  APERTURE_SUMS(linearAt, kLinearPacked ? UINT21X3_FIELDS : ALL_BITS, p, r, l, area)
  precise vec3 mean = vec3(l.rgb) / area;
  return mean;
}

// A composited colour, rounded to the nearest byte (in linear light: encoded), stored.
void store(ivec2 p, vec3 v) {
  if (kLinear) v = vec3(encodeLinear(v.r), encodeLinear(v.g), encodeLinear(v.b));
  imageStore(uOutput, p, vec4(clamp(floor(v + 0.5), 0.0, 255.0) / 255.0, 1.0));
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= uSize.x || p.y >= uSize.y) return;
  float depth = texelFetch(uDistance, p, 0).r;
  int r = cocRadius(depth);
  if (depth < uFocus && fieldWeight(r) > 0) {  // a blurred near pixel: its own box, once
    precise vec3 textbook = textbookMean(p, r);
    float behind = kSeeThrough ? texelFetch(uBehindDistance, p, 0).r : 0.0;
    uvec4 side = uvec4(0u);
    float area = 1.0;
    bool counts = !(behind < uFocus && cocRadius(behind) > 0);  // reference::behindCounts
    if (kSeeThrough && counts) APERTURE_SUMS(farSideAt, ALL_BITS, p, r, side, area)
    if (side.a == 0u) {
      store(p, textbook);
      return;
    }
    // See-through: what the box shows of the far side, replaced by what lies behind.
    uvec3 b = uvec3(round(texelFetch(uBehindColour, p, 0).rgb * 255.0));
    vec3 behindColour = kLinear ? vec3(decodeColour(b)) / 16.0 : vec3(b);
    precise vec3 back;
    if (!farFieldMean(p, cocRadius(behind), back)) back = behindColour;
    precise float n = float(side.a / 255u);
    precise vec3 v = textbook + (n * back - vec3(side.rgb)) / area;
    store(p, v);
    return;
  }
  int reach = imageLoad(uReach, p).r;
  if (reach == 0 && farFieldWeight(r) == 0) {  // nothing blended: the textbook's byte, encoded
    imageStore(uOutput, p, vec4(vec3(satApertureMean(p, r)) / 255.0, 1.0));
    return;
  }
  // What lies behind: from r = 2 on, the far field over the pixel's own box, normalised
  // (sharp pixels weigh 0); else, or where it holds nothing, the textbook box.
  precise vec3 back;
  if (!farFieldMean(p, r, back)) back = textbookMean(p, r);
  // The near field over the box of the largest near blur that reaches this pixel.
  precise vec3 nearColour = vec3(0.0);
  precise float coverage = 0.0;
  if (reach > 0) {
    uvec4 n;
    float area;
    APERTURE_SUMS(nearAt, ALL_BITS, p, reach, n, area)
    nearColour = vec3(n.rgb) / area;
    coverage = min(1.0, float(n.a) / (255.0 * area));
  }
  precise vec3 v = nearColour + (1.0 - coverage) * back;
  store(p, v);
}
