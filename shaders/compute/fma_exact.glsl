// shaders/compute/fma_exact.glsl — fmaRounded(a, b, c): a*b + c rounded once to the
// nearest float (ties to even), like std::fma and CUDA's __fmaf_rn, on a GL whose fma()
// may round twice (GLSL allows it; Mesa's llvmpipe does, the backend checks with
// fma_probe.comp and uses fma_native.glsl where it need not emulate).
//
// How: a*b is exact in double (24 + 24 bits <= 53). The double sum s = a*b + c may round,
// so it is rounded to odd instead: TwoSum gives the exact error, and an inexact s whose
// last bit is even is moved one double ulp toward the exact value. A value rounded to odd
// with 53 >= 24 + 2 bits, then rounded to nearest float, is the nearest float of the
// exact value (Boldo and Melquiond, 2008). The last rounding is done on the bits (GLSL
// leaves the rounding of a double-to-float conversion open). `precise` keeps the
// compiler from fusing or reordering the TwoSum.

// The nearest float (ties to even) of a double, zero, subnormal and normal floats alike.
float nearestFloat(double x) {
  const uvec2 bits = unpackDouble2x32(x);  // .x low word, .y high word
  const uint sign = bits.y & 0x80000000u;
  const int exponent = int((bits.y >> 20u) & 0x7FFu);
  if (exponent == 0) return uintBitsToFloat(sign);  // 0 (double subnormals are far below float)
  // The 53-bit significand as hi (21 bits) and lo (32 bits); the float keeps its top 24
  // bits when normal, fewer when subnormal: drop `shift` bits.
  const uint hi = (bits.y & 0xFFFFFu) | 0x100000u, lo = bits.x;
  const int e = exponent - 1023 + 127;  // the float's biased exponent when normal
  const int shift = 29 + max(0, 1 - e);
  if (shift > 53) return uintBitsToFloat(sign);  // below half the smallest subnormal
  // kept = significand >> shift; rest = the dropped bits, compared with half of them.
  uint kept, restHi, restLo;  // rest as (restHi, restLo) of `shift` bits
  if (shift >= 32) {
    kept = hi >> uint(shift - 32);
    restHi = hi & ((1u << uint(shift - 32)) - 1u);
    restLo = lo;
  } else {
    kept = (hi << uint(32 - shift)) | (lo >> uint(shift));
    restHi = 0u;
    restLo = lo & ((1u << uint(shift)) - 1u);
  }
  // halfway = 1 << (shift - 1), as (halfHi, halfLo).
  const uint halfHi = shift - 1 >= 32 ? 1u << uint(shift - 33) : 0u;
  const uint halfLo = shift - 1 >= 32 ? 0u : 1u << uint(shift - 1);
  const bool above = restHi > halfHi || (restHi == halfHi && restLo > halfLo);
  const bool tie = restHi == halfHi && restLo == halfLo;
  if (above || (tie && (kept & 1u) == 1u)) kept += 1u;  // may carry into the exponent: right
  // Normal: kept has the implicit bit at 23, the exponent field is e - 1 plus that bit.
  // Subnormal: the exponent field is 0 plus any carry into bit 23.
  const uint field = e >= 1 ? (uint(e - 1) << 23u) + kept : kept;
  return uintBitsToFloat(sign | field);
}

float fmaRounded1(float a, float b, float c) {
  precise double product = double(a) * double(b);  // exact
  precise double addend = double(c);
  precise double s = product + addend;
  precise double back = s - product;
  precise double error = (product - (s - back)) + (addend - back);  // TwoSum: exact
  uvec2 bits = unpackDouble2x32(s);
  if (error != 0.0 && (bits.x & 1u) == 0u) {
    // Round to odd: one ulp toward the exact value (away from zero when error has s's sign).
    uint borrow = 0u, carry = 0u;
    if ((error > 0.0) == (s > 0.0)) {
      bits.x = uaddCarry(bits.x, 1u, carry);
      bits.y += carry;
    } else {
      bits.x = usubBorrow(bits.x, 1u, borrow);
      bits.y -= borrow;
    }
  }
  return nearestFloat(packDouble2x32(bits));
}

vec4 fmaRounded(vec4 a, vec4 b, vec4 c) {
  return vec4(fmaRounded1(a.x, b.x, c.x), fmaRounded1(a.y, b.y, c.y), fmaRounded1(a.z, b.z, c.z),
              fmaRounded1(a.w, b.w, c.w));
}
