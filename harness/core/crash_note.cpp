#include "harness/core/crash_note.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>

namespace vt::conform {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
constexpr std::size_t kCapacity = 8192;

// Two buffers and an index flipped after the new one is complete: a signal
// arriving while a note is being written still finds a whole (older) note.
char g_notes[2][kCapacity];
std::size_t g_lengths[2] = {0, 0};
volatile sig_atomic_t g_current = 0;
bool g_armed = false;

void OnFatal(int sig) {
  const int i = g_current;
  if (g_lengths[i] > 0) {
    const char head[] = "\nvt-conform: the process is dying (fatal signal) while running:\n";
    (void)!write(STDERR_FILENO, head, sizeof head - 1);
    (void)!write(STDERR_FILENO, g_notes[i], g_lengths[i]);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void ArmCrashNote() {
  if (g_armed) return;
  g_armed = true;
  for (int sig : kSignals) {
    struct sigaction sa {};
    sa.sa_handler = OnFatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigaction(sig, &sa, nullptr);
  }
}

void SetCrashNote(const std::string& note) {
  const int next = 1 - g_current;
  const std::size_t n = std::min(note.size(), kCapacity);
  std::memcpy(g_notes[next], note.data(), n);
  g_lengths[next] = n;
  g_current = next;
}

void DisarmCrashNote() {
  if (!g_armed) return;
  g_armed = false;
  for (int sig : kSignals) signal(sig, SIG_DFL);
}

}  // namespace vt::conform
