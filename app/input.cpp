// app/input.cpp — see input.h.
#include "app/input.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

namespace satdof {
namespace {

constexpr double kClickSlop = 3.0;     // pixels a click may move and still be a click
constexpr double kDividerGrab = 8.0;   // pixels either side of the divider that grab it

constexpr std::array<KeyBinding, 18> kBindings = {{
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
    {"1-9", "pick the backend's scan variant by its number in the panel"},
    {"P", "next scene preset (portrait, landscape, macro)"},
    {"D", "next depth-of-field implementation (of those this backend runs)"},
    {"V", "verify this frame against the CPU reference"},
    {"C", "compare configurations A and B: off, split, difference, off"},
    {"L", "the lesson: a scan, SAT or convolution step by step (Left / Right, Space plays)"},
    {"hover", "the panel shows the depth under the cursor"},
    {"drop a file", "show it: a glTF scene, or a photo with its depth map beside it (NAME_depth.png)"},
}};

// The name keyAction() knows for a GLFW key, or empty.
std::string_view keyName(int key) {
  static constexpr std::string_view kDigits[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
  switch (key) {
    case GLFW_KEY_F1: return "F1";
    case GLFW_KEY_F5: return "F5";
    case GLFW_KEY_F12: return "F12";
    case GLFW_KEY_ESCAPE: return "Esc";
    case GLFW_KEY_R: return "R";
    case GLFW_KEY_H: return "H";
    case GLFW_KEY_P: return "P";
    case GLFW_KEY_D: return "D";
    case GLFW_KEY_V: return "V";
    case GLFW_KEY_C: return "C";
    case GLFW_KEY_L: return "L";
    case GLFW_KEY_LEFT: return "Left";
    case GLFW_KEY_RIGHT: return "Right";
    case GLFW_KEY_SPACE: return "Space";
    default: return key >= GLFW_KEY_1 && key <= GLFW_KEY_9 ? kDigits[key - GLFW_KEY_1] : std::string_view{};
  }
}

// Adds a key's action to `a`; false when `a` already holds that action (the caller then
// starts the next set, so that a repeat within one frame still counts).
bool addKey(InputActions& a, const InputActions& key) {
  constexpr bool InputActions::*kFlags[] = {&InputActions::quit,          &InputActions::reset,
                                            &InputActions::screenshot,    &InputActions::toggleHelp,
                                            &InputActions::togglePanel,   &InputActions::reloadShaders,
                                            &InputActions::nextPreset,    &InputActions::verify,
                                            &InputActions::nextCompare,   &InputActions::nextDof,
                                            &InputActions::toggleLesson,  &InputActions::lessonPlay};
  for (auto flag : kFlags)
    if (key.*flag && a.*flag) return false;
  if ((key.scanVariant && a.scanVariant) || (key.lessonStep && a.lessonStep)) return false;
  for (auto flag : kFlags) a.*flag = a.*flag || key.*flag;
  if (key.scanVariant) a.scanVariant = key.scanVariant;
  if (key.lessonStep) a.lessonStep = key.lessonStep;
  return true;
}

InputController* owner(GLFWwindow* window) { return static_cast<InputController*>(glfwGetWindowUserPointer(window)); }

}  // namespace

std::span<const KeyBinding> keyBindings() { return kBindings; }

std::optional<InputActions> keyAction(std::string_view key) {
  InputActions a;
  if (key == "F1") a.toggleHelp = true;
  else if (key == "F5") a.reloadShaders = true;
  else if (key == "F12") a.screenshot = true;
  else if (key == "Esc") a.quit = true;
  else if (key == "R") a.reset = true;
  else if (key == "H") a.togglePanel = true;
  else if (key == "P") a.nextPreset = true;
  else if (key == "D") a.nextDof = true;
  else if (key == "V") a.verify = true;
  else if (key == "C") a.nextCompare = true;
  else if (key == "L") a.toggleLesson = true;
  else if (key == "Space") a.lessonPlay = true;
  else if (key == "Right") a.lessonStep = +1;
  else if (key == "Left") a.lessonStep = -1;
  else if (key.size() == 1 && key[0] >= '1' && key[0] <= '9') a.scanVariant = key[0] - '1';
  else return std::nullopt;
  return a;
}

InputController::InputController() {
  if (const char* delay = std::getenv("SATDOF_TEST_FRAME_DELAY_MS")) frameDelayMs_ = std::max(std::atoi(delay), 0);
}

InputController::~InputController() {
  if (!window_) return;
  // Put ImGui's callbacks back, unless someone replaced ours since (then leave theirs).
  if (auto mine = glfwSetKeyCallback(window_, prevKey_); mine != &onKey) glfwSetKeyCallback(window_, mine);
  if (auto mine = glfwSetMouseButtonCallback(window_, prevButton_); mine != &onButton)
    glfwSetMouseButtonCallback(window_, mine);
  if (auto mine = glfwSetCursorPosCallback(window_, prevCursor_); mine != &onCursor)
    glfwSetCursorPosCallback(window_, mine);
  if (auto mine = glfwSetScrollCallback(window_, prevScroll_); mine != &onScroll) glfwSetScrollCallback(window_, mine);
  if (auto mine = glfwSetDropCallback(window_, prevDrop_); mine != &onDrop) glfwSetDropCallback(window_, mine);
  if (owner(window_) == this) glfwSetWindowUserPointer(window_, nullptr);
}

void InputController::attach(GLFWwindow* window) {
  window_ = window;
  glfwSetWindowUserPointer(window, this);
  glfwGetCursorPos(window, &x_, &y_);
  prevKey_ = glfwSetKeyCallback(window, &onKey);
  prevButton_ = glfwSetMouseButtonCallback(window, &onButton);
  prevCursor_ = glfwSetCursorPosCallback(window, &onCursor);
  prevScroll_ = glfwSetScrollCallback(window, &onScroll);
  prevDrop_ = glfwSetDropCallback(window, &onDrop);
}

void InputController::onKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
  InputController* self = owner(window);
  if (!self) return;
  if (self->prevKey_) self->prevKey_(window, key, scancode, action, mods);
  if (action != GLFW_REPEAT) self->queue_.push_back({InputEvent::Kind::Key, key, action == GLFW_PRESS});
}

void InputController::onButton(GLFWwindow* window, int button, int action, int mods) {
  InputController* self = owner(window);
  if (!self) return;
  if (self->prevButton_) self->prevButton_(window, button, action, mods);
  self->queue_.push_back({InputEvent::Kind::Button, button, action == GLFW_PRESS});
}

void InputController::onCursor(GLFWwindow* window, double x, double y) {
  InputController* self = owner(window);
  if (!self) return;
  if (self->prevCursor_) self->prevCursor_(window, x, y);
  self->queue_.push_back({InputEvent::Kind::Cursor, 0, false, x, y});
}

void InputController::onScroll(GLFWwindow* window, double dx, double dy) {
  InputController* self = owner(window);
  if (!self) return;
  if (self->prevScroll_) self->prevScroll_(window, dx, dy);
  self->queue_.push_back({InputEvent::Kind::Scroll, 0, false, dx, dy});
}

void InputController::onDrop(GLFWwindow* window, int count, const char** paths) {
  InputController* self = owner(window);
  if (!self) return;
  if (self->prevDrop_) self->prevDrop_(window, count, paths);
  for (int i = 0; i < count; ++i) self->dropped_.emplace_back(paths[i]);
}

std::vector<InputActions> InputController::poll(GLFWwindow* window, const InputContext& c) {
  if (frameDelayMs_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(frameDelayMs_));
  if (window_ != window) attach(window);
  std::vector<InputActions> out(1);
  for (const InputEvent& e : queue_) apply(e, c, out);
  queue_.clear();
  out.back().dropped = std::move(dropped_);
  dropped_.clear();
  // The cursor's pixel, in every set (each one replaces the last one's hover).
  const bool inside = x_ >= 0 && y_ >= 0 && x_ < c.imageWidth && y_ < c.imageHeight;
  if (inside && !c.uiWantsMouse) {
    const Pixel hover{int(x_ * c.image.width / std::max(c.imageWidth, 1.0f)),
                      int(y_ * c.image.height / std::max(c.imageHeight, 1.0f))};
    for (InputActions& a : out) a.hover = hover;
  }
  return out;
}

void InputController::apply(const InputEvent& e, const InputContext& c, std::vector<InputActions>& out) {
  const double width = std::max(c.imageWidth, 1.0f), height = std::max(c.imageHeight, 1.0f);
  auto inside = [&] { return x_ >= 0 && y_ >= 0 && x_ < c.imageWidth && y_ < c.imageHeight; };
  switch (e.kind) {
    case InputEvent::Kind::Cursor: {
      InputActions& a = out.back();
      if (leftDown_ && pressOnImage_) {  // left drag: the divider, or an orbit once it moved
        moved_ = moved_ || std::hypot(e.x - pressX_, e.y - pressY_) > kClickSlop;
        if (draggingDivider_) a.divider = std::clamp(float(e.x / width), 0.0f, 1.0f);
        else if (moved_) a.orbitX += float(e.x - x_), a.orbitY += float(e.y - y_);
      }
      if (panButtons_ && !c.uiWantsMouse) a.panX += float(e.x - x_), a.panY += float(e.y - y_);
      x_ = e.x;
      y_ = e.y;
      break;
    }
    case InputEvent::Kind::Button:
      if (e.code == GLFW_MOUSE_BUTTON_LEFT && e.press) {
        leftDown_ = true;
        pressX_ = x_;
        pressY_ = y_;
        moved_ = false;
        pressOnImage_ = !c.uiWantsMouse && inside();
        draggingDivider_ = pressOnImage_ && c.splitView && std::abs(x_ - c.divider * width) < kDividerGrab;
      } else if (e.code == GLFW_MOUSE_BUTTON_LEFT) {
        if (leftDown_ && pressOnImage_ && !moved_ && !draggingDivider_) {  // a click: focus there
          if (out.back().focusClick) out.emplace_back();
          out.back().focusClick = Pixel{int(pressX_ * c.image.width / width), int(pressY_ * c.image.height / height)};
        }
        leftDown_ = draggingDivider_ = false;
      } else if (e.code == GLFW_MOUSE_BUTTON_RIGHT || e.code == GLFW_MOUSE_BUTTON_MIDDLE) {
        const int bit = e.code == GLFW_MOUSE_BUTTON_RIGHT ? 1 : 2;
        panButtons_ = e.press ? panButtons_ | bit : panButtons_ & ~bit;
      }
      break;
    case InputEvent::Kind::Scroll:
      if (!c.uiWantsMouse) out.back().zoom += float(e.y);
      break;
    case InputEvent::Kind::Key:  // on the press; not while a text field has the keyboard
      if (!e.press || c.uiWantsKeyboard) break;
      if (const auto key = keyAction(keyName(e.code)))
        if (!addKey(out.back(), *key)) addKey(out.emplace_back(), *key);
      break;
  }
}

}  // namespace satdof
