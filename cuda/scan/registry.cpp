// scan/registry.cpp — the list of scan variants, and the small public helpers of scan.h.
//
// An explicit array rather than self-registering statics: satdof_cuda is a static
// library, and the linker drops object files nobody references, taking any
// self-registration with them. Order is teaching order: naive first, library last.
#include <array>
#include <string>

#include "satdof/scan.h"
#include "scan/variants.h"

namespace satdof {

std::string_view toString(ScanOp op) {
  switch (op) {
    case ScanOp::Inclusive:
      return "inclusive";
    case ScanOp::Exclusive:
      return "exclusive";
  }
  return "?";
}

std::string_view toString(ScanType type) {
  switch (type) {
    case ScanType::U32:
      return "u32";
    case ScanType::F32:
      return "f32";
  }
  return "?";
}

std::size_t sizeOf(ScanType type) {
  switch (type) {
    case ScanType::U32:
      return sizeof(std::uint32_t);
    case ScanType::F32:
      return sizeof(float);
  }
  return 0;
}

std::string ScanTuning::toString() const {
  if (threadsPerBlock <= 0) return "library-tuned";
  return std::to_string(threadsPerBlock) + " threads x " + std::to_string(itemsPerThread) +
         (itemsPerThread == 1 ? " item" : " items");
}

namespace {

constexpr std::array kVariants{
    ScanVariant{"blelloch", "work-efficient up-sweep/down-sweep tree, bank conflicts and all",
                detail::kBlellochTuning, detail::blellochScratchBytes, detail::blellochLaunch},
};

}  // namespace

std::span<const ScanVariant> scanVariants() { return kVariants; }

const ScanVariant* findScanVariant(std::string_view name) {
  for (const ScanVariant& v : kVariants)
    if (v.name == name) return &v;
  return nullptr;
}

const ScanVariant& defaultScanVariant() {
  // The fastest multi-block variant measured on the H100.
  return *findScanVariant("blelloch");
}

}  // namespace satdof
