// engine/gl/debug.cpp — see debug.h.
#include "engine/gl/debug.h"

#include <glad/gl.h>

#include <cstdio>

namespace satdof::gl {
namespace {

void GLAPIENTRY onMessage(GLenum, GLenum type, GLuint, GLenum severity, GLsizei, const GLchar* message,
                          const void*) {
  if (type == GL_DEBUG_TYPE_PUSH_GROUP || type == GL_DEBUG_TYPE_POP_GROUP) return;
  const char* kind = type == GL_DEBUG_TYPE_ERROR ? "error" : "note";
  std::fprintf(stderr, "satdof: GL %s (severity 0x%x): %s\n", kind, severity, message);
}

}  // namespace

void installDebugCallback(bool verbose) {
  glEnable(GL_DEBUG_OUTPUT);
  glDebugMessageCallback(onMessage, nullptr);
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_FALSE);
  glDebugMessageControl(GL_DONT_CARE, GL_DEBUG_TYPE_ERROR, GL_DONT_CARE, 0, nullptr, GL_TRUE);
  if (verbose) {
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_HIGH, 0, nullptr, GL_TRUE);
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_MEDIUM, 0, nullptr, GL_TRUE);
  }
}

}  // namespace satdof::gl
