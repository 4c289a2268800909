// engine/renderer/shown_content.h — what the frame shows: a scene (built-in, or a glTF's
// with its stage of ground and lamps) drawn by the scene pass, or an RGB-D photo written by
// the photo pass; and the lines that say what it is. Content is replaced whole (a dropped
// file, the quality tool's scenes); a glTF's stage comes and goes with --stage.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/content/content.h"
#include "engine/passes/photo_pass.h"
#include "engine/passes/scene_pass.h"
#include "engine/scene/scene_state.h"

namespace satdof {

class ShownContent {
 public:
  // Says what is shown and its stage, one line each; `msaa`: the scene's samples per pixel.
  ShownContent(const std::filesystem::path& shaderDir, content::Content content, int msaa, content::StageMode stage);

  // After every (re)allocation of the targets, and to take new samples per pixel.
  void attach(const Targets& targets);
  void setSamples(int samples, const Targets& targets);
  void reloadShaders();
  // The scene drawn, or the photo written, into the targets' colour and depth.
  void run(Profiler& profiler);

  // Another scene (the quality tool's): no photo, no stage.
  void setScene(scene::Scene scene, const Targets& targets);
  // Other content (a dropped file), said in lines as at the start; its warnings on stderr.
  void setContent(content::Content content, const Targets& targets);
  // --stage switched: the stage added to or taken off a glTF's scene, said in one line;
  // returns the depths the focus may reach then (none when nothing changed).
  std::optional<content::DepthSpan> setStage(content::StageMode mode, const Targets& targets);

  scene::SceneState& scene() { return scene_; }
  const scene::SceneState& scene() const { return scene_; }
  ScenePass& scenePass() { return *scenePass_; }
  bool isPhoto() const { return photoPass_ != nullptr; }
  GLuint holesImage() const { return photoPass_ ? photoPass_->holesImage() : 0; }
  const std::vector<std::string>& summary() const { return summary_; }  // the panel's lines
  const std::string& stageNote() const { return stageNote_; }
  bool stageSwitchable() const { return stage_.has_value(); }

 private:
  void take(content::Content& content);  // its summary and stage, said
  void rebuildScenePass(const Targets& targets);

  std::filesystem::path shaderDir_;
  content::StageMode stageMode_{};
  scene::SceneState scene_;
  std::unique_ptr<ScenePass> scenePass_;
  std::unique_ptr<PhotoPass> photoPass_;  // instead of the scene pass while a photo is shown
  std::vector<std::string> summary_;
  std::optional<content::Stage> stage_;  // a glTF's stage; none for other content
  bool stageShown_ = false;              // whether scene_ holds it now
  std::string stageNote_;                // whether a stage is shown and why
};

}  // namespace satdof
