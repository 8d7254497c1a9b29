#include "harness/modes/isolate.h"

#include "harness/core/crash_note.h"

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdint>
#include <exception>

namespace vt::conform {

namespace {

// The reason a child ended abnormally, in RunIsolated's words.
std::string Ended(int status, const std::string& msg) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return std::string("crashed: ") + strsignal(sig) + (sig == SIGALRM ? " (timed out)" : "");
  }
  return msg.empty() ? "the child failed" : msg;
}

bool WriteAll(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = send(fd, p, n, MSG_NOSIGNAL);  // a dead peer is EPIPE, not SIGPIPE
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool ReadAll(int fd, char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

// A frame: one status byte, a u64 length, the bytes.
bool WriteFrame(int fd, uint8_t status, const std::string& s) {
  const uint64_t n = s.size();
  char head[9];
  head[0] = static_cast<char>(status);
  std::memcpy(head + 1, &n, 8);
  return WriteAll(fd, head, sizeof head) && WriteAll(fd, s.data(), s.size());
}

bool ReadFrame(int fd, uint8_t& status, std::string& s) {
  char head[9];
  if (!ReadAll(fd, head, sizeof head)) return false;
  uint64_t n = 0;
  std::memcpy(&n, head + 1, 8);
  status = static_cast<uint8_t>(head[0]);
  s.assign(n, '\0');
  return ReadAll(fd, s.data(), n);
}

}  // namespace

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
  if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return {false, Ended(status, msg)};
  return {true, msg};
}

bool IsolatedServer::Start(const Handler& handler, unsigned timeout_s) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return false;
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return false;
  }
  if (pid == 0) {
    DisarmCrashNote();  // the parent reports this child's crash itself
    close(fds[0]);
    uint8_t unused = 0;
    std::string request;
    // Until the parent closes its end (or retires this child).
    while (ReadFrame(fds[1], unused, request)) {
      alarm(timeout_s);
      uint8_t code = 0;
      std::string answer;
      try {
        answer = handler(request);
      } catch (const std::exception& e) {
        answer = std::string("uncaught exception: ") + e.what();
        code = 3;
      }
      alarm(0);
      if (!WriteFrame(fds[1], code, answer)) break;
    }
    _exit(0);
  }
  close(fds[1]);
  pid_ = pid;
  sock_ = fds[0];
  ++forks_;
  return true;
}

Isolated IsolatedServer::Died() {
  close(sock_);
  sock_ = -1;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  key_.clear();
  return {false, Ended(status, "the child ended without an answer")};
}

Isolated IsolatedServer::Call(const std::string& key, const Handler& handler, const std::string& request,
                              unsigned timeout_s) {
  if (pid_ > 0 && key != key_) Retire();
  if (pid_ < 0) {
    if (!Start(handler, timeout_s)) return {true, handler(request)};  // no fork: in-process, as RunIsolated
    key_ = key;
  }
  if (!WriteFrame(sock_, 0, request)) return Died();
  uint8_t code = 0;
  std::string answer;
  if (!ReadFrame(sock_, code, answer)) return Died();
  if (code != 0) {
    Retire();
    return {false, answer};
  }
  return {true, answer};
}

void IsolatedServer::Retire() {
  if (pid_ < 0) return;
  close(sock_);  // the child reads the end of its requests and exits
  sock_ = -1;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  key_.clear();
}

}  // namespace vt::conform
