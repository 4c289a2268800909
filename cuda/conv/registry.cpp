// conv/registry.cpp — the list of convolution variants, argument checks shared by all of
// them, and the small public helpers of conv2d.h.
//
// An explicit array rather than self-registering statics: satdof_cuda is a static
// library, and the linker drops object files nobody references, taking any
// self-registration with them. Order is teaching order (the book's four kernels, then
// the two that change the algorithm); an executable's own file may append one
// (registerConvVariant).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "satdof/registry.h"
#include "conv/variants.h"
#include "satdof/conv2d.h"

namespace satdof {

namespace {

// Largest width or height accepted: keeps every grid dimension and index in range.
constexpr int kMaxConvDimension = 32768;

constexpr std::array kVariants{
    ConvVariant{"basic", "one thread per pixel; filter and image from global memory",
                conv::kBasicTuning, ConvMath::Direct, conv::supportsAnyFilter,
                conv::basicScratchBytes, conv::basicLaunch},
    ConvVariant{"constant-memory", "as basic, with the filter in __constant__ memory",
                conv::kConstantTuning, ConvMath::Direct, conv::constantSupports, conv::noScratch,
                conv::constantLaunch},
    ConvVariant{"tiled-halo", "input tile plus halo in shared memory, 8x2 outputs per thread",
                conv::kTiledHaloTuning, ConvMath::Direct, conv::supportsAnyFilter,
                conv::noScratch, conv::tiledHaloLaunch},
    ConvVariant{"tiled-cached-halo", "output-sized tile in shared memory, halo through L1/L2",
                conv::kTiledCachedTuning, ConvMath::Direct, conv::supportsAnyFilter,
                conv::noScratch, conv::tiledCachedLaunch},
    ConvVariant{"separable", "horizontal then vertical 1D pass, fused through shared memory",
                conv::kSeparableTuning, ConvMath::Separable, conv::separableSupports,
                conv::noScratch, conv::separableLaunch},
    ConvVariant{"sat-box", "box mean from integer prefix sums (the SAT identity), O(1) per pixel",
                conv::kSatBoxTuning, ConvMath::BoxSum, conv::satBoxSupports,
                conv::noScratch, conv::satBoxLaunch},
};

bool overlaps(const void* a, std::size_t aBytes, const void* b, std::size_t bBytes) {
  const auto pa = reinterpret_cast<std::uintptr_t>(a);
  const auto pb = reinterpret_cast<std::uintptr_t>(b);
  return pa < pb + bBytes && pb < pa + aBytes;
}

std::vector<ConvVariant>& entries() {
  static std::vector<ConvVariant> list(kVariants.begin(), kVariants.end());
  return list;
}

}  // namespace

std::span<const ConvVariant> convVariants() { return entries(); }

void registerConvVariant(ConvVariant variant) { appendEntry(entries(), variant); }

const ConvVariant* findConvVariant(std::string_view name) { return findByName<ConvVariant>(entries(), name); }

const ConvVariant& defaultConvVariant() { return *findConvVariant("tiled-halo"); }

const ConvVariant& preferredConvVariant(const Filter& filter) {
  return filter.separable ? *findConvVariant("separable") : defaultConvVariant();
}

std::optional<std::string> checkConvArgs(const ConvArgs& a) {
  if (a.filter == nullptr) return std::string("no filter given");
  if (auto why = validateFilter(*a.filter)) return why;
  if (a.width < 0 || a.height < 0)
    return "negative image size " + std::to_string(a.width) + "x" + std::to_string(a.height);
  if (a.width > kMaxConvDimension || a.height > kMaxConvDimension)
    return "image " + std::to_string(a.width) + "x" + std::to_string(a.height) +
           " is larger than " + std::to_string(kMaxConvDimension) + " on a side";
  if (a.border != Border::Zero && a.border != Border::Clamp) return std::string("unknown border");
  if (a.width == 0 || a.height == 0) return std::nullopt;  // nothing to touch
  if (a.in == nullptr || a.out == nullptr) return std::string("null input or output image");
  const std::size_t rowBytes = std::size_t(a.width) * sizeof(uchar4);
  if (a.inPitchBytes < rowBytes || a.outPitchBytes < rowBytes)
    return "pitch smaller than a row (" + std::to_string(rowBytes) + " bytes)";
  if (a.inPitchBytes % alignof(uchar4) != 0 || a.outPitchBytes % alignof(uchar4) != 0 ||
      reinterpret_cast<std::uintptr_t>(a.in) % alignof(uchar4) != 0 ||
      reinterpret_cast<std::uintptr_t>(a.out) % alignof(uchar4) != 0)
    return std::string("images and pitches must be 4-byte aligned");
  const std::size_t inBytes = a.inPitchBytes * std::size_t(a.height - 1) + rowBytes;
  const std::size_t outBytes = a.outPitchBytes * std::size_t(a.height - 1) + rowBytes;
  if (overlaps(a.in, inBytes, a.out, outBytes))
    return std::string("input and output overlap (in-place filtering is not supported)");
  return std::nullopt;
}

namespace conv {

std::optional<std::string> supportsAnyFilter(const Filter&) { return std::nullopt; }

std::size_t noScratch(int, int) { return 0; }

cudaError_t checkLaunch(const ConvArgs& args, std::optional<std::string> (*supports)(const Filter&),
                        const void* scratch, std::size_t scratchBytes, std::size_t neededBytes) {
  if (checkConvArgs(args)) return cudaErrorInvalidValue;
  if (supports(*args.filter)) return cudaErrorNotSupported;
  if (neededBytes > 0 && (scratch == nullptr || scratchBytes < neededBytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

}  // namespace conv

}  // namespace satdof
