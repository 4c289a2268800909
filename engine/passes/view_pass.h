// engine/passes/view_pass.h — what the user looks at besides the final image: the scene
// colour, the depth (normalised to the frame's nearest..farthest), the summed-area table
// (normalised by its total), the convolution's output, the final images of two pipeline
// configurations (engine/pipeline/pipeline_config.h) side by side with a divider or their amplified
// difference, or the final image with the focal plane tinted. What the
// shader measures (the largest difference, the depth range) is read back a frame later,
// never stalling.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/basic_types.h"
#include "engine/frame/frame_targets.h"
#include "engine/gl/handles.h"

namespace satdof {

// final: the DoF image; scene: the scene colour; depth: linear depth, normalised to the
// frame's near..far; sat: the summed-area table normalised by its total; filtered: A;
// split: configuration A's final image | B's; diff: |A - B| amplified; focus: the final
// image with the pixels near the focal plane tinted; holes: the depth view with the pixels
// that had no depth reading (a photo's holes, filled from around them) tinted magenta.
enum class ViewMode { Final, Scene, Depth, Holes, Sat, Filtered, Split, Difference, Focus };
const char* toString(ViewMode mode);
const char* describe(ViewMode mode);  // one line for the panel's tooltip
std::optional<ViewMode> viewModeFromName(const std::string& name);
// In display order.
const std::vector<ViewMode>& viewModes();
// The view that shows the convolution's output (it needs a filter).
bool showsFilterOutput(ViewMode mode);
// Split and diff: they show two configurations (the app runs B for them).
bool comparesConfigurations(ViewMode mode);
// The holes view's line (the panel, the image, a headless run's stdout): how many pixels had
// no depth reading, or that none had.
std::string describeHoles(std::size_t holes, float share);
// The difference view's line on the image: "max |A - B| = 3 grey levels (shown x85)".
std::string describeDifference(unsigned maxDifference, float gain);

struct ViewSettings {
  ViewMode mode = ViewMode::Final;
  float divider = 0.5f;  // split position, fraction of the width
  float gain = 16.0f;    // difference amplification (when not autoGain)
  bool autoGain = true;  // gain = 255 / the last frame's largest difference
};

// The images a view may show, this frame.
struct ViewInputs {
  // filtered: the convolution's output (the scene colour when not filtering); split, diff:
  // configuration A's final image and B's.
  GLuint a = 0, b = 0;
  float focalDistance = 0;
  // holes: an R8 image of the frame's size, non-zero where the content had no depth
  // reading (PhotoPass::holesImage); 0: none has (a drawn scene, a photo without holes).
  GLuint holes = 0;
};

struct DepthRange {
  float nearest = 0, farthest = 0;  // non-sky depths of the last finished depth view
};

class ViewPass {
 public:
  explicit ViewPass(const std::filesystem::path& shaderDir);
  // After every (re)allocation of the targets; recompiles when the SAT format changed.
  void attach(const Targets& targets);
  // Recompiles the shaders; on failure throws and keeps the current program.
  void reloadShaders(const std::filesystem::path& shaderDir);
  // Draws any mode but Final into output().
  void run(const ViewSettings& settings, const ViewInputs& inputs);

  GLuint outputTexture() const { return output_.get(); }
  GLuint framebuffer() const { return framebuffer_.get(); }
  // Largest per-channel difference of the last finished Difference frame.
  std::optional<unsigned> maxDifference() const { return maxDifference_; }
  std::optional<DepthRange> depthRange() const { return depthRange_; }
  // The gain the difference view used last (settings.gain, or the automatic one).
  float gainUsed() const { return gainUsed_; }
  // The band around the focal distance the focus view tints, in scene units.
  static float focusBand(float focalDistance) { return 0.05f * focalDistance; }
  // Reads whatever is still pending (at exit, so the summary has the last frame's value).
  void drain();

 private:
  struct Slot {
    gl::Buffer stats;  // Stats in view.frag: max difference, depth min, depth max
    bool pending = false;
    ViewMode mode = ViewMode::Final;
  };
  void collect(Slot& slot);

  std::filesystem::path shaderDir_;
  gl::Program program_;
  gl::VertexArray empty_;
  Targets targets_;
  gl::Texture output_;
  gl::Framebuffer framebuffer_;
  std::array<Slot, 2> slots_;  // ping-pong: write one, read the other a frame later
  int current_ = 0;
  std::optional<unsigned> maxDifference_;
  std::optional<DepthRange> depthRange_;
  float gainUsed_ = 1.0f;
};

}  // namespace satdof
