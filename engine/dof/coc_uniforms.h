// engine/dof/coc_uniforms.h — the uniforms of shaders/coc.glsl (locations 0-5): the circle of
// confusion's ramp (satdof/reference/coc.h) and the image size, set on `program`; and of
// shaders/aperture.glsl (location 7), for the programs that include it without defining
// APERTURE (the layered composite builds the shape in).
#pragma once

#include <glad/gl.h>

#include "engine/basic_types.h"
#include "satdof/reference/coc.h"

namespace satdof {

inline void setCocUniforms(GLuint program, const reference::CocRamp& ramp, Extent size) {
  glUseProgram(program);
  glUniform1f(0, ramp.focus);
  glUniform1f(1, ramp.a);
  glUniform1f(2, ramp.b);
  glUniform1f(3, ramp.c);
  glUniform1i(4, ramp.maxRadius);
  glUniform2i(5, size.width, size.height);
}

inline void setApertureUniform(GLuint program, reference::Aperture aperture) {
  glProgramUniform1i(program, 7, aperture == reference::Aperture::Disc ? 1 : 0);
}

}  // namespace satdof
