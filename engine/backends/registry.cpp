// engine/backends/registry.cpp — the compute backends, in the order `auto` tries them, and
// the choice between them, explained in one line.
#include <utility>

#include "satdof/registry.h"
#include "engine/backends/compute_backend.h"
#include "engine/parts/optional_parts.h"

namespace satdof {

bool BackendOption::has(std::string_view name) const {
  for (const Choice& c : choices)
    if (c.name == name) return true;
  return false;
}

std::vector<const Choice*> runnableChoices(const ComputeBackend& backend, const BackendOption& option) {
  std::vector<const Choice*> list;
  for (const Choice& c : option.choices)
    if (!backend.whyNotHere(option.key, c.name)) list.push_back(&c);
  return list;
}

std::string satSectionTag(std::string_view algorithm, std::string_view scan) {
  return scan.empty() ? std::string(algorithm) : std::string(algorithm) + " / " + std::string(scan);
}

// gl_compute_backend.cpp (declared here: the one place that lists the backends).
std::vector<BackendOption> glComputeBackendOptions();
std::vector<FilterImplementation> glComputeFilterImplementations();
std::unique_ptr<ComputeBackend> createGlComputeBackend(const Context&, const BackendSelections&, std::string&);

namespace {

// The cuda backend as a build without the CUDA part lists it (its part fills it in:
// cuda_part::registerBackend): it offers nothing and says why it cannot run (short: the
// panel shows "CPU backend: " and it in one line).
std::string noCuda() { return "this build has no CUDA"; }  // no toolkit at configure time
std::vector<BackendOption> noOptions() { return {}; }
std::vector<FilterImplementation> noFilters() { return {}; }
std::unique_ptr<ComputeBackend> createNoCuda(const Context&, const BackendSelections&, std::string& reason) {
  reason = noCuda();
  return nullptr;
}

// In `auto`'s order, every build's list; registerComputeBackend fills in the entries of the
// optional parts (engine/parts/optional_parts.h).
std::vector<ComputeBackendInfo>& listed() {
  static std::vector<ComputeBackendInfo> list{
      ComputeBackendInfo{"cuda", "CUDA", "CUDA-GL interop: filter and SAT on the GPU, no host round trip", noOptions,
                         noFilters, createNoCuda, noCuda},
      ComputeBackendInfo{"gl-compute", "GL-compute",
                         "GLSL compute shaders: filter and SAT on any GL 4.3+ GPU, no CUDA", glComputeBackendOptions,
                         glComputeFilterImplementations, createGlComputeBackend},
      ComputeBackendInfo{"cpu", "CPU", "read back, the reference library, upload (works everywhere)",
                         cpuBackendOptions, cpuFilterImplementations, createCpuBackend},
  };
  return list;
}

// This build's backends, its optional parts registered.
const std::vector<ComputeBackendInfo>& backends() {
  ensureOptionalParts();
  return listed();
}

// What `auto` passes over although it could run: gl-compute on a software GL, where
// the cpu backend is faster (measured on Mesa's llvmpipe, 2 shared cores, 3840x2160,
// medians: the GLSL SAT 3.4 s a frame, the reference's 26 ms; docs/PERFORMANCE.md).
// `--backend gl-compute` still runs there.
std::optional<std::string> autoPassesOver(const ComputeBackendInfo& info, const Context& context) {
  if (info.name != "gl-compute" || !context.softwareRenderer()) return std::nullopt;
  return "GL runs in software here (" + context.renderer +
         "), where the cpu backend is faster than GL compute shaders (--backend gl-compute to use them anyway)";
}

}  // namespace

void registerComputeBackend(ComputeBackendInfo part) {
  fillIn(listed(), std::move(part), [](const ComputeBackendInfo& entry, ComputeBackendInfo& filled) {
    filled.label = entry.label;
    filled.description = entry.description;
  });
}

std::span<const ComputeBackendInfo> computeBackends() { return backends(); }

const ComputeBackendInfo* findComputeBackend(std::string_view name) {
  return findByName<ComputeBackendInfo>(backends(), name);
}

BackendChoice chooseComputeBackend(std::string_view requested, const Context& context,
                                   const BackendSelections& selections) {
  std::string whyNots;  // why each earlier backend could not run, for the one line
  for (const ComputeBackendInfo& info : backends()) {
    if (requested != "auto" && requested != info.name) continue;
    std::string whyNot;
    if (auto skip = requested == "auto" ? autoPassesOver(info, context) : std::nullopt) {
      whyNots += (whyNots.empty() ? "" : "; ") + *skip;
      continue;
    }
    if (auto backend = info.create(context, selections, whyNot)) {
      // Why the earlier ones could not run, then what this one says of itself.
      std::string why = whyNots + (!whyNots.empty() && !whyNot.empty() ? "; " : "") + whyNot;
      if (why.empty()) why = "requested with --backend " + std::string(info.name);
      return {std::move(backend), std::string(info.label) + " backend: " + why};
    }
    if (requested != "auto")
      throw BackendUnavailable("--backend " + std::string(info.name) + " is not possible here: " + whyNot);
    whyNots += (whyNots.empty() ? "" : "; ") + whyNot;
  }
  throw BackendUnavailable("no backend named '" + std::string(requested) + "' in this build");
}

std::optional<BackendChoice> chooseBackendAfter(std::string_view failed, const Context& context,
                                                const BackendSelections& selections) {
  bool after = false;
  std::string whyNots;
  for (const ComputeBackendInfo& info : backends()) {
    if (!after) {
      after = info.name == failed;
      continue;
    }
    std::string whyNot;
    if (auto skip = autoPassesOver(info, context)) whyNot = *skip;
    else if (auto backend = info.create(context, selections, whyNot))
      return BackendChoice{std::move(backend), std::string(info.label) + " backend" +
                                                   (whyNots.empty() ? "" : " (" + whyNots + ")")};
    whyNots += (whyNots.empty() ? "" : "; ") + whyNot;
  }
  return std::nullopt;
}

}  // namespace satdof
