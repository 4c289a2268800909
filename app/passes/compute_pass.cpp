// app/passes/compute_pass.cpp — see compute_pass.h.
#include "passes/compute_pass.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace satdof {

namespace {
// One uvec4 per pixel (satdof/sat.h layout).
std::int64_t satBytes(Extent e) { return std::int64_t(e.width) * e.height * 4 * sizeof(std::uint32_t); }
}  // namespace

void ComputePass::checkExtent(Extent extent) {
  // The DoF shader reads the whole SAT as one shader storage block: refuse sizes whose SAT
  // exceeds this GL's limit instead of reading past the bound range.
  GLint64 maxBlock = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlock);
  const std::int64_t bytes = satBytes(extent);
  if (maxBlock > 0 && bytes > maxBlock)
    throw std::runtime_error(std::to_string(extent.width) + "x" + std::to_string(extent.height) +
                             " needs a " + std::to_string(bytes >> 20) +
                             " MiB SAT, more than this GL's largest shader storage block (" +
                             std::to_string(maxBlock >> 20) + " MiB)");
}

void ComputePass::resize(Extent extent, GLuint sceneColour) {
  checkExtent(extent);
  backend_->detach();
  sceneColour_ = sceneColour;
  filtered_ = gl::createTexture2D(GL_RGBA8, extent.width, extent.height);
  compare_ = gl::createTexture2D(GL_RGBA8, extent.width, extent.height);
  // Dynamic storage: the CPU backend uploads with glNamedBufferSubData.
  sat_ = gl::createBuffer(GLsizeiptr(satBytes(extent)), nullptr, GL_DYNAMIC_STORAGE_BIT);
  backend_->attach({sceneColour, filtered_.get(), compare_.get(), sat_.get(), extent});
}

std::optional<std::string> ComputePass::check(const FilterSettings& settings) const {
  if (!settings.enabled) return std::nullopt;
  Filter filter;
  try {
    filter = settings.build();
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  const auto implementations = backend_->filterImplementations();
  auto verify = [&](const std::string& name) -> std::optional<std::string> {
    if (name.empty()) return std::nullopt;  // the backend's default runs every filter
    for (const FilterImplementation& i : implementations)
      if (i.name == name) {
        if (auto why = i.whyNot(filter)) return name + ": " + *why;
        return std::nullopt;
      }
    return "no convolution implementation '" + name + "' in the " + std::string(backend_->name()) +
           " backend";
  };
  if (auto why = verify(settings.implementation)) return why;
  if (settings.compare) return verify(settings.compareImplementation);
  return std::nullopt;
}

void ComputePass::run(const FilterSettings& settings) {
  if (!lastSettings_ || !(*lastSettings_ == settings)) {
    lastSettings_ = settings;
    filter_.reset();
    filterProblem_.clear();
    if (settings.enabled) {
      if (auto why = check(settings))
        filterProblem_ = *why;
      else
        filter_ = settings.build();
    }
  }
  filtering_ = filter_.has_value();
  comparing_ = filtering_ && settings.compare;
  glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 3, -1, "filter + SAT");
  backend_->compute(settings, filter_ ? &*filter_ : nullptr);
  glPopDebugGroup();
}

}  // namespace satdof
