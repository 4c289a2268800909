// engine/renderer/shown_content.cpp — see shown_content.h.
#include "engine/renderer/shown_content.h"

#include <glad/gl.h>

#include <cstdio>

namespace satdof {

ShownContent::ShownContent(const std::filesystem::path& shaderDir, content::Content content, int msaa,
                           content::StageMode stage)
    : shaderDir_(shaderDir),
      stageMode_(stage),
      scene_(content.scene ? std::move(*content.scene) : scene::Scene{}) {
  take(content);
  for (const std::string& w : content.warnings) summary_.push_back("warning: " + w);  // (main printed them)
  scenePass_ = std::make_unique<ScenePass>(shaderDir_, scene_.scene);
  scenePass_->setSamples(msaa);
  if (content.photo) photoPass_ = std::make_unique<PhotoPass>(shaderDir_, *content.photo);
}

void ShownContent::take(content::Content& c) {
  summary_ = c.summary;
  std::string line;
  for (const std::string& s : summary_) line += (line.empty() ? "" : "; ") + s;
  std::printf("satdof: showing %s\n", line.c_str());
  stage_ = std::move(c.stage);
  stageShown_ = c.stageShown;
  stageNote_ = c.stageNote;
  std::printf("satdof: stage: %s\n", stageNote_.c_str());
}

void ShownContent::attach(const Targets& targets) {
  scenePass_->attach(targets);
  if (photoPass_) photoPass_->attach(targets);
}

void ShownContent::setSamples(int samples, const Targets& targets) {
  scenePass_->setSamples(samples);
  scenePass_->attach(targets);
}

void ShownContent::reloadShaders() {
  scenePass_->reloadShaders(shaderDir_);
  if (photoPass_) photoPass_->reloadShaders(shaderDir_);
}

void ShownContent::run(Profiler& profiler) {
  if (photoPass_) photoPass_->run(profiler);
  else scenePass_->run(scene_.scene, profiler);
}

void ShownContent::rebuildScenePass(const Targets& targets) {
  const int samples = scenePass_->samples();
  scenePass_ = std::make_unique<ScenePass>(shaderDir_, scene_.scene);
  scenePass_->setSamples(samples);
  scenePass_->attach(targets);
}

void ShownContent::setScene(scene::Scene scene, const Targets& targets) {
  scene_ = scene::SceneState(std::move(scene));
  rebuildScenePass(targets);
  photoPass_.reset();
  stage_.reset();  // a scene from elsewhere (the quality tool's) has no stage to switch
  stageShown_ = false;
}

void ShownContent::setContent(content::Content c, const Targets& targets) {
  glFinish();  // the passes' GL objects may still be in use by the frame before
  std::unique_ptr<PhotoPass> photo = c.photo ? std::make_unique<PhotoPass>(shaderDir_, *c.photo) : nullptr;
  setScene(c.scene ? std::move(*c.scene) : scene::Scene{}, targets);
  photoPass_ = std::move(photo);
  if (photoPass_) photoPass_->attach(targets);
  take(c);
}

std::optional<content::DepthSpan> ShownContent::setStage(content::StageMode mode, const Targets& targets) {
  if (mode == stageMode_) return std::nullopt;
  stageMode_ = mode;
  if (!stage_) return std::nullopt;  // a built-in scene or a photo: none whatever the setting (stageNote_ says why)
  std::optional<content::DepthSpan> reach;
  const bool wanted = content::stageWanted(mode, stage_->rule);
  if (wanted != stageShown_) {
    glFinish();  // the scene pass's buffers may still be in use by the frame before
    if (wanted) content::addStage(scene_.scene, *stage_);
    else content::removeStage(scene_.scene, *stage_);
    scene_.instancesChanged();
    scene_.startCamera.farPlane = scene_.scene.camera.farPlane;  // R keeps seeing all of it
    stageShown_ = wanted;
    rebuildScenePass(targets);
    reach = wanted ? stage_->stagedSpan : stage_->bareSpan;
  }
  stageNote_ = content::stageNote(mode, *stage_, stageShown_);
  std::printf("satdof: stage: %s\n", stageNote_.c_str());
  return reach;
}

}  // namespace satdof
