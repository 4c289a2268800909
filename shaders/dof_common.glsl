// shaders/dof_common.glsl — the SAT depth of field (box or disc aperture), shared by the
// GLSL implementations dof.frag and dof.comp. Mirrors satdof::reference::depthOfField
// (dof.cpp) line for line; the tests hold them together byte for byte.
#include "coc.glsl"

layout(location = 6) uniform int uShowCoc;  // 1: visualise the radius instead

#include "sat_format.glsl"
#include "aperture.glsl"

// The output pixel p, as 8-bit RGBA (alpha 255: the final image is opaque).
uvec4 depthOfField(ivec2 p, float depth) {
  int r = cocRadius(depth);
  if (uShowCoc == 1) {
    uint shade = uMaxRadius > 0 ? uint((r * 255 + uMaxRadius / 2) / uMaxRadius) : 0u;
    return uvec4(shade, 255u - shade, 38u, 255u);
  }
  // The aperture's boxes around p (the box: [p - r, p + r]), clipped to the image,
  // divided by their clipped pixel count.
  return uvec4(satApertureMean(p, r), 255u);
}
