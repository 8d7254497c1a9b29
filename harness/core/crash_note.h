// A fatal signal (a kernel writing out of bounds, a failed assert) ends the
// process before any report is written. The crash note makes that end still
// name the case: before each case the runner records one line (what runs,
// and its repro command); a handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and
// SIGABRT writes it to stderr with async-signal-safe calls only, then lets
// the signal kill the process as it would have (the exit status is
// unchanged, so vt-mutate and CI still see a crash).
#pragma once

#include <string>

namespace vt::conform {

// Installs the handlers (idempotent).
void ArmCrashNote();
// The note printed if the process dies now; "" clears it. Truncated to 8 KiB.
void SetCrashNote(const std::string& note);
// Restores the default dispositions: a forked child whose crash its parent
// reports (negative mode's isolation) must not print the parent's note.
void DisarmCrashNote();

}  // namespace vt::conform
