// shaders/scene.frag — scene pass: Lambert + a Blinn-Phong highlight, optional texture (the
// built-in checker, a glTF base colour map, its uv transformed), plus emission (a glTF
// emissive colour, optionally textured); the material terms of scene::Instance.
// Output 0: colour (RGBA8). Output 1: linear view depth in scene units (R32F), which
// the DoF pass turns into a circle of confusion. Compiled twice: scene_layer.glsl names
// the first layer or the second (depth peeling, for the see-through DoF), so that the
// first pays nothing for the second's tests.
#version 450 core

#include "scene_layer.glsl"

in VertexOut {
  vec3 worldNormal;
  vec3 viewPosition;
  vec2 uv;
} vIn;

layout(location = 3) uniform vec3 uAlbedo;
layout(location = 4) uniform vec3 uLightDirection;  // world space, towards the light
layout(location = 5) uniform int uTextured;         // 1: modulate by uTexture
layout(location = 6) uniform mat4 uViewForLight;    // world -> view, for the half vector
layout(location = 7) uniform int uEmissive;         // 1: a lamp, its albedo unlit
layout(location = 8) uniform float uDiffuse;        // weight of the lit diffuse term
layout(location = 9) uniform vec3 uSpecular;        // highlight colour
layout(location = 10) uniform float uShininess;     // highlight exponent
layout(location = 12) uniform float uPeelFrom;     // the second layer's nearest depth
layout(location = 13) uniform mat3 uUvTransform;    // (locations 13-15) the textures' uv
layout(location = 16) uniform vec3 uEmission;       // linear, added to the shaded colour
layout(location = 17) uniform int uEmissionTextured;  // 1: the emission modulated by uEmissionTexture
layout(binding = 0) uniform sampler2D uTexture;
layout(binding = 1) uniform sampler2D uFirstDistance;  // the first layer's, resolved
layout(binding = 2) uniform sampler2D uEmissionTexture;

layout(location = 0) out vec4 outColour;
layout(location = 1) out float outDistance;

void main() {
  float distance = -vIn.viewPosition.z;
  if (kSecondLayer) {
    float slope = fwidth(distance);  // before any discard: derivatives need the whole quad
    // The second layer: behind the first layer's surface (its depth is the nearest of the
    // pixel's samples, so allow the surface's own slope across the pixel), no nearer than
    // uPeelFrom (no blurred near surface: reference::secondLayerFrom) and facing the eye
    // (a closed object's far side is not what a lens sees past its edge).
    float first = texelFetch(uFirstDistance, ivec2(gl_FragCoord.xy), 0).r;
    if (distance <= first + 2.0 * slope + 1e-4 * first || distance < uPeelFrom) discard;
    if (dot(mat3(uViewForLight) * vIn.worldNormal, vIn.viewPosition) >= 0.0) discard;
  }
  vec3 n = normalize(vIn.worldNormal);
  if (!gl_FrontFacing) n = -n;
  vec3 l = normalize(uLightDirection);
  vec3 albedo = uAlbedo;
  vec2 uv = (uUvTransform * vec3(vIn.uv, 1.0)).xy;  // the identity: vIn.uv exactly
  if (uTextured == 1) albedo *= texture(uTexture, uv).rgb;
  vec3 emission = uEmission;
  if (uEmissionTextured == 1) emission *= texture(uEmissionTexture, uv).rgb;

  // Specular in view space: the eye is at the origin.
  vec3 nv = normalize(mat3(uViewForLight) * n);
  vec3 lv = normalize(mat3(uViewForLight) * l);
  vec3 h = normalize(lv - normalize(vIn.viewPosition));
  float diffuse = max(dot(n, l), 0.0);
  float highlight = pow(max(dot(nv, h), 0.0), uShininess) * float(diffuse > 0.0);
  vec3 ambient = 0.18 * albedo * (0.6 + 0.4 * n.y);
  vec3 c = uEmissive == 1 ? albedo : ambient + albedo * (diffuse * uDiffuse) * 0.85 + uSpecular * highlight;
  c += emission;  // zero but for a glTF emissive material
  outColour = vec4(pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
  outDistance = distance;
}
