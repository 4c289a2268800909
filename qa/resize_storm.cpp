// qa/resize_storm.cpp — `satdof resize-storm`: the window resized to --frames random
// sizes (1x1, very wide, very tall, minimised and restored among them), a frame rendered
// at each, then back to the starting size: that frame's DoF image must equal a fresh
// headless process's at the same size, and the process's resident memory must stay flat.
// Run under Xvfb in the tests (xvfb-run); exit 1 on a mismatch or growth.
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "engine/renderer/renderer.h"
#include "engine/files/interrupt.h"
#include "qa/fresh_render.h"
#include "qa/tools.h"
#include "engine/image/image_io.h"
#include "qa/process_memory.h"

namespace satdof {

int runResizeStorm(WindowedFrames& window, const Options& options) {
  Renderer& renderer = window.renderer();
  Context& context = renderer.context();
  if (options.headless || !context.window()) throw UsageError("resize-storm needs a window (a display, e.g. xvfb-run)");
  GLFWwindow* w = context.window();
  const int sizes = options.frames > 0 ? options.frames : 1000;
  std::mt19937 rng(options.soakSeed);
  std::uniform_int_distribution<int> side(1, options.stormMaxSide);
  const Extent start = options.size;
  auto frameAt = [&](int width, int height) {
    glfwSetWindowSize(w, width, height);
    for (int i = 0; i < 3; ++i) context.pollEvents();  // let the server settle the size
    const Extent fb = context.framebufferExtent();
    if (fb.empty()) return;  // minimised: nothing to render into
    renderer.resize(window.imageExtent(fb));  // the image beside the docked panel
    renderer.renderFrame();
    window.presentWindow();
    context.swapBuffers();
    renderer.endFrame();
  };
  frameAt(start.width, start.height);
  const long rssBefore = residentKiB();
  for (int i = 0; i < sizes; ++i) {
    if (files::interrupted()) return kExitOk;  // SIGINT, SIGTERM: stopped; main exits with its code
    switch (i % 10) {
      case 3: frameAt(1, 1); break;
      case 5: frameAt(options.stormMaxSide, 1 + side(rng) % 8); break;  // very wide
      case 7: frameAt(1 + side(rng) % 8, options.stormMaxSide); break;  // very tall
      case 9:
        glfwIconifyWindow(w);
        frameAt(side(rng), side(rng));
        glfwRestoreWindow(w);
        break;
      default: frameAt(side(rng), side(rng));
    }
  }
  frameAt(start.width, start.height);
  const long rssAfter = residentKiB();
  renderer.drainProfilers();
  glFinish();
  const Extent fb = context.framebufferExtent();
  const std::filesystem::path out = options.outDir;  // made with the PNG (image_io.h)
  const Extent extent = renderer.extent();
  writePng(out / "storm_last.png", readFramebuffer(renderer.pipeline().targets().dofFramebuffer, extent.width, extent.height));
  // A fresh headless start renders at scale 1: it gets the blur in the storm's pixels, the
  // --max-blur and bokeh size the window's render scale made of the user's
  // (Renderer::frameBlur).
  const Renderer::BlurSettings scaled = renderer.frameBlur();
  char blur[96];
  std::snprintf(blur, sizeof blur, " --max-blur %.9g", double(scaled.dof.params.maxRadius));
  if (scaled.bokeh.enabled)
    std::snprintf(blur + std::strlen(blur), sizeof blur - std::strlen(blur), " --bokeh-min-radius %d",
                  scaled.bokeh.select.minRadius);
  const bool same = renderFreshAndCompare("--backend " + std::string(renderer.pipeline().backend().name()) +
                                              " --msaa " + std::to_string(options.msaa) + blur,
                                          extent,
                                          out / "fresh", out / "storm_last.png")
                        .same;
  // At the same size before and after: what the storm left behind.
  const bool flat = !kResidentMemoryMeaningful || rssAfter - rssBefore < 32 * 1024;
  std::printf("satdof resize-storm: %d sizes (1x1, %dx1..8, 1..8x%d, minimised among them), back to %dx%d "
              "(framebuffer %dx%d): DoF image %s a fresh start's; resident memory %s (%ld MiB at that size "
              "before the storm, %ld MiB after)\n",
              sizes, options.stormMaxSide, options.stormMaxSide, start.width, start.height, fb.width,
              fb.height, same ? "equal to" : "DIFFERENT from", flat ? "flat" : "GROWING",
              rssBefore / 1024, rssAfter / 1024);
  if (!same)
    std::fprintf(stderr, "satdof resize-storm: the frame after the storm differs from a fresh start's (%s, %s)\n",
                 (out / "storm_last.png").c_str(), (out / "fresh" / "frame_0001.png").c_str());
  if (!flat)
    std::fprintf(stderr, "satdof resize-storm: resident memory grew by %ld MiB over the storm\n",
                 (rssAfter - rssBefore) / 1024);
  return same && flat ? kExitOk : kExitFailure;
}

}  // namespace satdof
