// engine/renderer/renderer.h — one frame without a window: the content shown (a scene or a
// photo, and a glTF's stage), the passes that are no configuration's (scene, photo, view,
// depth probe), configuration A's pipeline and B's while a view compares, and the settings
// every frame reads. It runs frames:
//   scene (GL, into A's targets) -> A: filter + SAT + DoF + bokeh -> [B: the same on a copy
//   of A's scene] -> view (the other images, A | B, |A - B|).
// Each stage opens named profiler sections. A backend that fails at an attach or mid-frame
// is replaced by the next in `auto`'s order (backend_fallback.h), said in one line.
//
// The window (app/app.h) and the tools (qa/tools.h: quality, precision, soak, race) drive
// frames through this interface: render these settings, give me the image and the timings.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/content/content.h"
#include "engine/context/context.h"
#include "engine/passes/depth_probe.h"
#include "engine/passes/view_pass.h"
#include "engine/pipeline/comparison.h"
#include "engine/pipeline/pipeline.h"
#include "engine/renderer/backend_fallback.h"
#include "engine/renderer/frame_settings.h"
#include "engine/renderer/shown_content.h"

namespace satdof {

class Renderer {
 public:
  // Says what is shown, its stage and the focus, one line each. Throws std::invalid_argument
  // for a filter the backend cannot run.
  Renderer(Context& context, BackendChoice backend, const RendererSetup& setup, content::Content content,
           const FrameSettings& settings);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // ---- The frame.
  // One frame into the targets (allocated by resize); `probes`: pixels whose depth is read
  // back a frame later (takeDepths). A backend that breaks mid-frame is replaced and the
  // frame rendered again; throws when none is left.
  void renderFrame(const std::vector<Pixel>& probes = {});
  void endFrame();        // the profilers' frame (A's and B's) after a rendered frame
  void drainProfilers();  // at the end of a run: every section still in flight
  // The host's time from one frame's start to the next (the one section no stage opens).
  static constexpr std::string_view kFrameSection = "frame";
  void addFrameTime(float ms);
  std::vector<DepthProbe::Reading> takeDepths() { return depthProbe_->take(); }
  GLuint shownFramebuffer() const;  // the DoF output or the view pass's
  // The frame's SAT source image and depth, read back (after renderFrame).
  std::pair<reference::ImageRgba8, reference::ImageR32F> readBackColourAndDepth();
  reference::ImageRgba8 readShown();  // what the view shows, read back
  // The DoF and bokeh settings as this frame renders them: blur sizes are the window's
  // pixels, so a frame rendered smaller (--render-scale) blurs as many fewer of its own and
  // looks the same.
  struct BlurSettings {
    DofSettings dof;
    BokehSettings bokeh;
  };
  BlurSettings frameBlur() const;
  void setBlurScale(float scale) { blurScale_ = scale; }

  // ---- Configuration A and what shows it.
  Context& context() { return context_; }
  Pipeline& pipeline() { return *pipeline_; }
  const Pipeline& pipeline() const { return *pipeline_; }
  Comparison& comparison() { return comparison_; }
  const Comparison& comparison() const { return comparison_; }
  FrameSettings& settings() { return settings_; }
  const FrameSettings& settings() const { return settings_; }
  ViewPass& viewPass() { return *viewPass_; }
  const ViewPass& viewPass() const { return *viewPass_; }
  Extent extent() const { return pipeline_->extent(); }
  const std::filesystem::path& shaderDir() const { return shaderDir_; }
  // The first targets, at `extent`, with the SAT tables where `satMemory` says (said where
  // it matters or `verbose`); B built now when the user named it, its failure the run's.
  // Throws std::invalid_argument for what the user asked and this GL cannot serve.
  void start(Extent extent, const std::string& satMemory, bool verbose);
  void resize(Extent extent);
  // Refused with a line in shaderError(); whether the format changed.
  bool setSatFormat(const std::string& name);
  void setDof(const DofEntry& entry);
  // The panel's choices of DoF implementation and backend options.
  void applyChoices(const std::string& dof, const BackendSelections& selections);
  void setMsaa(int samples) { shown_.setSamples(samples, pipeline_->targets()); }
  // F5: every pass's programs again; keeps the old ones and returns the error on failure.
  std::optional<std::string> reloadShaders();
  // Holds the max blur within the SAT format's exact box sums, saying so on stdout (and in
  // maxBlurNote()) when it lowers it.
  void limitMaxBlurToSatFormat();
  int backendSwitches() const { return fallback_.switches(); }
  const std::string& shaderError() const { return shaderError_; }
  const std::string& maxBlurNote() const { return maxBlurNote_; }
  // Whether A's or B's DoF reads the second layer; why a see-through DoF runs as layered
  // (a photo), or empty.
  bool secondLayerWanted() const;
  std::string oneLayerNote() const;

  // ---- The content shown (shown_content.h).
  ShownContent& shown() { return shown_; }
  const ShownContent& shown() const { return shown_; }
  scene::SceneState& scene() { return shown_.scene(); }
  ScenePass& scenePass() { return shown_.scenePass(); }
  bool showsPhoto() const { return shown_.isPhoto(); }
  void setScene(scene::Scene scene) { shown_.setScene(std::move(scene), pipeline_->targets()); }
  // Other content (a dropped file): its focus and focal range too, and its warnings said.
  void setContent(content::Content content);
  void sayFocus() const;  // "satdof: focus at ..., focal range ..."
  // --stage switched (shown_content.h): the depths the focus may reach then, when they changed.
  std::optional<content::DepthSpan> setStage(content::StageMode mode) {
    return shown_.setStage(mode, pipeline_->targets());
  }

 private:
  void reallocate(Extent extent, SatFormat format);
  void renderOnce(const std::vector<Pixel>& probes);
  // The scene's second layer for the DoF, drawn once a frame for a see-through DoF
  // (none for a photo, or a DoF that does not use it).
  SecondLayerImages secondLayerFor(Pipeline& p, const DofSettings& dof);

  Context& context_;
  std::filesystem::path shaderDir_;
  BackendFallback fallback_;
  bool compareChosen_ = false;
  bool compareDefaultDone_ = false;  // B's default was considered (the first comparing frame)
  float blurScale_ = 1.0f;
  SatFormat startFormat_{};  // the targets' format until start() allocates them
  FrameSettings settings_;
  ShownContent shown_;
  std::unique_ptr<Pipeline> pipeline_;  // configuration A
  Comparison comparison_;               // configuration B, while a view compares
  std::unique_ptr<ViewPass> viewPass_;
  std::unique_ptr<DepthProbe> depthProbe_;
  std::string shaderError_;  // the last reload's (or format switch's) error
  std::string maxBlurNote_;  // why the max blur was lowered (empty: it was not)
};

}  // namespace satdof
