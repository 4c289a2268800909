// shaders/photo.comp — an RGB-D photo into the frame's targets (engine/passes/photo_pass.h):
// its colour into the scene colour, its distances (metres) into the linear depth, the same
// two images the scene pass draws. At the photo's own size every texel is copied as it is;
// at another size the photo is fitted in, centred (bars of the window's background, at the
// sky's depth), colour filtered from its mipmaps, depth the nearest texel's (a mean across
// an edge would be a distance where nothing is). Which pixels were holes in the depth map
// goes into a third image, as the depth goes (the holes view reads it).
#version 450 core

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0) uniform sampler2D uColour;  // RGBA8, mipmapped, row 0 the bottom
layout(binding = 1) uniform sampler2D uDepth;   // R32F metres
layout(binding = 2) uniform sampler2D uHoles;   // R8: 1 where the map had no reading
layout(binding = 0, rgba8) uniform writeonly image2D outColour;
layout(binding = 1, r32f) uniform writeonly image2D outDistance;
layout(binding = 2, r8) uniform writeonly image2D outHoles;

layout(location = 0) uniform vec4 uFit;       // target pixel -> photo texel: (p - xy) * zw
layout(location = 1) uniform float uSkyDepth;  // where no photo is (ScenePass::kSkyDepth)
layout(location = 2) uniform vec3 uBar;        // the bars' colour

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const ivec2 target = imageSize(outColour), photo = textureSize(uColour, 0);
  if (any(greaterThanEqual(p, target))) return;
  if (target == photo) {
    imageStore(outColour, p, texelFetch(uColour, p, 0));
    imageStore(outDistance, p, texelFetch(uDepth, p, 0));
    imageStore(outHoles, p, texelFetch(uHoles, p, 0));
    return;
  }
  const vec2 q = (vec2(p) + 0.5 - uFit.xy) * uFit.zw;  // in photo texels
  if (any(lessThan(q, vec2(0.0))) || any(greaterThanEqual(q, vec2(photo)))) {
    imageStore(outColour, p, vec4(uBar, 1.0));
    imageStore(outDistance, p, vec4(uSkyDepth));
    imageStore(outHoles, p, vec4(0.0));
    return;
  }
  const float lod = max(log2(uFit.z), 0.0);  // texels per pixel
  imageStore(outColour, p, vec4(textureLod(uColour, q / vec2(photo), lod).rgb, 1.0));
  imageStore(outDistance, p, texelFetch(uDepth, ivec2(q), 0));
  imageStore(outHoles, p, texelFetch(uHoles, ivec2(q), 0));
}
