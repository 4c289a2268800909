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
//   L the lesson view (a scan, a SAT or a convolution step by step): Left / Right steps, Space plays
//   files dropped on the window: a glTF scene, or a photo (with its depth map beside it)
// The mouse is ignored while it is over the panel, the keys while ImGui has a text field.
//
// Every press, release, motion and wheel notch counts at any frame rate: GLFW's callbacks
// (chained to ImGui's, which the ImGui backend installs first) queue them as they come, and
// poll() drains the queue once a frame. A press and release between two frames is still a
// click; three taps of H in one frame are three toggles.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/context/context.h"
#include "engine/focus/focus_controller.h"

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
  bool nextDof = false;             // D: the next DoF implementation the backend runs
  bool toggleLesson = false;        // L: the lesson view on or off
  bool lessonPlay = false;          // Space: play or pause it
  int lessonStep = 0;               // Right +1, Left -1: its next or previous step
  std::optional<int> scanVariant;   // 0-based index from the number keys
  std::optional<Pixel> focusClick;  // image pixel of a click on the image
  std::optional<Pixel> hover;       // image pixel under the cursor (not over the panel)
  float orbitX = 0, orbitY = 0;     // pixels dragged
  float panX = 0, panY = 0;
  float zoom = 0;                   // wheel notches
  std::optional<float> divider;     // new split divider, fraction of the width
  std::vector<std::string> dropped;  // files dropped on the window (engine/content/content.h)
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

// What pressing `key` ("F1", "F5", "F12", "Esc", "R", "H", "P", "D", "V", "C", "1".."9") does, as the
// window would do it (the script's `key NAME`); nullopt for another name.
std::optional<InputActions> keyAction(std::string_view key);

// One window event as GLFW's callbacks report it.
struct InputEvent {
  enum class Kind { Key, Button, Cursor, Scroll } kind = Kind::Key;
  int code = 0;         // GLFW key or mouse button
  bool press = false;   // a press (key repeats are not queued), else a release
  double x = 0, y = 0;  // the cursor's window position, or the wheel's offsets
};

class InputController {
 public:
  InputController();  // reads SATDOF_TEST_FRAME_DELAY_MS (tests: a slow frame, in ms)
  ~InputController();
  InputController(const InputController&) = delete;
  InputController& operator=(const InputController&) = delete;

  // The actions of the events queued since the last call, in order: one set, or more
  // when an action repeats (each repeat starts the next set, so that none is lost). The
  // first call installs the callbacks on `window` (its GLFW user pointer points here).
  std::vector<InputActions> poll(GLFWwindow* window, const InputContext& context);

 private:
  void attach(GLFWwindow* window);
  void apply(const InputEvent& e, const InputContext& c, std::vector<InputActions>& out);
  static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void onButton(GLFWwindow* window, int button, int action, int mods);
  static void onCursor(GLFWwindow* window, double x, double y);
  static void onScroll(GLFWwindow* window, double dx, double dy);
  static void onDrop(GLFWwindow* window, int count, const char** paths);

  GLFWwindow* window_ = nullptr;
  void (*prevKey_)(GLFWwindow*, int, int, int, int) = nullptr;  // ImGui's, called first
  void (*prevButton_)(GLFWwindow*, int, int, int) = nullptr;
  void (*prevCursor_)(GLFWwindow*, double, double) = nullptr;
  void (*prevScroll_)(GLFWwindow*, double, double) = nullptr;
  void (*prevDrop_)(GLFWwindow*, int, const char**) = nullptr;
  std::vector<InputEvent> queue_;
  std::vector<std::string> dropped_;  // since the last poll
  int frameDelayMs_ = 0;
  double x_ = 0, y_ = 0;  // the cursor, as of the last event drained
  bool leftDown_ = false, draggingDivider_ = false, moved_ = false, pressOnImage_ = false;
  int panButtons_ = 0;    // right and middle buttons held (bits)
  double pressX_ = 0, pressY_ = 0;
};

}  // namespace satdof
