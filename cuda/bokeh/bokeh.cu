// cuda/bokeh/bokeh.cu — bokeh highlights (satdof/bokeh.h): score, compact, cap, sort, emit.
#include "satdof/bokeh.h"

#include <cstring>

#include "satdof/compact.h"
#include "satdof/sort.h"

namespace satdof {
namespace {

using reference::BokehSprite;

constexpr std::size_t kAlign = 256;
std::size_t aligned(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// The scratch, carved in one place for bokehScratchBytes and the launch.
struct Layout {
  std::size_t scores, indices, count, keys, values, keysOut, valuesOut, compact, sort, total;
};

CompactArgs compactArgs(const BokehArgs& a, std::uint32_t* scores, std::uint32_t* indices, std::uint32_t* count) {
  CompactArgs c;
  c.in = scores;
  c.indices = indices;
  c.count = count;
  c.n = std::size_t(a.width) * std::size_t(a.height);
  c.predicate = {PredicateKind::Greater, 0};
  return c;
}

SortArgs sortArgs(const BokehArgs& a, std::uint32_t* keys, std::uint32_t* values, std::uint32_t* keysOut,
                  std::uint32_t* valuesOut) {
  SortArgs s;
  s.keysIn = keys;
  s.valuesIn = values;
  s.keysOut = keysOut;
  s.valuesOut = valuesOut;
  s.n = a.settings.maxSprites;
  return s;
}

const CompactVariant& compactOf(const BokehArgs& a) { return a.compact ? *a.compact : defaultCompactVariant(); }
const SortVariant& sortOf(const BokehArgs& a) { return a.sort ? *a.sort : defaultSortVariant(); }

Layout layout(const BokehArgs& a) {
  const std::size_t n = std::size_t(a.width) * std::size_t(a.height), m = a.settings.maxSprites;
  Layout l{};
  std::size_t at = 0;
  auto take = [&](std::size_t bytes) {
    const std::size_t here = at;
    at += aligned(bytes);
    return here;
  };
  l.scores = take(n * 4);
  l.indices = take(n * 4);
  l.count = take(4);
  l.keys = take(m * 4);
  l.values = take(m * 4);
  l.keysOut = take(m * 4);
  l.valuesOut = take(m * 4);
  // Scratch sizes depend on which outputs are wanted (indices, values), not on where they
  // are: stand-in addresses for the buffers carved above.
  auto* some = reinterpret_cast<std::uint32_t*>(kAlign);
  l.compact = take(compactOf(a).scratchBytes(compactArgs(a, some, some, some)));
  l.sort = take(sortOf(a).scratchBytes(sortArgs(a, some, some, some, some)));
  l.total = at;
  return l;
}

// A pixel's linear luminance (reference::bokehOutshines reads its ring through this).
struct LinearLuminanceAt {
  cudaSurfaceObject_t colour;
  __device__ std::uint32_t operator()(int x, int y) const {
    const uchar4 c = surf2Dread<uchar4>(colour, x * int(sizeof(uchar4)), y);
    return reference::bokehLinearLuminance(c.x, c.y, c.z);
  }
};

__global__ void scoreKernel(BokehArgs a, std::uint32_t* scores) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= a.width || y >= a.height) return;
  const uchar4 c = surf2Dread<uchar4>(a.colour, x * int(sizeof(uchar4)), y);
  const std::uint32_t lum = reference::bokehLuminance(c.x, c.y, c.z);
  std::uint32_t score = 0;
  if (lum > a.settings.threshold) {
    const float depth = surf2Dread<float>(a.depth, x * int(sizeof(float)), y);
    if (reference::cocRadius(depth, a.ramp) >= a.settings.minRadius &&
        reference::bokehOutshines(x, y, a.width, a.height, a.settings.contrast, LinearLuminanceAt{a.colour}))
      score = lum;
  }
  scores[std::size_t(y) * a.width + x] = score;
}

__device__ float depthAt(const BokehArgs& a, std::uint32_t index) {
  const int x = int(index % std::uint32_t(a.width)), y = int(index / std::uint32_t(a.width));
  return surf2Dread<float>(a.depth, x * int(sizeof(float)), y);
}

// Kept highlights get their depth key; the slots beyond them sort last.
__global__ void keysKernel(BokehArgs a, const std::uint32_t* indices, const std::uint32_t* count,
                           std::uint32_t* keys, std::uint32_t* values) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.settings.maxSprites) return;
  const std::uint32_t kept = min(*count, a.settings.maxSprites);
  if (i < kept) {
    keys[i] = reference::bokehDepthKey(__float_as_uint(depthAt(a, indices[i])));
    values[i] = indices[i];
  } else {
    keys[i] = 0xffffffffu;
    values[i] = 0xffffffffu;
  }
}

__global__ void spritesKernel(BokehArgs a, const std::uint32_t* sortedIndices, const std::uint32_t* count) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t kept = min(*count, a.settings.maxSprites);
  if (i == 0) {
    BokehCommand c;
    c.instanceCount = kept;
    c.found = *count;
    *a.command = c;
  }
  if (i >= kept) return;
  const std::uint32_t index = sortedIndices[i];
  const int x = int(index % std::uint32_t(a.width)), y = int(index / std::uint32_t(a.width));
  const uchar4 c = surf2Dread<uchar4>(a.colour, x * int(sizeof(uchar4)), y);
  BokehSprite s{};
  s.x = float(x) + 0.5f;
  s.y = float(y) + 0.5f;
  s.depth = surf2Dread<float>(a.depth, x * int(sizeof(float)), y);
  s.radius = float(reference::cocRadius(s.depth, a.ramp));
  s.rgba = std::uint32_t(c.x) | std::uint32_t(c.y) << 8 | std::uint32_t(c.z) << 16 | 255u << 24;
  a.sprites[i] = s;
}

}  // namespace

std::size_t bokehScratchBytes(const BokehArgs& args) { return layout(args).total; }

cudaError_t launchBokehHighlights(const BokehArgs& a, void* scratch, std::size_t scratchBytes, cudaStream_t stream) {
  if (a.width <= 0 || a.height <= 0 || !a.colour || !a.depth || !a.sprites || !a.command || a.settings.maxSprites == 0)
    return cudaErrorInvalidValue;
  const Layout l = layout(a);
  if (!scratch || scratchBytes < l.total) return cudaErrorInvalidValue;
  auto* base = static_cast<unsigned char*>(scratch);
  auto* scores = reinterpret_cast<std::uint32_t*>(base + l.scores);
  auto* indices = reinterpret_cast<std::uint32_t*>(base + l.indices);
  auto* count = reinterpret_cast<std::uint32_t*>(base + l.count);
  auto* keys = reinterpret_cast<std::uint32_t*>(base + l.keys);
  auto* values = reinterpret_cast<std::uint32_t*>(base + l.values);
  auto* keysOut = reinterpret_cast<std::uint32_t*>(base + l.keysOut);
  auto* valuesOut = reinterpret_cast<std::uint32_t*>(base + l.valuesOut);

  scoreKernel<<<dim3((a.width + 31) / 32, (a.height + 7) / 8), dim3(32, 8), 0, stream>>>(a, scores);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  const CompactArgs c = compactArgs(a, scores, indices, count);
  if (const cudaError_t e = compactOf(a).launch(c, base + l.compact, l.sort - l.compact, stream); e != cudaSuccess)
    return e;
  const unsigned blocks = (a.settings.maxSprites + 255) / 256;
  keysKernel<<<blocks, 256, 0, stream>>>(a, indices, count, keys, values);
  if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  const SortArgs s = sortArgs(a, keys, values, keysOut, valuesOut);
  if (const cudaError_t e = sortOf(a).launch(s, base + l.sort, l.total - l.sort, stream); e != cudaSuccess) return e;
  spritesKernel<<<blocks, 256, 0, stream>>>(a, valuesOut, count);
  return cudaGetLastError();
}

}  // namespace satdof
