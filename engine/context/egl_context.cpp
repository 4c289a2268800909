// engine/context/egl_context.cpp — headless GL 4.5 core through EGL's device platform.
//
// gladLoaderLoadEGL(nullptr) -> eglQueryDevicesEXT -> eglGetPlatformDisplayEXT(DEVICE)
// -> eglInitialize -> reload EGL for the display -> pbuffer config -> bind GL -> context.
// With several devices, the one whose EGL vendor is NVIDIA wins (CUDA interop needs the
// GL context on the NVIDIA GPU); otherwise the first that initialises (e.g. llvmpipe).
#include <glad/egl.h>
#include <glad/gl.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/context/context.h"

namespace satdof {
namespace {

class EglContext final : public Context {
 public:
  EglContext() {
    if (!gladLoaderLoadEGL(nullptr)) throw std::runtime_error("EGL: libEGL could not be loaded");
    // GLAD only loads extension entry points whose extension it saw; glvnd may list the
    // vendors' client extensions late, so fetch the two device-platform entry points here.
    if (!eglQueryDevicesEXT)
      eglQueryDevicesEXT = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    if (!eglGetPlatformDisplayEXT)
      eglGetPlatformDisplayEXT =
          reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT) {
      const char* ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
      throw std::runtime_error(std::string("EGL: no device platform (client extensions: ") +
                               (ext ? ext : "none") + ")");
    }

    EGLint count = 0;
    eglQueryDevicesEXT(0, nullptr, &count);
    std::vector<EGLDeviceEXT> devices(std::size_t(count > 0 ? count : 0));
    if (count > 0) eglQueryDevicesEXT(count, devices.data(), &count);
    if (count <= 0) throw std::runtime_error("EGL: no EGL device found");

    // Initialise each device's display; keep the NVIDIA one if there is one.
    for (EGLDeviceEXT device : devices) {
      EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
      EGLint major = 0, minor = 0;
      if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor)) continue;
      const char* v = eglQueryString(d, EGL_VENDOR);
      const bool nvidia = v && std::string(v).find("NVIDIA") != std::string::npos;
      if (display_ == EGL_NO_DISPLAY || (nvidia && !nvidiaDisplay_)) {
        if (display_ != EGL_NO_DISPLAY) eglTerminate(display_);
        display_ = d;
        nvidiaDisplay_ = nvidia;
      } else {
        eglTerminate(d);
      }
    }
    if (display_ == EGL_NO_DISPLAY) throw std::runtime_error("EGL: no device could be initialised");
    if (!gladLoaderLoadEGL(display_)) throw std::runtime_error("EGL: reloading for the display failed");

    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                    EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                    EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!eglChooseConfig(display_, configAttribs, &config, 1, &configs) || configs < 1)
      throw std::runtime_error("EGL: no pbuffer config with OpenGL support");
    const EGLint pbufferAttribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surface_ = eglCreatePbufferSurface(display_, config, pbufferAttribs);
    if (surface_ == EGL_NO_SURFACE) throw std::runtime_error("EGL: pbuffer creation failed");
    if (!eglBindAPI(EGL_OPENGL_API)) throw std::runtime_error("EGL: OpenGL API not available");
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                     EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, contextAttribs);
    if (context_ == EGL_NO_CONTEXT)
      throw std::runtime_error("EGL: this device offers no OpenGL 4.5 core context");
    if (!eglMakeCurrent(display_, surface_, surface_, context_))
      throw std::runtime_error("EGL: eglMakeCurrent failed");
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)))
      throw std::runtime_error("EGL: loading OpenGL functions failed");
    readGlStrings();
  }

  ~EglContext() override {
    if (display_ == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
    eglTerminate(display_);
  }

  bool headless() const override { return true; }

 private:
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLContext context_ = EGL_NO_CONTEXT;
  bool nvidiaDisplay_ = false;
};

}  // namespace

void Context::readGlStrings() {
  auto str = [](GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return std::string(s ? s : "?");
  };
  vendor = str(GL_VENDOR);
  renderer = str(GL_RENDERER);
  version = str(GL_VERSION);
}

bool Context::softwareRenderer() const {
  for (const char* software : {"llvmpipe", "softpipe", "SwiftShader", "swrast"})
    if (renderer.find(software) != std::string::npos) return true;
  return false;
}

std::unique_ptr<Context> createHeadlessContext() { return std::make_unique<EglContext>(); }

bool displayAvailable() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

}  // namespace satdof
