// qa/race_checks.cpp — a race entry's output against the CPU reference (see
// race_runner.h): the frame's stages run once more with the entry's choice (so that a
// stage after the backend, the CUDA DoF, ends the frame's mapping), the output read
// back, and compared byte for byte with the reference of the same input, which is made
// once per input and kept while the frame does not change.
#include <glad/gl.h>

#include "engine/renderer/renderer.h"
#include "engine/gl/handles.h"
#include "engine/image/image_io.h"
#include "satdof/reference/sat.h"
#include "satdof/sat_format.h"
#include "qa/race_runner.h"

namespace satdof {

const std::vector<std::uint8_t>& Race::reference(const reference::ImageRgba8& source, const std::string& key,
                                                 const std::function<std::vector<std::uint8_t>()>& make) {
  if (source.width != refSource_.width || source.height != refSource_.height ||
      source.pixels != refSource_.pixels) {
    refSource_ = source;
    refBytes_.clear();
  }
  auto it = refBytes_.find(key);
  if (it == refBytes_.end()) it = refBytes_.emplace(key, make()).first;
  return it->second;
}

// The frame's stages once more with this choice (the stage after the backend, a CUDA DoF,
// ends its mapping), then the table read back.
bool Race::checkSat(const RaceEntry& e) {
  Pipeline& p = renderer_.pipeline();
  FrameSettings& s = renderer_.settings();
  p.run(nullptr, s.filter, s.dof, {}, s.bokeh);
  renderer_.endFrame();
  glFinish();
  const Targets& t = p.targets();
  const reference::ImageRgba8 source = readTexture(p.sourceImage(), width_, height_);
  std::vector<std::uint8_t> table(satTableBytes(t.satFormat, width_, height_));
  // Through a staging buffer, so that the frame's table is never read by the host: a GL
  // driver may move a buffer it sees read back into host memory, and every later SAT with it.
  const gl::Buffer staging = gl::createBuffer(GLsizeiptr(table.size()), nullptr, GL_CLIENT_STORAGE_BIT);
  glCopyNamedBufferSubData(t.sat, staging.get(), 0, 0, GLsizeiptr(table.size()));
  glGetNamedBufferSubData(staging.get(), 0, GLsizeiptr(table.size()), table.data());
  const SatFormat format = t.satFormat;
  return table == reference(source, "sat " + e.format, [&] {
           return reference::satTableBytesOf(reference::computeSat(source, format));
         });
}

// Against each reference arithmetic the filter allows (as verify.h does): the same bytes
// as one of them.
bool Race::checkConvolution(const RaceEntry& e) {
  Pipeline& p = renderer_.pipeline();
  FrameSettings& s = renderer_.settings();
  FilterSettings settings = filter_;
  settings.implementation = e.algorithm;
  p.run(nullptr, settings, s.dof, {}, s.bokeh);
  renderer_.endFrame();
  glFinish();
  const Targets& t = p.targets();
  const reference::ImageRgba8 scene = readTexture(t.sceneColour, width_, height_);
  const reference::ImageRgba8 filtered = readTexture(t.filtered, width_, height_);
  const Filter& f = *convFilter_;
  for (ConvMath m : {ConvMath::Direct, ConvMath::Separable, ConvMath::BoxSum}) {
    if (m == ConvMath::Separable && !f.separable) continue;
    if (m == ConvMath::BoxSum && f.kind != FilterKind::Box) continue;
    const auto& want = reference(scene, "conv " + std::string(toString(m)),
                                 [&] { return reference::convolve(scene, f, settings.border, m).pixels; });
    if (filtered.pixels == want) return true;
  }
  return false;
}

}  // namespace satdof
