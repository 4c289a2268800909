// cuda/dof/layers.cu — the layered DoF's split and tile dilation (satdof/dof.h): one
// 16x16 block per tile, so the tile's largest near radius is a shared-memory max; then one
// thread per tile for the dilation. Mirrors reference::splitLayers line for line.
#include "satdof/dof.h"
#include "satdof/reference/layered_dof.h"

namespace satdof {
namespace {

constexpr int kTile = reference::kLayerTile;

__device__ unsigned char premultiply(unsigned char c, int w) { return (unsigned char)((int(c) * w + 127) / 255); }

__global__ void splitKernel(LayerSplitArgs a, int tilesX, int* tileMax) {
  __shared__ int blockMax;
  if (threadIdx.x == 0 && threadIdx.y == 0) blockMax = 0;
  __syncthreads();
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x < a.width && y < a.height) {
    const float depth = surf2Dread<float>(a.depth, x * int(sizeof(float)), y);
    const int r = reference::cocRadius(depth, a.ramp);
    const bool nearSide = depth < a.ramp.focus;
    const int w = nearSide ? reference::fieldWeight(r) : reference::farFieldWeight(r);
    const uchar4 c = surf2Dread<uchar4>(a.colour, x * int(sizeof(uchar4)), y);
    const uchar4 field = make_uchar4(premultiply(c.x, w), premultiply(c.y, w), premultiply(c.z, w), (unsigned char)w);
    const uchar4 none = make_uchar4(0, 0, 0, 0);
    surf2Dwrite(nearSide ? field : none, a.nearField, x * int(sizeof(uchar4)), y);
    surf2Dwrite(nearSide ? none : field, a.farField, x * int(sizeof(uchar4)), y);
    surf2Dwrite(short(nearSide && w > 0 ? r : 0), a.nearRadius, x * int(sizeof(short)), y);
    if (nearSide && w > 0) atomicMax(&blockMax, r);
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) tileMax[blockIdx.y * tilesX + blockIdx.x] = blockMax;
}

__global__ void dilateKernel(LayerSplitArgs a, int tilesX, int tilesY, const int* tileMax) {
  const int tx = blockIdx.x * blockDim.x + threadIdx.x, ty = blockIdx.y * blockDim.y + threadIdx.y;
  if (tx >= tilesX || ty >= tilesY) return;
  const int reach = (a.ramp.maxRadius + kTile - 1) / kTile;
  int m = 0;
  for (int j = max(0, ty - reach); j <= min(tilesY - 1, ty + reach); ++j)
    for (int i = max(0, tx - reach); i <= min(tilesX - 1, tx + reach); ++i) m = max(m, tileMax[j * tilesX + i]);
  surf2Dwrite(m, a.tileRadius, tx * int(sizeof(int)), ty);
}

}  // namespace

std::size_t layerSplitScratchBytes(int width, int height) {
  return std::size_t((width + kTile - 1) / kTile) * std::size_t((height + kTile - 1) / kTile) * sizeof(int);
}

cudaError_t launchLayerSplit(const LayerSplitArgs& a, void* scratch, std::size_t scratchBytes, cudaStream_t stream) {
  if (a.width <= 0 || a.height <= 0 || !a.depth || !a.colour || !a.nearField || !a.farField || !a.tileRadius ||
      !a.nearRadius)
    return cudaErrorInvalidValue;
  if (!scratch || scratchBytes < layerSplitScratchBytes(a.width, a.height)) return cudaErrorInvalidValue;
  const int tilesX = (a.width + kTile - 1) / kTile, tilesY = (a.height + kTile - 1) / kTile;
  auto* tileMax = static_cast<int*>(scratch);
  splitKernel<<<dim3(tilesX, tilesY), dim3(kTile, kTile), 0, stream>>>(a, tilesX, tileMax);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  dilateKernel<<<dim3((tilesX + 7) / 8, (tilesY + 7) / 8), dim3(8, 8), 0, stream>>>(a, tilesX, tilesY, tileMax);
  return cudaGetLastError();
}

}  // namespace satdof
