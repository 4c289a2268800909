// engine/backends/field_sats.cpp — ComputeBackend::buildFieldSats' default: the CPU path any
// backend can fall back on (read back, reference SAT, upload), timed on the host clock.
#include "engine/backends/compute_backend.h"
#include "engine/gl/handles.h"
#include "engine/image/image_io.h"
#include "satdof/reference/sat.h"

namespace satdof {

void ComputeBackend::buildFieldSats(const Targets& t, Profiler& profiler) {
  for (const FieldTable& f : fieldTables(t)) {
    const GLuint texture = f.fieldImage, buffer = f.tableBuffer;
    reference::ImageRgba8 image(t.extent.width, t.extent.height);
    {
      auto timed = profiler.section(profiler.host(), "read back fields");
      image = readTexture(texture, t.extent.width, t.extent.height);
    }
    auto timed = profiler.section(profiler.host(), "field sats", "cpu reference");
    const reference::Sat sat = reference::computeSat(image, f.format);
    hostUploads_.upload(buffer, sat.values.data(), GLsizeiptr(sat.values.size() * sizeof(std::uint32_t)));
  }
}

}  // namespace satdof
