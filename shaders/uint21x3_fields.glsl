// shaders/uint21x3_fields.glsl — a uint21x3 entry's fields (satdof/reference/uint21x3.h),
// for every shader that reads such a table: the frame's SAT (sat_uint21x3.glsl) and the
// layered composite's linear table (dof_layered.comp). A box's four-term difference of the
// fields, in wrapping uint arithmetic, masked with kUint21x3Masks, is its true sum while
// that fits.
#ifndef UINT21X3_FIELDS_GLSL
#define UINT21X3_FIELDS_GLSL
const uvec3 kUint21x3Masks = uvec3(0x1FFFFFu, 0x1FFFFFu, 0x3FFFFFu);  // R, G: 21 bits; B: 22

uvec3 uint21x3Fields(uvec2 e) {
  return uvec3(e.x & 0x1FFFFFu, e.y & 0x1FFFFFu, (e.x >> 21u) | ((e.y >> 21u) << 11u));
}
#endif
