// app/input.cpp — see input.h.
#include "input.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace satdof {
namespace {

constexpr double kClickSlop = 3.0;     // pixels a click may move and still be a click
constexpr double kDividerGrab = 8.0;   // pixels either side of the divider that grab it

constexpr std::array<KeyBinding, 15> kBindings = {{
    {"left drag", "orbit the camera (on the split divider: move it)"},
    {"left click", "focus at that pixel's depth (a 0.3 s pull)"},
    {"right or middle drag", "pan the camera"},
    {"wheel", "zoom"},
    {"F1", "show or hide this help"},
    {"F5", "reload the shaders"},
    {"F12", "screenshot: PNG + settings beside it"},
    {"Esc", "quit"},
    {"R", "reset the camera and the settings"},
    {"H", "hide or show the panel"},
    {"1-9", "pick the scan variant (by its place in the list)"},
    {"P", "next scene preset (portrait, landscape, macro)"},
    {"V", "verify this frame against the CPU reference"},
    {"C", "compare configurations A and B: off, split, difference, off"},
    {"hover", "the panel shows the depth under the cursor"},
}};

// Index into down_ for each edge-triggered key.
enum KeySlot { kF1, kF5, kF12, kEsc, kR, kH, kP, kV, kC, kDigits, kSlots = kDigits + 9 };

}  // namespace

std::span<const KeyBinding> keyBindings() { return kBindings; }

static_assert(kSlots <= 32, "InputController::kKeys holds every KeySlot");

std::optional<InputActions> keyAction(std::string_view key) {
  InputActions a;
  if (key == "F1") a.toggleHelp = true;
  else if (key == "F5") a.reloadShaders = true;
  else if (key == "F12") a.screenshot = true;
  else if (key == "Esc") a.quit = true;
  else if (key == "R") a.reset = true;
  else if (key == "H") a.togglePanel = true;
  else if (key == "P") a.nextPreset = true;
  else if (key == "V") a.verify = true;
  else if (key == "C") a.nextCompare = true;
  else if (key.size() == 1 && key[0] >= '1' && key[0] <= '9') a.scanVariant = key[0] - '1';
  else return std::nullopt;
  return a;
}

bool InputController::pressed(GLFWwindow* window, int key, int index) {
  const bool now = glfwGetKey(window, key) == GLFW_PRESS;
  const bool edge = now && !down_[index];
  down_[index] = now;
  return edge;
}

InputActions InputController::poll(GLFWwindow* window, const InputContext& c, float wheel) {
  InputActions a;
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  const double width = std::max(c.imageWidth, 1.0f), height = std::max(c.imageHeight, 1.0f);
  auto toImage = [&](double wx, double wy) {
    return Pixel{int(wx * c.image.width / width), int(wy * c.image.height / height)};
  };
  const bool inside = x >= 0 && y >= 0 && x < c.imageWidth && y < c.imageHeight;

  // Left button: orbit, divider drag, or a click (press and release without moving).
  const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  if (left && !leftDown_) {  // pressed this frame
    pressX_ = x;
    pressY_ = y;
    moved_ = false;
    pressOnImage_ = !c.uiWantsMouse && inside;
    draggingDivider_ = pressOnImage_ && c.splitView && std::abs(x - c.divider * width) < kDividerGrab;
  }
  if (left && pressOnImage_) {
    moved_ = moved_ || std::hypot(x - pressX_, y - pressY_) > kClickSlop;
    if (draggingDivider_) {
      a.divider = std::clamp(float(x / width), 0.0f, 1.0f);
    } else if (moved_) {
      a.orbitX = float(x - lastX_);
      a.orbitY = float(y - lastY_);
    }
  }
  if (!left && leftDown_ && pressOnImage_ && !moved_ && !draggingDivider_) a.focusClick = toImage(pressX_, pressY_);
  if (!left) draggingDivider_ = false;
  leftDown_ = left;

  if (!c.uiWantsMouse) {
    const bool pan = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                     glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
    if (pan) {
      a.panX = float(x - lastX_);
      a.panY = float(y - lastY_);
    }
    a.zoom = wheel;
    if (inside) a.hover = toImage(x, y);
  }
  lastX_ = x;
  lastY_ = y;

  // Keys: edge-triggered, and not while a text field has the keyboard.
  const bool keys = !c.uiWantsKeyboard;
  a.toggleHelp = pressed(window, GLFW_KEY_F1, kF1) && keys;
  a.reloadShaders = pressed(window, GLFW_KEY_F5, kF5) && keys;
  a.screenshot = pressed(window, GLFW_KEY_F12, kF12) && keys;
  a.quit = pressed(window, GLFW_KEY_ESCAPE, kEsc) && keys;
  a.reset = pressed(window, GLFW_KEY_R, kR) && keys;
  a.togglePanel = pressed(window, GLFW_KEY_H, kH) && keys;
  a.nextPreset = pressed(window, GLFW_KEY_P, kP) && keys;
  a.verify = pressed(window, GLFW_KEY_V, kV) && keys;
  a.nextCompare = pressed(window, GLFW_KEY_C, kC) && keys;
  for (int d = 1; d <= 9; ++d)
    if (pressed(window, GLFW_KEY_0 + d, kDigits + d - 1) && keys) a.scanVariant = d - 1;
  return a;
}

}  // namespace satdof
