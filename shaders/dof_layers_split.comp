// shaders/dof_layers_split.comp — the layered DoF's first pass (reference::splitLayers):
// each pixel's premultiplied colour and weight into the near or the far field image, its
// own near radius (what the reach passes start from), and each 16x16 tile's largest near
// radius (one workgroup per tile). See-through (SEE_THROUGH):
// the far field under a pixel that puts nothing there (a near one, or a sharp one behind
// the focal plane) holds the scene's second layer (under a sharp pixel only a surface, not
// uBehindEmpty), and the far-side image every first-layer pixel behind the focal plane.
// Linear light (LINEAR): every field in dithered linear bytes, and the image so. Both are
// fixed when the program is built (gl::loadProgram's defines, 0 or 1; LayeredDof builds
// one program for each mode it runs), so that each holds only the branches it takes.
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uDistance;  // linear view depth
layout(binding = 1) uniform sampler2D uColour;    // the image the SAT would blur
layout(binding = 0, rgba8) writeonly uniform image2D uNearField;
layout(binding = 1, rgba8) writeonly uniform image2D uFarField;
layout(binding = 2, r32i) writeonly uniform iimage2D uTileMax;
layout(binding = 2) uniform sampler2D uBehindColour;  // see-through: the second layer
layout(binding = 3) uniform sampler2D uBehindDistance;
layout(binding = 3, rgba8) writeonly uniform image2D uFarSide;
layout(binding = 4, r16i) writeonly uniform iimage2D uNearRadius;  // the reach passes' input
layout(binding = 5, rgba8) writeonly uniform image2D uLinearColour;  // linear light: the image
layout(location = 21) uniform float uBehindEmpty;  // the second layer's depth where nothing lies behind
#if !defined(SEE_THROUGH) || !defined(LINEAR)
#error dof_layers_split.comp is built with SEE_THROUGH and LINEAR defined
#endif
const bool kSeeThrough = SEE_THROUGH != 0;
const bool kLinear = LINEAR != 0;  // the fields in linear light

#include "dof_layers.glsl"
#include "linear_light.glsl"

shared int tileMax;

uint premultiply(uint c, int w) { return (c * uint(w) + 127u) / 255u; }

// A field's (premultiplied colour, weight), as stored: encoded bytes, or linear light
// (`decoded`: the colour's, decodeColour; unused in encoded bytes).
vec4 fieldOf(uvec3 c, uvec3 decoded, int w, ivec2 p) {
  uvec3 v = kLinear ? linearBytes(decoded, w, p)
                         : uvec3(premultiply(c.r, w), premultiply(c.g, w), premultiply(c.b, w));
  return vec4(vec3(v), float(w)) / 255.0;
}

void main() {
  if (gl_LocalInvocationIndex == 0u) tileMax = 0;
  barrier();
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < uSize.x && p.y < uSize.y) {
    float depth = texelFetch(uDistance, p, 0).r;
    int r = cocRadius(depth);
    bool nearSide = depth < uFocus;
    int w = nearSide ? fieldWeight(r) : farFieldWeight(r);
    uvec4 c = uvec4(round(texelFetch(uColour, p, 0) * 255.0));
    uvec3 light = kLinear ? decodeColour(c.rgb) : uvec3(0u);  // decoded once
    vec4 field = fieldOf(c.rgb, light, w, p);
    vec4 whole = fieldOf(c.rgb, light, 255, p);  // the pixel itself, weight 255
    vec4 far = nearSide ? vec4(0.0) : field;
    if (kLinear) imageStore(uLinearColour, p, whole);
    if (kSeeThrough) {
      imageStore(uFarSide, p, nearSide ? vec4(0.0) : whole);
      // Under a pixel with nothing in the far field, the hidden background (a far pixel's
      // weight); under a sharp one, a surface.
      float behind = texelFetch(uBehindDistance, p, 0).r;
      bool ownFar = !nearSide && w > 0, blurredNear = nearSide && w > 0;
      if (!ownFar && behind >= uFocus && (blurredNear || behind < uBehindEmpty)) {
        int bw = farFieldWeight(cocRadius(behind));
        uvec4 b = uvec4(round(texelFetch(uBehindColour, p, 0) * 255.0));
        far = fieldOf(b.rgb, kLinear ? decodeColour(b.rgb) : uvec3(0u), bw, p);
      }
    }
    imageStore(uNearField, p, nearSide ? field : vec4(0.0));
    imageStore(uFarField, p, far);
    imageStore(uNearRadius, p, ivec4(nearSide && w > 0 ? r : 0));  // reference::nearRadiusOf
    if (nearSide && w > 0) atomicMax(tileMax, r);
  }
  barrier();
  if (gl_LocalInvocationIndex == 0u) imageStore(uTileMax, ivec2(gl_WorkGroupID.xy), ivec4(tileMax));
}
