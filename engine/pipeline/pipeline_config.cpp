// engine/pipeline/pipeline_config.cpp — see pipeline_config.h.
#include "engine/pipeline/pipeline_config.h"

#include <algorithm>

namespace satdof {

PipelineConfig resolveCompare(const PipelineConfig& a, const CompareFields& fields) {
  auto field = [&](const char* key, const std::string& otherwise) {
    const auto it = fields.find(key);
    return it == fields.end() ? otherwise : it->second;
  };
  PipelineConfig b;
  b.backend = field("backend", a.backend);
  b.satFormat = field("sat-format", a.satFormat);
  b.dof = field("dof", a.dof);
  const ComputeBackendInfo* info = findComputeBackend(b.backend);
  if (!info) return b;  // refused where it is created, with the valid names
  // B's options: those named for it, else A's where its backend has them; the rest are
  // left to the backend, which picks its default for this GL (gl-compute's subgroup scan
  // where GL_KHR_shader_subgroup exists, another where not).
  for (const BackendOption& o : info->options()) {
    if (const auto f = fields.find(o.key); f != fields.end()) b.selections[o.key] = f->second;
    else if (const auto s = a.selections.find(o.key); s != a.selections.end() && o.has(s->second))
      b.selections[o.key] = s->second;
  }
  const std::vector<FilterImplementation> convs = info->filterImplementations();
  const bool offersAsConv =
      std::any_of(convs.begin(), convs.end(), [&](const FilterImplementation& f) { return f.name == a.conv; });
  b.conv = field("conv", offersAsConv ? a.conv : convs.empty() ? std::string() : convs.front().name);
  return b;
}

std::string compareLabel(const PipelineConfig& c, const PipelineConfig& other, bool filtering) {
  std::vector<std::string> parts;
  if (c.dof != other.dof) parts.push_back(c.dof);
  if (c.satFormat != other.satFormat) parts.push_back(c.satFormat);
  if (c.backend != other.backend) parts.push_back(c.backend);
  for (const auto& [key, name] : c.selections) {
    const auto it = other.selections.find(key);
    if (it == other.selections.end() || it->second != name) parts.push_back(name);
  }
  if (filtering && c.conv != other.conv && !c.conv.empty()) parts.push_back(c.conv);
  if (parts.empty()) parts = {c.dof, c.satFormat};
  std::string label;
  for (const std::string& p : parts) label += (label.empty() ? "" : " \u00b7 ") + p;
  return label;
}

}  // namespace satdof
