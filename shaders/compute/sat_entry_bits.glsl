// shaders/compute/sat_entry_bits.glsl — the bits of a SAT entry in each format of
// satdof/sat_format.h, from its exact uint32 sums (wrapping modulo 2^32), shared by the
// format pass of "rows-columns" (sat_format.comp, sat_pack.comp) and the scan pass of
// "reduce-then-scan" (sat_tile_scan.comp), so that both write the reference's bits
// (satdof/reference/sat.h: each float entry is the exact integer sum rounded once to the
// nearest float, ties to even; satdof/reference/uint21x3.h for the packed one).
// GLSL leaves the rounding of int-to-float conversions open, the reference's static_cast
// rounds to nearest even; but a float add is correctly rounded (GLSL 4.50, 4.7.1) and
// numbers of 16 significant bits convert exactly. So u = hi + lo, hi its top 16 bits and
// lo its low 16, each exact as a float, summed with one rounding: the nearest float, ties
// to even.

// The float nearest to u (ties to even), as bits.
uint floatBits(uint u) {
  precise float nearest = float(u & 0xFFFF0000u) + float(u & 0xFFFFu);
  return floatBitsToUint(nearest);
}

// A wrapped uint32 holding an exact int32 value, to float bits.
uint signedFloatBits(uint d) {
  const int v = int(d);
  return v < 0 ? 0x80000000u | floatBits(uint(-v)) : floatBits(d);
}

// uint21x3: word0 = R[20:0] | B[10:0] << 21, word1 = G[20:0] | B[21:11] << 21 (the sums
// are exact modulo 2^32, so their low 21 and 22 bits are the fields).
uvec2 uint21x3Bits(uvec4 s) {
  return uvec2((s.r & 0x1FFFFFu) | (s.b << 21u), (s.g & 0x1FFFFFu) | ((s.b >> 11u) << 21u));
}

// float32: every channel rounded; float32-offset: the exact int32 values rounded.
uvec4 float32Bits(uvec4 s) { return uvec4(floatBits(s.r), floatBits(s.g), floatBits(s.b), floatBits(s.a)); }
uvec4 signedFloat32Bits(uvec4 d) {
  return uvec4(signedFloatBits(d.r), signedFloatBits(d.g), signedFloatBits(d.b), signedFloatBits(d.a));
}

// float32-offset's per-channel mean m_c = (S_c + n/2) / n of the whole image's sum S over
// n pixels (small integers: exact), as stored in the table's trailer.
uvec4 offsetMean(uvec4 total, uint n) { return (total + n / 2u) / n; }
