// engine/files/interrupt.h — SIGINT and SIGTERM end a run at a frame boundary, never in the
// middle of writing a file: the handler only records the signal; the frame loops (the
// window's, headless, every tool's) ask interrupted() between frames and stop, and main
// exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM). A file being written
// when the signal comes is finished first (safe_write.h renames it into place whole). A
// second signal ends the process at once, as without the handlers (a run that is stuck).
#pragma once

namespace satdof::files {

// Installs the handlers (once, from main).
void installInterruptHandlers();
// The signal received, or 0.
int interrupted();
// 128 + the signal received (0 when none).
int interruptExitCode();
// "SIGINT" or "SIGTERM" (empty when none), for the line that says why the run stopped.
const char* interruptName();

}  // namespace satdof::files
