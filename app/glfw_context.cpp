// app/glfw_context.cpp — an interactive window with a GL 4.5 core context.
#include <glad/gl.h>
// GLAD first: GLFW must not pull in the system GL header.
#include <GLFW/glfw3.h>

#include <stdexcept>
#include <string>

#include "engine/context/context.h"

namespace satdof {
namespace {

std::string lastGlfwError() {
  const char* text = nullptr;
  glfwGetError(&text);
  return text ? text : "unknown GLFW error";
}

class GlfwContext final : public Context {
 public:
  GlfwContext(Extent size, const std::string& title, bool vsync) {
    if (!glfwInit()) throw std::runtime_error("GLFW: " + lastGlfwError());
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(size.width, size.height, title.c_str(), nullptr, nullptr);
    if (!window_) {
      const std::string reason = lastGlfwError();
      glfwTerminate();
      throw std::runtime_error("GLFW: no OpenGL 4.5 core window: " + reason);
    }
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(vsync ? 1 : 0);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
      glfwDestroyWindow(window_);
      glfwTerminate();
      throw std::runtime_error("GLFW: loading OpenGL functions failed");
    }
    readGlStrings();
  }
  ~GlfwContext() override {
    glfwDestroyWindow(window_);
    glfwTerminate();
  }

  bool headless() const override { return false; }
  bool shouldClose() const override { return glfwWindowShouldClose(window_); }
  void pollEvents() override { glfwPollEvents(); }
  void swapBuffers() override { glfwSwapBuffers(window_); }
  Extent framebufferExtent() const override {
    Extent e;
    glfwGetFramebufferSize(window_, &e.width, &e.height);
    return e;
  }
  GLFWwindow* window() const override { return window_; }

 private:
  GLFWwindow* window_ = nullptr;
};

}  // namespace

std::unique_ptr<Context> createWindowContext(Extent size, const std::string& title, bool vsync) {
  return std::make_unique<GlfwContext>(size, title, vsync);
}

}  // namespace satdof
