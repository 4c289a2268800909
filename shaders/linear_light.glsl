// shaders/linear_light.glsl — the layered DoF in linear light (satdof/reference/
// layered_dof.h, "Linear light"): the tables the host computes once (reference::
// linearLightTables), the dithered linear byte of a field, the encoding back.
layout(std430, binding = 4) readonly buffer LinearLightTables {
  uint decode[256];      // sixteenths of a linear byte, per encoded byte
  float threshold[256];  // the linear value from which each byte encodes
  uint bucketStart[672]; // each bucket's first byte, four to a word (little end first)
};
const int kEncodeFirstBucket = 0x3900;  // reference::kEncodeFirstBucket
const int kEncodeBuckets = 2688;        // reference::kEncodeBuckets

// reference::ditherOffset: Bayer's 4x4 matrix, a row of four 4-bit entries in each 16 bits
// of two words (rows 0 1: 0 8 2 10, 12 4 14 6; rows 2 3: 3 11 1 9, 15 7 13 5), so that no
// indexed array is kept per invocation.
uint ditherOffset(ivec2 p) {
  uint rows = (p.y & 2) == 0 ? 0x6E4CA280u : 0x5D7F91B3u;
  return (rows >> (((p.y & 1) * 4 + (p.x & 3)) * 4)) & 15u;
}

// An encoded colour's light, in sixteenths of a linear byte.
uvec3 decodeColour(uvec3 c) { return uvec3(decode[c.r], decode[c.g], decode[c.b]); }

// reference::linearByte, for each channel of a decoded colour.
uvec3 linearBytes(uvec3 decoded, int w, ivec2 p) {
  uvec3 premultiplied = (decoded * uint(w) + 127u) / 255u;
  return (premultiplied + ditherOffset(p)) >> 4;
}

// reference::encodeLinearByBucket: the largest byte whose threshold v reaches, from v's
// bucket (its float's top 16 bits), which gives a byte, and the one threshold a bucket can
// hold, which decides the step above it. Integer and comparison operations only.
float encodeLinearByBucket(float v) {
  int bucket = int(floatBitsToUint(v > 0.0 ? v : 0.0) >> 16u) - kEncodeFirstBucket;
  if (bucket < 0) return 0.0;
  if (bucket >= kEncodeBuckets) return 255.0;
  int b = int((bucketStart[bucket >> 2] >> uint((bucket & 3) * 8)) & 255u);
  if (b < 255 && v >= threshold[b + 1]) ++b;
  return float(b);
}

// reference::encodeLinear, the same byte on every GPU. v reaches threshold b, 255 ((b - 1/2)
// / 255)^2.2, iff g = 255 (v / 255)^(1/2.2) + 1/2 >= b, so the byte is floor(g) wherever g
// is not within 1e-3 of an integer: GLSL's precision rules for pow() (exp2 of y log2 x)
// bound its error in g by 2e-4, and the thresholds' rounding to floats moves them by less
// than 1e-5 there. Within 1e-3 of an integer, the bucket decides. (Why not the bucket for
// every value, nor the tables in shared memory: docs/PERFORMANCE.md, "The reach as masks,
// and the encoding by bucket".)
float encodeLinear(float v) {
  float g = 255.0 * pow(max(v, 0.0) / 255.0, 1.0 / 2.2) + 0.5;
  float f = fract(g);
  if (f > 1e-3 && f < 1.0 - 1e-3) return min(floor(g), 255.0);
  return encodeLinearByBucket(v);
}
