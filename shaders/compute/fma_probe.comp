#version 430
// shaders/compute/fma_probe.comp — does this GL's fma() round once? The backend runs it on
// a = b = 1 + 2^-12, c = -(1 + 2^-11): a*b = 1 + 2^-11 + 2^-24, so a fused multiply-add
// gives 2^-24 and a multiply then an add gives 0 (the product rounds to 1 + 2^-11).
// GLSL allows either; the reference convolution needs the fused one (fma_exact.glsl).
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Probe { float values[4]; };  // a, b, c in; result out

void main() {
  precise float result = fma(values[0], values[1], values[2]);
  values[3] = result;
}
