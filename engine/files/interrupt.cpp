// engine/files/interrupt.cpp — see interrupt.h. The handler writes one lock-free atomic (and,
// for a second signal, calls the async-signal-safe signal() and raise()).
#include "engine/files/interrupt.h"

#include <atomic>
#include <csignal>

namespace satdof::files {

namespace {
std::atomic<int> gSignal{0};  // the process's one signal slot: signal handlers need a global
static_assert(std::atomic<int>::is_always_lock_free);

// A second signal, where the first has not ended the run (a long step that looks at no
// flag), ends it at once, as it would without the handler.
extern "C" void onInterrupt(int signal) {
  if (gSignal.exchange(signal, std::memory_order_relaxed) != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}
}  // namespace

void installInterruptHandlers() {
  struct sigaction action {};
  action.sa_handler = &onInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking wait returns, and the loop looks at the flag
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupted() { return gSignal.load(std::memory_order_relaxed); }

int interruptExitCode() {
  const int s = interrupted();
  return s ? 128 + s : 0;
}

const char* interruptName() {
  switch (interrupted()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "";
  }
}

}  // namespace satdof::files
