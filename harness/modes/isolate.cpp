#include "harness/modes/isolate.h"

#include "harness/core/crash_note.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>

namespace vt::conform {

Isolated RunIsolated(const std::function<std::string()>& fn, unsigned timeout_s) {
  int fds[2];
  if (pipe(fds) != 0) return {true, fn()};
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return {true, fn()};
  }
  if (pid == 0) {
    DisarmCrashNote();  // the parent reports this child's crash itself
    close(fds[0]);
    alarm(timeout_s);
    std::string msg;
    int code = 0;
    try {
      msg = fn();
    } catch (const std::exception& e) {
      msg = std::string("uncaught exception: ") + e.what();
      code = 3;
    }
    for (std::size_t done = 0; done < msg.size();) {
      const ssize_t n = write(fds[1], msg.data() + done, msg.size() - done);
      if (n <= 0 && errno != EINTR) break;
      if (n > 0) done += static_cast<std::size_t>(n);
    }
    _exit(code);
  }
  close(fds[1]);
  std::string msg;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) {
      msg.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return {false, std::string("crashed: ") + strsignal(sig) + (sig == SIGALRM ? " (timed out)" : "")};
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return {false, msg.empty() ? "the child failed" : msg};
  return {true, msg};
}

}  // namespace vt::conform
