// app/ui/ui.cpp — ImGui context lifetime and frame boundaries.
#include "ui/ui.h"

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

namespace satdof {

Ui::Ui(GLFWwindow* window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the user's files
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 450");
}

Ui::~Ui() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void Ui::beginFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void Ui::draw(UiState& state) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(false, ImGuiCond_FirstUseEver);
  ImGui::Begin("SATDoF");
  panels::pipeline(state);
  panels::depthOfField(state);
  panels::satTable(state);
  panels::bokeh(state);
  panels::convolution(state);
  panels::view(state);
  panels::timings(state);
  ImGui::End();
}

void Ui::endFrame() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool Ui::wantsMouse() const { return ImGui::GetIO().WantCaptureMouse; }

}  // namespace satdof
