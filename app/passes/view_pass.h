// app/passes/view_pass.h — what the user looks at besides the final image: one
// convolution output, two side by side with a divider, or their amplified difference
// with the largest difference in the image (read back a frame later, no stall).
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>

#include "context/context.h"
#include "gl/handles.h"

namespace satdof {

enum class ViewMode { Final, Filtered, Split, Difference };
const char* toString(ViewMode mode);
std::optional<ViewMode> viewModeFromName(const std::string& name);

struct ViewSettings {
  ViewMode mode = ViewMode::Final;
  float divider = 0.5f;  // split position, fraction of the width
  float gain = 16.0f;    // difference amplification
};

class ViewPass {
 public:
  explicit ViewPass(const std::filesystem::path& shaderDir);
  void resize(Extent extent);
  // Recompiles the shaders; on failure throws and keeps the current program.
  void reloadShaders(const std::filesystem::path& shaderDir);
  // Draws mode Filtered / Split / Difference of images a and b into output().
  void run(const ViewSettings& settings, GLuint a, GLuint b);

  GLuint outputTexture() const { return output_.get(); }
  GLuint framebuffer() const { return framebuffer_.get(); }
  // Largest per-channel difference of the last finished Difference frame.
  std::optional<unsigned> maxDifference() const { return maxDifference_; }
  // Reads whatever is still pending (at exit, so the summary has the last frame's value).
  void drain();

 private:
  gl::Program program_;
  gl::VertexArray empty_;
  Extent extent_;
  gl::Texture output_;
  gl::Framebuffer framebuffer_;
  std::array<gl::Buffer, 2> maxBuffers_;  // ping-pong: write one, read the other
  int current_ = 0;
  bool pending_[2] = {false, false};
  std::optional<unsigned> maxDifference_;
};

}  // namespace satdof
