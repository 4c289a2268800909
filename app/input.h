// app/input.h — the window's keys and mouse, turned into actions the app carries out.
// The bindings are data (keyBindings()), listed by the F1 help overlay and the README.
//
//   left drag       orbit (in the split view, a drag that starts on the divider moves it)
//   left click      focus at that pixel (a press and release that barely moved)
//   right / middle drag   pan
//   wheel           zoom
//   F1 help, F5 reload shaders, F12 screenshot, Esc quit, R reset, H hide the panel,
//   1-9 scan variant, P next scene preset, V verify against the CPU reference,
//   C compare configurations A and B: off -> split -> difference -> off
// The mouse is ignored while it is over the panel, the keys while ImGui has a text field.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "context/context.h"
#include "focus_controller.h"

struct GLFWwindow;

namespace satdof {

struct KeyBinding {
  std::string_view keys;    // "F12", "left drag"
  std::string_view action;  // one line
};
std::span<const KeyBinding> keyBindings();

struct InputActions {
  bool quit = false, reset = false, screenshot = false, toggleHelp = false, togglePanel = false;
  bool reloadShaders = false, nextPreset = false, verify = false;
  bool nextCompare = false;         // C: off -> split -> diff -> off
  std::optional<int> scanVariant;   // 0-based index from the number keys
  std::optional<Pixel> focusClick;  // image pixel of a click on the image
  std::optional<Pixel> hover;       // image pixel under the cursor (not over the panel)
  float orbitX = 0, orbitY = 0;     // pixels dragged
  float panX = 0, panY = 0;
  float zoom = 0;                   // wheel notches
  std::optional<float> divider;     // new split divider, fraction of the width
};

// What the input needs to know about the frame it is read for.
struct InputContext {
  bool uiWantsMouse = false, uiWantsKeyboard = false;
  bool splitView = false;
  float divider = 0.5f;
  Extent image;             // the rendered image, in its pixels
  float imageWidth = 0;     // the part of the window it covers, from the left edge, in
  float imageHeight = 0;    // window coordinates (the docked panel has the rest)
};

// What pressing `key` ("F1", "F5", "F12", "Esc", "R", "H", "P", "V", "C", "1".."9") does, as the
// window would do it (the script's `key NAME`); nullopt for another name.
std::optional<InputActions> keyAction(std::string_view key);

class InputController {
 public:
  // Reads the window's state once per frame; the wheel comes from ImGui's IO.
  InputActions poll(GLFWwindow* window, const InputContext& context, float wheel);

 private:
  bool pressed(GLFWwindow* window, int key, int index);  // true on the frame a key goes down
  static constexpr int kKeys = 32;  // room for every edge-triggered key (input.cpp's KeySlot)
  bool down_[kKeys] = {};
  double lastX_ = 0, lastY_ = 0;
  bool leftDown_ = false, draggingDivider_ = false, moved_ = false;
  double pressX_ = 0, pressY_ = 0;
  bool pressOnImage_ = false;
};

}  // namespace satdof
