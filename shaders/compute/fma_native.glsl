// shaders/compute/fma_native.glsl — fmaRounded() where the GL's fma() rounds once (the
// backend checks with fma_probe.comp at start; NVIDIA's does): the hardware instruction.
// See fma_exact.glsl for the other case.
vec4 fmaRounded(vec4 a, vec4 b, vec4 c) { return fma(a, b, c); }
