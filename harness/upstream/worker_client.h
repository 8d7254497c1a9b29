// The C++ end of the upstream worker (golden/regen/vt_regen/worker.py): one
// Python process in the `vt-golden regen --setup` environment, started once
// per vt-fuzz run and kept, spoken to over pipes in frames of a
// length-prefixed JSON header and raw little-endian tensor bytes (the worker's
// docstring has the protocol). A case that takes longer than its time limit,
// or a worker that dies, is that case's error: the worker is killed and
// started again for the next case.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

#include "harness/golden/upstream_call.h"

namespace vt::conform::upstream {

// $VT_REGEN_VENV, else ~/.cache/vt-conform/regen-venv (vt_regen/env.py's rule).
std::string RegenVenvDir();
// "" when the environment's python and its setup stamp exist, else the one
// line naming `vt-golden regen --setup` (the worker checks the lock's digest
// itself when it starts).
std::string MissingEnvironment(bool need_triton);

struct Reply {
  bool ok = false;
  bool unsupported = false;       // upstream's result cannot be a golden here (e.g. it overflowed)
  std::string error;              // one line, when !ok
  Json header;                    // the reply header (tol, tol_reason, args, oracle)
  std::vector<TensorData> outputs;  // contiguous, named as in the manifest
};

class Worker {
 public:
  // python: the environment's interpreter; script: worker.py; log: the
  // worker's stderr (torch / vLLM chatter, tracebacks) is appended there.
  Worker(std::string python, std::string script, bool need_triton, std::string log);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts the process if it is not running and waits for its hello (at most
  // `timeout_s`). Returns "" or the one line saying why it cannot serve.
  std::string Start(double timeout_s);
  // One request. Never throws for the worker's failures: a timeout, a crash
  // or an error reply comes back as !ok with one line (and the worker is
  // restarted by the next call after a timeout or a crash).
  Reply Call(const UpstreamCall& call, double timeout_s);
  int restarts() const { return restarts_; }
  const Json& hello() const { return hello_; }

 private:
  void Kill();
  std::string LastLogLine() const;
  std::string python_, script_, log_;
  bool need_triton_;
  pid_t pid_ = -1;
  int to_fd_ = -1, from_fd_ = -1;
  int starts_ = 0, restarts_ = 0;
  Json hello_;
};

}  // namespace vt::conform::upstream
