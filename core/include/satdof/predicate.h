// satdof/predicate.h — the selection predicate of stream compaction, as data.
//
// A predicate is a comparison of each uint32 element with one operand. Being plain data
// (not a callback), it crosses the host/device boundary as a kernel argument, so every
// compaction variant (including the fused single-pass kernel and CUB's DeviceSelect)
// evaluates the very same function below, and the CPU reference does too.
//
// Callers that select by something richer (a pixel's depth, a struct field) compute a
// uint32 key per element first and select on the key; the compaction can also emit the
// selected elements' original indices, with which the caller gathers any other attribute.
#pragma once

#include <cstdint>

#include "satdof/host_device.h"

namespace satdof {

enum class PredicateKind : std::uint32_t {
  Greater,       // value >  operand
  GreaterEqual,  // value >= operand
  Less,          // value <  operand
  LessEqual,     // value <= operand
  Equal,         // value == operand
  NotEqual,      // value != operand
  AnyBitSet,     // (value & operand) != 0
  NoBitSet,      // (value & operand) == 0
};

struct Predicate {
  PredicateKind kind = PredicateKind::Greater;
  std::uint32_t operand = 0;

  SATDOF_HOST_DEVICE constexpr bool operator()(std::uint32_t v) const {
    switch (kind) {
      case PredicateKind::Greater:
        return v > operand;
      case PredicateKind::GreaterEqual:
        return v >= operand;
      case PredicateKind::Less:
        return v < operand;
      case PredicateKind::LessEqual:
        return v <= operand;
      case PredicateKind::Equal:
        return v == operand;
      case PredicateKind::NotEqual:
        return v != operand;
      case PredicateKind::AnyBitSet:
        return (v & operand) != 0;
      case PredicateKind::NoBitSet:
        return (v & operand) == 0;
    }
    return false;
  }
};

constexpr bool isValid(PredicateKind kind) {
  return static_cast<std::uint32_t>(kind) <= static_cast<std::uint32_t>(PredicateKind::NoBitSet);
}

}  // namespace satdof
