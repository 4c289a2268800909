// bench/npp_baseline.cpp — see npp_baseline.h. Compiled with NPP's headers when
// cmake/Npp.cmake found them (SATDOF_HAVE_NPP_HEADERS); the library is dlopen'ed.
#include "npp_baseline.h"

#include <cstring>
#include <vector>

#include "bench_common.h"
#include "satdof/cuda_check.h"
#include "satdof/device_buffer.h"

#if SATDOF_HAVE_NPP_HEADERS
#include <dlfcn.h>
#include <nppi_statistics_functions.h>
#endif

namespace satdof::bench {

#if SATDOF_HAVE_NPP_HEADERS

struct NppBaseline::Impl {
  void* library = nullptr;
  decltype(&nppiIntegral_8u32s_C1R_Ctx) integral = nullptr;
  ~Impl() {
    if (library) dlclose(library);
  }
};

NppBaseline::NppBaseline() {
  auto impl = std::make_unique<Impl>();
  impl->library = dlopen("libnppist.so.13", RTLD_NOW | RTLD_LOCAL);
  if (!impl->library) {
    whyNot_ = std::string("NPP not found at run time: ") + dlerror();
    return;
  }
  impl->integral = reinterpret_cast<decltype(impl->integral)>(
      dlsym(impl->library, "nppiIntegral_8u32s_C1R_Ctx"));
  if (!impl->integral) {
    whyNot_ = "libnppist.so.13 lacks nppiIntegral_8u32s_C1R_Ctx";
    return;
  }
  impl_ = std::move(impl);
}

NppBaseline::Result NppBaseline::run(const BenchOptions& options, const reference::ImageRgba8& image,
                                     const reference::Sat& expected, cudaStream_t stream) {
  const int w = image.width, h = image.height;
  const std::size_t planeBytes = alignUp(std::size_t(w) * h);
  const std::size_t outStep = std::size_t(w + 1) * 4;
  const std::size_t outBytes = alignUp(outStep * (h + 1));
  const std::size_t setBytes = 4 * (planeBytes + outBytes);
  const DeviceInfo device = queryDevice();
  const std::size_t sets = rotationSets(setBytes, device);
  DeviceBuffer<unsigned char> planes(sets * 4 * planeBytes), out(sets * 4 * outBytes);

  std::vector<std::uint8_t> plane(std::size_t(w) * h);
  for (int c = 0; c < 4; ++c) {
    for (std::size_t i = 0; i < plane.size(); ++i) plane[i] = image.pixels[i * 4 + c];
    for (std::size_t s = 0; s < sets; ++s)
      SATDOF_CUDA_CHECK(cudaMemcpy(planes.data() + (s * 4 + c) * planeBytes, plane.data(),
                                   plane.size(), cudaMemcpyHostToDevice));
  }

  NppStreamContext ctx{};
  ctx.hStream = stream;
  SATDOF_CUDA_CHECK(cudaGetDevice(&ctx.nCudaDeviceId));
  cudaDeviceProp prop{};
  SATDOF_CUDA_CHECK(cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId));
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  SATDOF_CUDA_CHECK(cudaStreamGetFlags(stream, &ctx.nStreamFlags));

  bool failed = false;
  const auto runSet = [&](std::size_t s) -> cudaError_t {
    for (int c = 0; c < 4; ++c) {
      const NppStatus st = impl_->integral(
          reinterpret_cast<const Npp8u*>(planes.data() + (s * 4 + c) * planeBytes), w,
          reinterpret_cast<Npp32s*>(out.data() + (s * 4 + c) * outBytes), int(outStep),
          NppiSize{w, h}, 0, ctx);
      if (st != NPP_SUCCESS) failed = true;
    }
    return cudaGetLastError();
  };

  Result result;
  SATDOF_CUDA_CHECK(runSet(0));
  SATDOF_CUDA_CHECK(cudaStreamSynchronize(stream));
  result.correct = !failed;
  std::vector<std::uint32_t> got(std::size_t(w + 1) * (h + 1));
  for (int c = 0; c < 4 && result.correct; ++c) {
    SATDOF_CUDA_CHECK(cudaMemcpy(got.data(), out.data() + c * outBytes, got.size() * 4,
                                 cudaMemcpyDeviceToHost));
    for (int y = 0; y < h && result.correct; ++y)
      for (int x = 0; x < w; ++x)
        if (got[std::size_t(y + 1) * (w + 1) + x + 1] != expected.at(x, y, c)) {
          result.correct = false;
          break;
        }
  }
  result.ms = timeMedianMs(options, sets, stream, runSet);
  result.correct = result.correct && !failed;
  return result;
}

#else

struct NppBaseline::Impl {};

NppBaseline::NppBaseline()
    : whyNot_("built without NPP's headers (cmake/Npp.cmake: set SATDOF_NPP_ROOT)") {}

NppBaseline::Result NppBaseline::run(const BenchOptions&, const reference::ImageRgba8&,
                                     const reference::Sat&, cudaStream_t) {
  return {};
}

#endif

NppBaseline::~NppBaseline() = default;

}  // namespace satdof::bench
