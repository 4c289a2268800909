// engine/pipeline/pipeline_config.h — the two configurations a comparison shows side by side (the
// split view) or subtracted (the difference view). A pipeline configuration is every
// choice that changes how the image is computed from the same scene: the compute backend
// and the options it offers (scan variant, SAT algorithm), the SAT format, the
// convolution implementation and the depth-of-field implementation.
//
// Configuration A is the app's own pipeline. Configuration B is held as the fields the
// user set for it (`--compare-b dof=layered,sat-format=float32`, the panel's Compare
// section, `set compare-b ...` in a script, the settings file); every other field is A's,
// so B starts as a copy of A and keeps the fields given to it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/pipeline/compare_fields.h"  // CompareFields, formatCompareFields

namespace satdof {

struct PipelineConfig {
  std::string backend;           // a compute backend's name (never auto)
  BackendSelections selections;  // the backend's options: key -> choice
  std::string satFormat;
  std::string conv;  // the convolution implementation (empty: the backend's default)
  std::string dof;   // the DoF implementation
  bool operator==(const PipelineConfig&) const = default;
};

// B: A with `fields` applied. A backend option B's backend offers takes the field, else
// A's choice where B's backend offers that name too, else the option's default; likewise
// the convolution (else the backend's first).
PipelineConfig resolveCompare(const PipelineConfig& a, const CompareFields& fields);

// One line naming `c` by what sets it apart from `other` ("layered · float32"; the
// convolution only while `filtering`); the DoF implementation and the SAT format when
// nothing does.
std::string compareLabel(const PipelineConfig& c, const PipelineConfig& other, bool filtering);

}  // namespace satdof
