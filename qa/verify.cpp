// qa/verify.cpp — see verify.h.
#include "qa/verify.h"

#include <algorithm>
#include <cstdlib>

#include "engine/passes/scene_pass.h"
#include "satdof/reference/layered_dof.h"
#include "satdof/reference/sat.h"

namespace satdof {
namespace {

// Largest per-channel difference and how many bytes differ.
struct Difference {
  int largest = 0;
  std::size_t bytes = 0;
};
Difference compare(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  Difference d;
  if (a.size() != b.size()) return {255, std::max(a.size(), b.size())};
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) {
      ++d.bytes;
      d.largest = std::max(d.largest, std::abs(int(a[i]) - int(b[i])));
    }
  return d;
}

std::string bytesText(std::size_t n) { return std::to_string(n) + " bytes"; }

VerifyLine imageLine(const std::string& what, const Difference& d, std::size_t total, int allowed) {
  if (d.bytes == 0) return {true, what + ": identical to the reference (" + bytesText(total) + ")"};
  return {d.largest <= allowed, what + ": " + std::to_string(d.bytes) + " of " + bytesText(total) +
                                    " differ from the reference, by up to " + std::to_string(d.largest) +
                                    " grey levels" + (d.largest <= allowed ? " (within its allowance)" : "")};
}

}  // namespace

std::vector<VerifyLine> verifyFrame(const FrameCopy& f, const VerifyRequest& r) {
  std::vector<VerifyLine> lines;
  const std::string format(satFormatInfo(r.format).name);

  if (r.filter) {  // A against each reference arithmetic; the one it matches names it
    const ConvMath maths[] = {ConvMath::Direct, ConvMath::Separable,
                                         ConvMath::BoxSum};
    std::optional<std::pair<ConvMath, Difference>> best;
    for (ConvMath m : maths) {
      if (m == ConvMath::Separable && !r.filter->separable) continue;
      if (m == ConvMath::BoxSum && r.filter->kind != FilterKind::Box) continue;
      const Difference d = compare(reference::convolve(f.scene, *r.filter, r.border, m).pixels, f.source.pixels);
      if (!best || d.bytes < best->second.bytes) best = {m, d};
    }
    lines.push_back(imageLine("filter A (" + r.filterName + ", " + std::string(toString(best->first)) +
                                  " arithmetic)",
                              best->second, f.source.pixels.size(), 0));
  }

  const reference::Sat sat = reference::computeSat(f.source, r.format);
  const Difference satDiff = compare(reference::satTableBytesOf(sat), f.sat);
  lines.push_back(satDiff.bytes == 0
                      ? VerifyLine{true, "SAT (" + format + "): identical to the reference (" + bytesText(f.sat.size()) + ")"}
                      : VerifyLine{false, "SAT (" + format + "): " + std::to_string(satDiff.bytes) + " of " +
                                              bytesText(f.sat.size()) + " differ from the reference"});

  if (r.bokeh) {
    const reference::BokehList want = reference::bokehHighlights(f.source, f.depth, r.bokehRamp, *r.bokeh);
    const reference::BokehCommand c = reference::bokehCommand(want);
    const reference::BokehCommand& g = f.bokehCommand;
    bool same = g.count == c.count && g.instanceCount == c.instanceCount && g.first == c.first &&
                g.baseInstance == c.baseInstance && g.found == c.found;
    std::size_t wrong = 0;
    for (std::size_t i = 0; same && i < want.sprites.size(); ++i) {
      const reference::BokehSprite &a = want.sprites[i], &b = f.bokehSprites[i];
      wrong += !(a.x == b.x && a.y == b.y && a.radius == b.radius && a.depth == b.depth && a.rgba == b.rgba);
    }
    const std::string counts = std::to_string(c.instanceCount) + " sprites of " + std::to_string(c.found) + " highlights";
    lines.push_back(!same   ? VerifyLine{false, "bokeh list: the command says " + std::to_string(g.instanceCount) +
                                                    " sprites of " + std::to_string(g.found) + ", the reference " + counts}
                    : wrong ? VerifyLine{false, "bokeh list: " + std::to_string(wrong) + " of " + counts +
                                                    " differ from the reference"}
                            : VerifyLine{true, "bokeh list: identical to the reference (" + counts + ")"});
  }

  // The disc aperture named beside the implementation (the box, as always, is not).
  const std::string dof = "DoF (" + r.dofName + (r.params.aperture == reference::Aperture::Disc ? ", disc)" : ")");
  if (r.dofSkipped) {
    lines.push_back({true, dof + ": not checked: " + *r.dofSkipped});
  } else if (r.layeredDof) {
    const reference::BehindLayer behind{f.behindColour, f.behindDepth, ScenePass::kSkyDepth};
    const bool seeThrough = f.behindColour.width > 0;
    const auto expected = reference::layeredDepthOfField(f.source, f.depth, r.params, r.format,
                                                         seeThrough ? &behind : nullptr, r.linearLight);
    lines.push_back(imageLine(dof, compare(expected.pixels, f.dof.pixels), f.dof.pixels.size(), 1));
  } else {
    const auto expected = reference::depthOfField(sat, f.depth, r.params, r.showCoc);
    lines.push_back(imageLine(dof, compare(expected.pixels, f.dof.pixels), f.dof.pixels.size(), 0));
  }
  return lines;
}

bool VerifyVerdict::markStale(const std::string& why) {
  if (lines.empty() || !stale.empty()) return false;
  stale = why;
  return true;
}

bool VerifyVerdict::follow(const VerifySubject& now) {
  if (lines.empty() || !stale.empty() || now == subject) return false;
  for (const auto& [name, value] : now) {
    const auto was = subject.find(name);
    if (was == subject.end()) return markStale(name + " set: " + value);
    if (was->second != value) return markStale(name + " changed: " + was->second + " -> " + value);
  }
  for (const auto& [name, value] : subject)
    if (!now.count(name)) return markStale(name + " no longer set (was " + value + ")");
  return false;
}

}  // namespace satdof
