// engine/backends/host_bokeh.cpp — see host_bokeh.h.
#include "engine/backends/host_bokeh.h"

#include "engine/image/image_io.h"

namespace satdof {
namespace {

// The list and its command into the sprite buffer and the request's command slot.
void uploadBokehList(const Targets& t, const reference::BokehList& list, int slot) {
  const reference::BokehCommand command = reference::bokehCommand(list);
  if (!list.sprites.empty())
    glNamedBufferSubData(t.bokehSprites, 0, GLsizeiptr(list.sprites.size() * sizeof(reference::BokehSprite)),
                         list.sprites.data());
  glNamedBufferSubData(t.bokehCommands, GLintptr(slot) * kBokehCommandBytes, sizeof command, &command);
}

}  // namespace

void buildBokehOnHost(const Targets& t, const reference::ImageRgba8& colour, reference::ImageR32F& depth,
                      const BokehRequest& r, Profiler& profiler) {
  {
    auto timed = profiler.section(profiler.host(), "bokeh read back");
    if (depth.width != t.extent.width || depth.height != t.extent.height)
      depth = reference::ImageR32F(t.extent.width, t.extent.height);
    readDepthTexture(t.depth, depth);
  }
  reference::BokehList list;
  {
    auto timed = profiler.section(profiler.host(), "bokeh select+sort", "cpu reference");
    list = reference::bokehHighlights(colour, depth, r.ramp, r.select);
  }
  auto timed = profiler.section(profiler.host(), "bokeh upload");
  uploadBokehList(t, list, r.slot);
}

}  // namespace satdof
