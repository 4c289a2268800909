// engine/frame/filter_settings.h — what the user chose for the optional 2D convolution that
// runs between the scene and the SAT: filter, radius, border, and which implementation
// (A) filters the image the SAT is built from; optionally a second implementation (B)
// filters the same input for a side-by-side comparison.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "satdof/reference/conv.h"

namespace satdof {

struct FilterSettings {
  bool enabled = false;  // "none": the SAT is built from the scene colour
  FilterKind kind = FilterKind::Gaussian;
  int radius = 2;
  float sigma = 0.0f;                // Gaussian only; 0: defaultGaussianSigma(radius)
  std::vector<float> customWeights;  // FilterKind::Custom: (2r+1)^2 values, row-major
  Border border = Border::Clamp;
  std::string implementation;         // A (empty: the backend's default)
  std::string compareImplementation;  // B
  bool compare = false;

  // The filter these settings describe. Throws std::invalid_argument with a readable
  // message (bad radius, wrong number of custom weights, ...).
  Filter build() const;
  bool operator==(const FilterSettings&) const = default;
};

// Names accepted by --filter and shown in the UI, in display order.
const std::vector<std::string>& filterKindNames();
std::optional<FilterKind> filterKindFromName(const std::string& name);

// One filter implementation a backend offers (a CUDA variant, or a CPU reference).
struct FilterImplementation {
  std::string name;
  std::string description;
  std::optional<std::string> (*supports)(const Filter&) = nullptr;  // null: every filter
  std::optional<std::string> whyNot(const Filter& f) const {
    return supports ? supports(f) : std::nullopt;
  }
};

}  // namespace satdof
