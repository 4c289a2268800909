// engine/frame/filter_settings.cpp — see filter_settings.h.
#include "engine/frame/filter_settings.h"

#include <stdexcept>

namespace satdof {

Filter FilterSettings::build() const {
  switch (kind) {
    case FilterKind::Box: return box(radius);
    case FilterKind::Gaussian: return gaussian(radius, sigma > 0 ? sigma : defaultGaussianSigma(radius));
    case FilterKind::Sharpen: return sharpen(radius);
    case FilterKind::Laplacian: return laplacian(radius);
    case FilterKind::Emboss: return emboss(radius);
    case FilterKind::Identity: return identity(radius);
    case FilterKind::Custom: return custom(radius, customWeights);
  }
  throw std::invalid_argument("unknown filter kind");
}

const std::vector<std::string>& filterKindNames() {
  static const std::vector<std::string> names = {"box", "gaussian", "sharpen", "laplacian",
                                                 "emboss", "identity", "custom"};
  return names;
}

std::optional<FilterKind> filterKindFromName(const std::string& name) {
  for (FilterKind k : {FilterKind::Box, FilterKind::Gaussian, FilterKind::Sharpen, FilterKind::Laplacian,
                       FilterKind::Emboss, FilterKind::Identity, FilterKind::Custom})
    if (toString(k) == name) return k;
  return std::nullopt;
}

}  // namespace satdof
