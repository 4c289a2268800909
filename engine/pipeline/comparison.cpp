// engine/pipeline/comparison.cpp — see comparison.h.
#include "engine/pipeline/comparison.h"

#include <cstdio>
#include <stdexcept>
#include <tuple>

namespace satdof {

void Comparison::reset() {
  b_.reset();
  problem_.clear();
  tried_.reset();
}

PipelineConfig Comparison::configB(const PipelineConfig& a) const { return b_ ? config_ : resolveCompare(a, fields); }

reference::Aperture Comparison::apertureB() const {
  const auto it = fields.find("aperture");
  if (it == fields.end()) return apertureA;
  return it->second == reference::apertureName(reference::Aperture::Disc) ? reference::Aperture::Disc
                                                                          : reference::Aperture::Box;
}

std::pair<std::string, std::string> Comparison::labels(const PipelineConfig& a, bool filtering) const {
  const PipelineConfig b = configB(a);
  std::string labelA = "A: " + compareLabel(a, b, filtering), labelB = "B: " + compareLabel(b, a, filtering);
  if (apertureB() != apertureA) {
    labelA += std::string(" \u00b7 ") + reference::apertureName(apertureA);
    labelB += std::string(" \u00b7 ") + reference::apertureName(apertureB());
  }
  return {labelA, labelB};
}

std::optional<std::string> Comparison::chooseDefaultB(const PipelineConfig& a) {
  if (!fields.empty()) return std::nullopt;
  const DofEntry* dofA = findDofImplementation(a.dof);
  const bool layeredA = dofA && dofA->fields != DofFields::None;
  const DofEntry* other = layeredA ? &defaultDofImplementation() : findDofImplementation("layered");
  if (!other) return std::nullopt;
  fields["dof"] = std::string(other->name);
  defaulted_ = fields;
  return "dof=" + std::string(other->name) + " (" + std::string(other->description) + ")";
}

CompareCaption Comparison::caption(const PipelineConfig& a, bool filtering, const std::string& bFilterProblem) const {
  CompareCaption c;
  std::tie(c.labelA, c.labelB) = labels(a, filtering);
  if (!defaulted_.empty() && fields == defaulted_)
    c.notes.push_back("B = A with dof=" + defaulted_.begin()->second +
                      ", the other DoF family (no B was set: --compare-b or the panel sets one)");
  if (!problem_.empty()) c.notes.push_back(problem_);
  if (filtering && !bFilterProblem.empty()) c.notes.push_back("B not filtering: " + bFilterProblem);
  return c;
}

void Comparison::build(const PipelineConfig& b, const Context& context, const std::filesystem::path& shaderDir,
                       Extent extent, const TableMemory& tables) {
  b_ = buildPipeline(b, context, shaderDir, extent, tables);
  config_ = b;
}

void Comparison::buildAsNamed(const Pipeline& a, const FilterSettings& filter, const Context& context,
                              const std::filesystem::path& shaderDir) {
  const PipelineConfig configA = a.config(filter.implementation);
  try {
    build(resolveCompare(configA, fields), context, shaderDir, a.extent(), a.tableMemory());
  } catch (const BackendUnavailable& e) {
    throw BackendUnavailable(std::string("--compare-b: ") + e.what());
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("--compare-b: ") + e.what());
  }
  const auto [labelA, labelB] = labels(configA, filter.enabled);
  std::printf("satdof: comparing %s with %s\n", labelA.c_str(), labelB.c_str());
}

void Comparison::update(bool comparing, const Pipeline& a, const std::string& aConv, float maxRadius,
                        const Context& context, const std::filesystem::path& shaderDir, bool filtering) {
  if (!comparing) {
    reset();
    return;
  }
  const Extent extent = a.extent();
  const PipelineConfig configA = a.config(aConv);
  const PipelineConfig b = resolveCompare(configA, fields);
  // A's max blur applies to B too: B's format must sum its boxes exactly (uint21x3).
  if (const SatFormatInfo* format = findSatFormat(b.satFormat))
    if (auto why = whyNotMaxBlur(*format, maxRadius)) {
      b_.reset();
      tried_.reset();
      problem_ = "B cannot run: " + *why;
      return;
    }
  if (b_ && config_ == b && b_->extent() == extent) return;
  if (tried_ && tried_->first == b && tried_->second == extent) return;  // refused already
  tried_.emplace(b, extent);
  try {
    if (b_ && config_ == b) {
      b_->reallocate(extent, b_->targets().satFormat);
    } else {
      b_.reset();  // the old B's memory first
      build(b, context, shaderDir, extent, a.tableMemory());
    }
    problem_.clear();
    tried_.reset();
    const auto [labelA, labelB] = labels(configA, filtering);
    std::printf("satdof: comparing %s with %s\n", labelA.c_str(), labelB.c_str());
  } catch (const std::exception& e) {
    b_.reset();
    problem_ = std::string("B cannot run: ") + e.what();
    std::fprintf(stderr, "satdof: %s\n", problem_.c_str());
  }
}

}  // namespace satdof
