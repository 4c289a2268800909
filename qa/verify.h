// qa/verify.h — "verify": the frame's outputs, read back, against the CPU reference of
// the same inputs (satdof/reference): the summed-area table byte for byte, convolution
// A against the reference arithmetic it matches (direct, separable or box sum), the DoF
// image byte for byte (the layered DoF within one grey level, as its own test allows),
// and with bokeh highlights the sprite list and its command, every byte but the padding.
// Pure: the app reads the frame back (app_actions.cpp) and shows the lines in the panel;
// VerifyVerdict keeps them with what they describe, and goes stale when that changes.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "satdof/reference/bokeh.h"
#include "satdof/reference/conv.h"
#include "satdof/reference/dof.h"
#include "satdof/reference/image.h"
#include "satdof/sat_format.h"

namespace satdof {

struct FrameCopy {
  reference::ImageRgba8 scene;     // the scene colour
  reference::ImageRgba8 source;    // the SAT's input: filter A's output, or the scene colour
  reference::ImageR32F depth;
  std::vector<std::uint8_t> sat;   // the table's bytes, in `format`
  reference::ImageRgba8 dof;       // the DoF output
  // The scene's second layer when the see-through DoF used it (else empty).
  reference::ImageRgba8 behindColour;
  reference::ImageR32F behindDepth;
  reference::BokehCommand bokehCommand;              // with bokeh: this frame's command
  std::vector<reference::BokehSprite> bokehSprites;  // and its instanceCount sprites
};

struct VerifyRequest {
  SatFormat format = SatFormat::Uint32;
  reference::DofParams params;
  std::string dofName;
  bool layeredDof = false;                 // the near/far-field DoF (its own reference)
  bool linearLight = false;                // ... in linear light (see-through-linear)
  std::optional<std::string> dofSkipped;   // why the DoF image is not checked (bokeh drawn on it)
  bool showCoc = false;                    // the DoF output shows the blur radius instead
  std::optional<Filter> filter;  // set when A filtered this frame
  Border border = Border::Clamp;
  std::string filterName;
  std::optional<reference::BokehSettings> bokeh;  // set when the frame built a sprite list
  reference::CocRamp bokehRamp;
};

struct VerifyLine {
  bool ok = false;
  std::string text;  // "SAT (uint32): identical to the reference, 5,472,000 bytes"
};

std::vector<VerifyLine> verifyFrame(const FrameCopy& frame, const VerifyRequest& request);

// What a verdict describes, by name: each setting that changes the outputs it checks (the
// options, the backend's choices), the backend and the image size ("focal" -> "14").
using VerifySubject = std::map<std::string, std::string>;

// The last verdict and what it describes. Once the pipeline makes something else (a
// setting, the backend or the size changed, the settings were reset, the shaders
// reloaded) the lines are kept, marked stale with the reason, until the next verify.
struct VerifyVerdict {
  std::vector<VerifyLine> lines;
  VerifySubject subject;
  std::string stale;  // why the lines no longer describe the frame; empty: they do

  // Marks a current verdict stale with `why`; true when it was current.
  bool markStale(const std::string& why);
  // Marks a current verdict stale when `now` differs from its subject, naming the first
  // setting that changed ("focal changed: 7 -> 20"); true when it just went stale.
  bool follow(const VerifySubject& now);
};

}  // namespace satdof
