// shaders/bokeh_add.frag — the bokeh sprites' sum (bokeh.frag's output, added up in a
// half-float image) added onto the DoF output by the blend, rounded to 8 bits once.
#version 450 core

layout(binding = 0) uniform sampler2D uSum;

layout(location = 0) out vec4 outColour;

void main() { outColour = vec4(texelFetch(uSum, ivec2(gl_FragCoord.xy), 0).rgb, 0.0); }
