// tests/test_pipeline_config.cpp — a pipeline configuration (engine/pipeline/pipeline_config.h):
// configuration B resolved from A and the fields set for it, against B's own backend, and
// the labels that name what sets the two apart.
#include <gtest/gtest.h>

#include "engine/backends/compute_backend.h"
#include "engine/pipeline/pipeline_config.h"

// B resolved against its own backend: a field it sets wins; A's choice where B's backend
// offers that name; else the backend's own choice for its GL (and its first convolution). The label
// names what sets a configuration apart.
TEST(CompareConfig, ResolvesAgainstBsBackendAndLabelsTheDifference) {
  satdof::PipelineConfig a{"cpu", {}, "uint32", "cpu-separable", "compute"};
  for (const satdof::BackendOption& opt : satdof::cpuBackendOptions()) a.selections[opt.key] = opt.defaultChoice;
  EXPECT_EQ(satdof::resolveCompare(a, {}), a) << "no fields: B = A";
  const satdof::PipelineConfig b = satdof::resolveCompare(a, {{"dof", "layered"}, {"sat-format", "float32"}});
  EXPECT_EQ(b.backend, "cpu");
  EXPECT_EQ(b.conv, "cpu-separable");
  EXPECT_EQ(satdof::compareLabel(a, b, false), "compute \u00b7 uint32");
  EXPECT_EQ(satdof::compareLabel(b, a, false), "layered \u00b7 float32");
  const satdof::ComputeBackendInfo* glc = satdof::findComputeBackend("gl-compute");
  ASSERT_NE(glc, nullptr);
  const satdof::PipelineConfig g = satdof::resolveCompare(a, {{"backend", "gl-compute"}});
  EXPECT_EQ(g.conv, glc->filterImplementations().front().name) << "A's cpu-separable is not a gl-compute one";
  for (const satdof::BackendOption& opt : glc->options())
    EXPECT_EQ(g.selections.count(opt.key), 0u) << opt.key << ": left to gl-compute, whose default depends on the GL";
  EXPECT_EQ(g.dof, "compute");
  EXPECT_NE(satdof::compareLabel(g, a, true).find("gl-compute"), std::string::npos);
  EXPECT_EQ(satdof::compareLabel(g, a, false).find(g.conv), std::string::npos) << "no filter: no convolution named";
}
