// tests/add_one_more/option_test_focal_cm.cpp — a live option added from outside settings/:
// the focal distance in hundredths of the scene's unit, another name of --focal (sameAs: the
// settings file keeps focal). Registered from this file's static initialiser
// (registerLiveOption): the flag, --help, a script's `set` and the checks read it from there.
#include <string>

#include "settings/live_options.h"

namespace {

using namespace satdof;

const LiveOption kFocalCm{
    "test-focal-cm", "The focal distance in hundredths of the scene's unit (as --focal)", 1, 1e6, "",
    [](const LiveOption& self, Options& o, std::string_view v) -> std::optional<std::string> {
      float cm = 0;
      if (auto e = readNumber(v, self.lo, self.hi, cm)) return e;
      o.dof.params.focalDistance = cm / 100.0f;
      o.focusFromScene = false;
      return std::nullopt;
    },
    [](const Options& o) {
      return o.focusFromScene ? std::string() : std::to_string(o.dof.params.focalDistance * 100.0f);
    },
    false, AppliesTo::Always, {}, nullptr, "focal"};

const bool registered = (registerLiveOption(kFocalCm), true);

}  // namespace
