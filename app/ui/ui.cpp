// app/ui/ui.cpp — ImGui context lifetime, HiDPI scale, frame boundaries, and the panel's
// layout: docked to the right edge at the window's full height (the app renders the
// image into the rest of the window), resizable by its left edge, never wider than a third of the window (a narrow window gets a narrow panel
// whose rows put labels above their controls, and at a HiDPI scale a smaller font, down
// to 1x), scrolling only when its open sections do not fit. H hides it; its width and visibility are kept in the settings file.
#include "app/ui/ui.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace satdof {
namespace {
constexpr float kDefaultWidth = 330.0f;  // logical pixels, before the HiDPI scale
constexpr float kMinWidth = 160.0f;
}  // namespace

Ui::Ui(GLFWwindow* window, float scale) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the user's files
  ImGui::StyleColorsDark();
  // HiDPI: the content scale the window system asks for (1 on most screens, 2 on many
  // laptops), or --ui-scale; fonts and paddings grow together.
  float sx = 1.0f, sy = 1.0f;
  glfwGetWindowContentScale(window, &sx, &sy);
  scale_ = std::clamp(scale > 0 ? scale : std::max(sx, sy), 1.0f, 4.0f);
  ImGui::GetStyle().ScaleAllSizes(scale_);
  ImGui::GetIO().FontGlobalScale = scale_;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 450");
  widgets::checkLayout(&layout_);
}

Ui::~Ui() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void Ui::beginFrame() {
  layout_ = {};
  layout_.openAll = std::exchange(openAll_, std::nullopt);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

float Ui::panelWidthFor(float windowWidth) const {
  if (!panelShown) return 0.0f;
  const float maxWidth = std::max(std::floor(windowWidth / 3.0f), 1.0f);
  const float minWidth = std::min(kMinWidth * scale_, maxWidth);
  return std::clamp((panelWidth > 0 ? panelWidth : kDefaultWidth) * scale_, minWidth, maxWidth);
}

void Ui::drawPanel(UiState& state) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float maxWidth = std::max(std::floor(display.x / 3.0f), 1.0f);
  const float minWidth = std::min(kMinWidth * scale_, maxWidth);
  const float width = panelWidthFor(display.x);
  ImGui::SetNextWindowPos(ImVec2(display.x - width, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, display.y), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(minWidth, display.y), ImVec2(maxWidth, display.y));
  ImGui::Begin("SATDoF", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoTitleBar);
  // A drag on the left edge resized the window this frame: keep its new width.
  panelWidth = ImGui::GetWindowWidth() / scale_;
  // A HiDPI scale in a small window: the panel may not grow past a third, so its text
  // shrinks towards 1x (never below) until the narrowest panel's rows fit.
  ImGui::SetWindowFontScale(std::clamp(ImGui::GetWindowWidth() / kMinWidth, 1.0f, scale_) / scale_);
  panels::pipeline(state);
  panels::focus(state);
  panels::drawDofSection(state);
  panels::satTable(state);
  panels::bokeh(state);
  panels::view(state);
  panels::compare(state);
  panels::convolution(state);
  panels::scene(state);
  panels::timings(state);
  panels::race(state);
  ImGui::End();
}

void Ui::draw(UiState& state) {
  state.lesson = &lesson;
  if (panelShown) drawPanel(state);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  panels::imageLabels(state, display.x - panelWidthFor(display.x));
  panels::scanNote(state);
  lesson.draw(display.x - panelWidthFor(display.x));
  if (helpShown) panels::helpOverlay();
}

void Ui::endFrame() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool Ui::wantsMouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool Ui::wantsKeyboard() const { return ImGui::GetIO().WantTextInput; }

std::map<std::string, std::string> Ui::saveState() const {
  if (panelWidth <= 0) return {};  // never shown: nothing chosen
  return {{"panel-width", std::to_string(int(panelWidth))}};
}

void Ui::loadState(const std::map<std::string, std::string>& values) {
  if (auto it = values.find("panel-width"); it != values.end()) {
    char* end = nullptr;
    const float w = std::strtof(it->second.c_str(), &end);
    if (end && *end == 0 && w >= kMinWidth && w <= 4000) panelWidth = w;
  }
}

}  // namespace satdof
