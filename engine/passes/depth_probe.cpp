// engine/passes/depth_probe.cpp — see depth_probe.h.
#include "engine/passes/depth_probe.h"

#include <cstdint>

namespace satdof {

DepthProbe::DepthProbe() {
  for (Slot& s : slots_) s.buffer = gl::createBuffer(kMaxPixels * sizeof(float), nullptr, GL_DYNAMIC_STORAGE_BIT);
}

void DepthProbe::collect(Slot& slot) {
  if (slot.pixels.empty()) return;
  float values[kMaxPixels] = {};
  glGetNamedBufferSubData(slot.buffer.get(), 0, GLsizeiptr(slot.pixels.size() * sizeof(float)), values);
  for (std::size_t i = 0; i < slot.pixels.size(); ++i) ready_.push_back({slot.pixels[i], values[i]});
  slot.pixels.clear();
}

void DepthProbe::request(GLuint depthTexture, Extent extent, std::span<const Pixel> pixels) {
  const int previous = 1 - current_;
  collect(slots_[previous]);
  Slot& slot = slots_[current_];
  collect(slot);  // normally empty: it was read last frame
  glBindBuffer(GL_PIXEL_PACK_BUFFER, slot.buffer.get());
  for (const Pixel& p : pixels) {
    if (int(slot.pixels.size()) == kMaxPixels) break;
    if (p.x < 0 || p.y < 0 || p.x >= extent.width || p.y >= extent.height) continue;
    const std::uintptr_t offset = slot.pixels.size() * sizeof(float);
    // GL rows count from the bottom.
    glGetTextureSubImage(depthTexture, 0, p.x, extent.height - 1 - p.y, 0, 1, 1, 1, GL_RED, GL_FLOAT,
                         GLsizei(offset + sizeof(float)), reinterpret_cast<void*>(offset));
    slot.pixels.push_back(p);
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  current_ = previous;
}

std::vector<DepthProbe::Reading> DepthProbe::take() {
  std::vector<Reading> out;
  out.swap(ready_);
  return out;
}

}  // namespace satdof
