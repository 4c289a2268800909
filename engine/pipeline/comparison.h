// engine/pipeline/comparison.h — configuration B of the split and difference views: the
// fields the user set for it (pipeline_config.h), the pipeline they make (the same type as
// A's), and why it is not running when it cannot. B is built, resized or rebuilt before a
// frame that compares, to match its fields and A; it is freed when no view compares. A
// refusal is kept until something changes, so a B that cannot run is not retried every
// frame.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/pipeline/pipeline.h"
#include "satdof/reference/coc.h"

namespace satdof {

// What the split and difference views say on the image, in the window (app/ui/overlay.cpp) and
// in the headless PNGs (image_text.h): the two configurations' labels, and under them why
// B does not run, or does not run the filter A runs (none while B runs as asked).
struct CompareCaption {
  std::string labelA, labelB;      // "A: ...", "B: ..."
  std::vector<std::string> notes;  // "B cannot run: ...", "B not filtering: ..."
};

class Comparison {
 public:
  CompareFields fields;  // configuration B: the fields set for it
  // A's blur shape (the frame's DoF setting, which the app sets before a frame and before
  // it asks for labels). B's is its "aperture" field, else A's: a DoF parameter, not a
  // pipeline choice, so B is not rebuilt for it; its DoF runs with apertureB().
  reference::Aperture apertureA = reference::Aperture::Box;
  reference::Aperture apertureB() const;

  // Before a frame: B as `fields` make it from `a` while `comparing`, else nothing.
  // `maxRadius`: A's max blur, which B's SAT format must sum exactly too.
  void update(bool comparing, const Pipeline& a, const std::string& aConv, float maxRadius, const Context& context,
              const std::filesystem::path& shaderDir, bool filtering);
  // Builds B now, as the command line asks for it: its failure is the run's (the caller
  // turns it into an exit code).
  void build(const PipelineConfig& b, const Context& context, const std::filesystem::path& shaderDir, Extent extent,
             const TableMemory& tables);
  // B from `fields` over `a` at its size, as the command line names it, said in one line:
  // its failure is the run's, "--compare-b: ..." (BackendUnavailable, or
  // std::invalid_argument for what the user asked).
  void buildAsNamed(const Pipeline& a, const FilterSettings& filter, const Context& context,
                    const std::filesystem::path& shaderDir);
  void reset();

  // No B was set (no fields): B becomes A but for the other depth-of-field family (the
  // layered DoF against a one-layer one, or the one-layer default against a layered A),
  // so that a comparison opened without a B shows a difference worth seeing; while B keeps
  // it the caption says so. Returns what B is then ("dof=layered"), or nullopt when
  // `fields` were set (they win).
  std::optional<std::string> chooseDefaultB(const PipelineConfig& a);

  Pipeline* pipeline() { return b_.get(); }
  const Pipeline* pipeline() const { return b_.get(); }
  // Why B is not running (empty: it is, or is not asked for).
  const std::string& problem() const { return problem_; }
  // B's configuration: as it runs, or as its fields would make it from A's (its conv is
  // the convolution B runs).
  PipelineConfig configB(const PipelineConfig& a) const;
  // The two configurations' labels: "A: ..." and "B: ...".
  std::pair<std::string, std::string> labels(const PipelineConfig& a, bool filtering) const;
  // The labels and notes on the image; `bFilterProblem`: why B's convolution did not run.
  CompareCaption caption(const PipelineConfig& a, bool filtering, const std::string& bFilterProblem) const;

 private:
  std::unique_ptr<Pipeline> b_;
  PipelineConfig config_;  // what b_ was built as (its fields resolved against A's then)
  std::string problem_;
  std::optional<std::pair<PipelineConfig, Extent>> tried_;  // what the problem is about
  CompareFields defaulted_;  // the fields chooseDefaultB gave B (empty: none)
};

}  // namespace satdof
