// app/passes/sat_pass.cpp — see sat_pass.h.
#include "passes/sat_pass.h"

namespace satdof {

void SatPass::resize(Extent extent, GLuint colourTexture) {
  backend_->detach();
  const GLsizeiptr bytes = GLsizeiptr(extent.width) * extent.height * 4 * sizeof(std::uint32_t);
  // Dynamic storage: the CPU backend uploads with glNamedBufferSubData.
  buffer_ = gl::createBuffer(bytes, nullptr, GL_DYNAMIC_STORAGE_BIT);
  backend_->attach(colourTexture, buffer_.get(), extent);
}

}  // namespace satdof
