// engine/context/context.h — where the GL 4.5 core context comes from.
//
// Two implementations: a GLFW window (interactive) and headless EGL on the device
// platform (no display server needed; NVIDIA's EGL on a GPU machine, Mesa's llvmpipe
// elsewhere). Everything the app renders goes to its own framebuffers, so the rest of
// the app does not care which one it has; only presenting differs.
#pragma once

#include <memory>
#include <string>

#include "engine/basic_types.h"

struct GLFWwindow;

namespace satdof {

class Context {
 public:
  virtual ~Context() = default;
  virtual bool headless() const = 0;
  virtual bool shouldClose() const { return false; }
  virtual void pollEvents() {}
  virtual void swapBuffers() {}
  // Window framebuffer size (0x0 while minimised); headless contexts return {0, 0}.
  virtual Extent framebufferExtent() const { return {}; }
  virtual GLFWwindow* window() const { return nullptr; }

  // Read once the context is current and GL is loaded.
  std::string vendor, renderer, version;
  void readGlStrings();
  // GL rasterises on the CPU (Mesa's llvmpipe, softpipe, swrast; SwiftShader).
  bool softwareRenderer() const;
};

// Throws std::runtime_error with a one-line reason when no context can be made.
std::unique_ptr<Context> createHeadlessContext();
std::unique_ptr<Context> createWindowContext(Extent size, const std::string& title, bool vsync);

// True if a display server looks reachable (DISPLAY or WAYLAND_DISPLAY set).
bool displayAvailable();

}  // namespace satdof
