// qa/verify_renderer.cpp — see verify_renderer.h.
#include "qa/verify_renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <string>

#include "engine/image/image_io.h"

namespace satdof {

std::vector<VerifyLine> verifyRenderedFrame(Renderer& renderer) {
  const Targets& t = renderer.pipeline().targets();
  const int w = renderer.extent().width, h = renderer.extent().height;
  FrameCopy f;
  auto [source, depth] = renderer.readBackColourAndDepth();  // finishes the GL work first
  f.source = std::move(source);
  f.depth = std::move(depth);
  f.scene = readTexture(t.sceneColour, w, h);
  f.dof = readTexture(t.dofOutput, w, h);
  if (const ScenePass::Layer behind = renderer.scenePass().secondLayer();
      !renderer.showsPhoto() && renderer.pipeline().usesSecondLayer() && behind.colour) {
    f.behindColour = readTexture(behind.colour, w, h);
    f.behindDepth = readDepthTexture(behind.depth, w, h);
  }
  f.sat.resize(satTableBytes(t.satFormat, w, h));
  glGetNamedBufferSubData(t.sat, 0, GLsizeiptr(f.sat.size()), f.sat.data());
  VerifyRequest r;
  r.format = t.satFormat;
  r.params = renderer.frameBlur().dof.params;
  r.showCoc = renderer.settings().dof.showCoc;
  r.dofName = std::string(renderer.pipeline().dofEntry().name);
  r.layeredDof = renderer.pipeline().dofEntry().fields != DofFields::None;
  r.linearLight = renderer.pipeline().dofEntry().fields == DofFields::SeeThroughLinear;
  if (const auto b = renderer.pipeline().bokeh().lastRequest(); renderer.settings().bokeh.enabled && b) {
    r.dofSkipped = "bokeh sprites are drawn on it (their list is checked)";
    r.bokeh = b->select;
    r.bokehRamp = b->ramp;
    glGetNamedBufferSubData(t.bokehCommands, GLintptr(b->slot) * kBokehCommandBytes, sizeof f.bokehCommand,
                            &f.bokehCommand);
    f.bokehSprites.resize(std::min<std::size_t>(f.bokehCommand.instanceCount, kMaxBokehSprites));
    glGetNamedBufferSubData(t.bokehSprites, 0, GLsizeiptr(f.bokehSprites.size() * sizeof(reference::BokehSprite)),
                            f.bokehSprites.data());
  }
  else if (r.layeredDof && renderer.settings().dof.showCoc) r.dofSkipped = "it shows the blur radius";
  if (renderer.pipeline().sourceImage() != t.sceneColour) {
    const FilterSettings& filter = renderer.settings().filter;
    try {
      r.filter = filter.build();
      r.border = filter.border;
      r.filterName = renderer.pipeline().config(filter.implementation).conv;
    } catch (const std::exception&) {
    }
  }
  return verifyFrame(f, r);
}

}  // namespace satdof
