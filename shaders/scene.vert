// shaders/scene.vert — scene pass: lit meshes into colour + linear view distance.
#version 450 core

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUv;

layout(location = 0) uniform mat4 uModel;     // object -> world
layout(location = 1) uniform mat4 uView;      // world -> view
layout(location = 2) uniform mat4 uProjection;

out VertexOut {
  vec3 worldNormal;
  vec3 viewPosition;  // for the linear view distance
  vec2 uv;
} vOut;

void main() {
  vec4 world = uModel * vec4(aPosition, 1.0);
  vec4 view = uView * world;
  vOut.worldNormal = mat3(transpose(inverse(uModel))) * aNormal;
  vOut.viewPosition = view.xyz;
  vOut.uv = aUv;
  gl_Position = uProjection * view;
}
