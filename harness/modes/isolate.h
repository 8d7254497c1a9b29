// Runs code under test in a forked child so that a crash, an abort or a hang
// (a missing validator check lets a kernel run on bad input) is reported
// instead of ending the whole run.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

namespace vt::conform {

struct Isolated {
  bool ok = false;       // the child returned normally
  std::string output;    // what the function returned (ok) or why not (!ok)
};

// `fn` runs in a child of its own; its string comes back over a pipe. The
// child is killed after `timeout_s` seconds. Falls back to running in-process
// when fork() is unavailable.
Isolated RunIsolated(const std::function<std::string()>& fn, unsigned timeout_s);

// A forked child that answers many requests: one fork per key (an op) instead
// of one per case. A fork costs in proportion to what the parent has mapped
// (libtorch, the CUDA emulation, earlier ops' buffers), and one per negative
// case was most of the gate's system time (docs/performance.md). A request
// that crashes or hangs the child is reported as RunIsolated reports it, and
// the next request forks a fresh child. The child is a copy of the parent
// at the fork: `handler` must compute its answer from the request alone.
class IsolatedServer {
 public:
  using Handler = std::function<std::string(const std::string& request)>;

  IsolatedServer() = default;
  IsolatedServer(const IsolatedServer&) = delete;
  IsolatedServer& operator=(const IsolatedServer&) = delete;
  ~IsolatedServer() { Retire(); }

  // handler(request) in the child serving `key`; the child is forked (with
  // this handler) on first use, after a crash or Retire(), or when the key
  // changes. The child is killed after `timeout_s` seconds on one request.
  Isolated Call(const std::string& key, const Handler& handler, const std::string& request, unsigned timeout_s);

  // Ends the child: the caller's next request gets a fresh copy of the
  // parent (after an answer that says the code under test ran on bad input,
  // whatever it left behind in the child must not reach the next case).
  void Retire();

  // Children forked so far (tests: one per key, not one per request).
  int forks() const { return forks_; }

 private:
  bool Start(const Handler& handler, unsigned timeout_s);
  Isolated Died();

  pid_t pid_ = -1;
  int sock_ = -1;
  std::string key_;
  int forks_ = 0;
};

}  // namespace vt::conform
