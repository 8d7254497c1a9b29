// Runs a function in a forked child so that a crash, an abort or a hang of
// the code under test (a missing validator check lets a kernel run on bad
// input) is reported instead of ending the whole run.
#pragma once

#include <functional>
#include <string>

namespace vt::conform {

struct Isolated {
  bool ok = false;       // the child returned normally
  std::string output;    // what the function returned (ok) or why not (!ok)
};

// `fn` runs in the child; its string comes back over a pipe. The child is
// killed after `timeout_s` seconds. Falls back to running in-process when
// fork() is unavailable.
Isolated RunIsolated(const std::function<std::string()>& fn, unsigned timeout_s);

}  // namespace vt::conform
