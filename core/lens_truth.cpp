// The accumulation-buffer truth's CPU parts (see satdof/reference/lens_truth.h).
#include "satdof/reference/lens_truth.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace satdof::reference {
namespace {

double radicalInverse(std::size_t i, unsigned base) {
  double result = 0, scale = 1.0 / base;
  for (; i > 0; i /= base, scale /= base) result += double(i % base) * scale;
  return result;
}

const std::array<double, 256>& gammaDecodeTable() {
  static const std::array<double, 256> table = [] {
    std::array<double, 256> t{};
    for (int b = 0; b < 256; ++b) t[std::size_t(b)] = std::pow(b / 255.0, kSceneGamma);
    return t;
  }();
  return table;
}

}  // namespace

AperturePoint aperturePoint(std::size_t i, ApertureShape shape) {
  // Index 0 of Halton is the corner (0, 0); start at 1 so the sequence has no point on
  // the rim by construction.
  const double u = 2.0 * radicalInverse(i + 1, 2) - 1.0, v = 2.0 * radicalInverse(i + 1, 3) - 1.0;
  if (shape == ApertureShape::Square) return {float(u), float(v)};
  // Shirley's concentric map of the square [-1, 1]^2 onto the unit disc.
  if (u == 0 && v == 0) return {0, 0};
  constexpr double kQuarterPi = std::numbers::pi / 4;
  double r, phi;
  if (std::abs(u) > std::abs(v)) {
    r = u;
    phi = kQuarterPi * (v / u);
  } else {
    r = v;
    phi = 2 * kQuarterPi - kQuarterPi * (u / v);
  }
  return {float(r * std::cos(phi)), float(r * std::sin(phi))};
}

std::optional<double> lensApertureRadius(const DofParams& params, int imageWidth, double pixelsPerUnitAtFocus) {
  if (params.model != CocModel::ThinLens || !(pixelsPerUnitAtFocus > 0)) return std::nullopt;
  return double(cocRamp(params, imageWidth).a) / pixelsPerUnitAtFocus;
}

double unclampedCocRadius(float depth, const CocRamp& ramp) {
  const double den = double(ramp.b) + double(ramp.c) * depth;
  return den > 0 ? std::abs(double(depth) - ramp.focus) * ramp.a / den : 0.0;
}

void LinearLightMean::add(const ImageRgba8& frame) {
  if (count_ == 0) {
    width_ = frame.width;
    height_ = frame.height;
    sum_.assign(std::size_t(width_) * height_ * 3, 0.0);
    bytes_.assign(sum_.size(), 0);
  } else if (frame.width != width_ || frame.height != height_) {
    throw std::invalid_argument("LinearLightMean: frames of different sizes");
  }
  const auto& decode = gammaDecodeTable();
  const std::size_t n = std::size_t(width_) * height_;
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t k = 0; k < 3; ++k) {
      sum_[p * 3 + k] += decode[frame.pixels[p * 4 + k]];
      bytes_[p * 3 + k] += frame.pixels[p * 4 + k];
    }
  ++count_;
}

ImageRgba8 LinearLightMean::mean() const {
  ImageRgba8 out(width_, height_);
  const std::size_t n = std::size_t(width_) * height_;
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t k = 0; k < 3; ++k) {
      const double linear = count_ ? sum_[p * 3 + k] / double(count_) : 0.0;
      const double encoded = 255.0 * std::pow(std::clamp(linear, 0.0, 1.0), 1.0 / kSceneGamma);
      out.pixels[p * 4 + k] = std::uint8_t(std::clamp(std::floor(encoded + 0.5), 0.0, 255.0));
    }
    out.pixels[p * 4 + 3] = 255;
  }
  return out;
}

ImageRgba8 LinearLightMean::encodedMean() const {
  ImageRgba8 out(width_, height_);
  const std::size_t n = std::size_t(width_) * height_;
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t k = 0; k < 3; ++k)
      out.pixels[p * 4 + k] = count_ ? std::uint8_t((2 * std::uint64_t(bytes_[p * 3 + k]) + count_) / (2 * count_)) : 0;
    out.pixels[p * 4 + 3] = 255;
  }
  return out;
}

}  // namespace satdof::reference
