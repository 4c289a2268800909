// cuda/dof/dof.cu — the SAT depth of field (satdof/dof.h): one thread per pixel in 32x8
// blocks, so a warp reads one row segment of depth and writes one of output. The four
// SAT reads per box (one box, or the disc aperture's slabs: reference/aperture.h) are
// 16-byte loads (uint21x3: 8-byte) through the read-only path; neighbouring pixels'
// boxes overlap, so most hit in L1/L2.
#include "satdof/dof.h"

#include "satdof/reference/aperture.h"

namespace satdof {
namespace {

__global__ void depthOfFieldKernel(DofKernelArgs a, reference::SatView table) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= a.width || y >= a.height) return;
  const float depth = surf2Dread<float>(a.depth, x * int(sizeof(float)), y);
  const int r = reference::cocRadius(depth, a.ramp);
  uchar4 out;
  if (a.showCoc) {
    const std::uint8_t shade = reference::cocShade(r, a.ramp.maxRadius);
    out = make_uchar4(shade, std::uint8_t(255 - shade), 38, 255);
  } else {
    const reference::Rgb8 m = reference::satApertureMean(table, a.aperture, x, y, r, a.width, a.height);
    out = make_uchar4(m.r, m.g, m.b, 255);
  }
  surf2Dwrite(out, a.output, x * int(sizeof(uchar4)), y);
}

}  // namespace

cudaError_t launchDepthOfField(const DofKernelArgs& args, cudaStream_t stream) {
  if (args.width <= 0 || args.height <= 0 || !args.depth || !args.output || !args.table) return cudaErrorInvalidValue;
  const dim3 block(32, 8);
  const dim3 grid((args.width + 31) / 32, (args.height + 7) / 8);
  const auto* words = static_cast<const std::uint32_t*>(args.table);
  const SatFormatInfo& format = satFormatInfo(args.format);
  const std::uint32_t* trailer =
      format.trailerBytes ? words + std::size_t(args.width) * args.height * format.bytesPerPixel / 4 : nullptr;
  depthOfFieldKernel<<<grid, block, 0, stream>>>(args, reference::SatView{words, args.width, args.format, trailer});
  return cudaGetLastError();
}

}  // namespace satdof
