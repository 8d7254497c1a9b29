#include "harness/upstream/worker_client.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/golden/golden_io.h"
#include "harness/golden/manifest.h"

namespace vt::conform::upstream {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A failure of the channel (timeout, end of file, a write to a dead worker):
// the case's error line, and the worker is restarted.
struct ChannelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void WriteAll(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw ChannelError(std::string("the worker stopped reading (") + std::strerror(errno) + ")");
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

void ReadAll(int fd, void* data, std::size_t n, Clock::time_point deadline, double limit_s) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) throw ChannelError("no answer within the time limit of " + std::to_string(static_cast<int>(limit_s)) + " s");
    pollfd pf{fd, POLLIN, 0};
    const int r = ::poll(&pf, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    const ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) throw ChannelError("the worker exited");
    p += got;
    n -= static_cast<std::size_t>(got);
  }
}

void WriteFrame(int fd, const Json& header, const std::vector<const TensorData*>& tensors) {
  const std::string text = header.dump();
  uint64_t n = text.size();
  unsigned char len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(n >> (8 * i));
  WriteAll(fd, len, 8);
  WriteAll(fd, text.data(), text.size());
  for (const TensorData* t : tensors) {
    if (!t->storage.empty()) WriteAll(fd, t->storage.data(), t->storage.size());
  }
}

// The reply's header, then its tensors (each checked against the manifest
// dtype's element size before it is read: a bad header is an error line,
// never an allocation of whatever it says).
Reply ReadReply(int fd, Clock::time_point deadline, double limit_s) {
  unsigned char len[8];
  ReadAll(fd, len, 8, deadline, limit_s);
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(len[i]) << (8 * i);
  if (n > kMaxManifestBytes) throw ChannelError("a reply header of " + std::to_string(n) + " bytes");
  std::string text(n, '\0');
  ReadAll(fd, text.data(), n, deadline, limit_s);
  Reply r;
  r.header = Json::parse(text);
  const std::string status = r.header.value("status", "");
  if (status != "ok" && status != "ready") {
    r.unsupported = status == "unsupported";
    r.error = r.header.value("error", "the worker answered '" + status + "'");
    return r;
  }
  for (const Json& spec : r.header.value("tensors", Json::array())) {
    TensorData t;
    t.name = spec.at("name").get<std::string>();
    const auto dt = ParseGoldenDType(spec.at("dtype").get<std::string>());
    if (!dt) throw ChannelError("a reply tensor of unknown dtype " + spec.at("dtype").dump());
    t.dtype = dt->dtype;
    t.fmt = dt->fmt;
    t.shape = spec.at("shape").get<std::vector<int64_t>>();
    t.role = Role::kOutput;
    t.SetContiguous();
    const uint64_t bytes = spec.at("nbytes").get<uint64_t>();
    if (bytes != static_cast<uint64_t>(t.Numel()) * vt::SizeOf(t.dtype)) {
      throw ChannelError("reply tensor '" + t.name + "' has " + std::to_string(bytes) + " bytes for its shape");
    }
    t.storage.resize(bytes);
    ReadAll(fd, t.storage.data(), bytes, deadline, limit_s);
    r.outputs.push_back(std::move(t));
  }
  r.ok = true;
  return r;
}

}  // namespace

std::string RegenVenvDir() {
  if (const char* v = std::getenv("VT_REGEN_VENV"); v != nullptr && *v != '\0') return v;
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr ? home : "") + "/.cache/vt-conform/regen-venv";
}

std::string MissingEnvironment(bool need_triton) {
  const std::string venv = RegenVenvDir();
  std::error_code ec;
  if (fs::exists(venv + "/bin/python", ec) && fs::exists(venv + "/vt-regen-stamp.json", ec)) return "";
  return "no regeneration environment at " + venv + " (set by VT_REGEN_VENV): run `vt-golden regen --setup" +
         (need_triton ? " --with-triton" : "") + "` first";
}

Worker::Worker(std::string python, std::string script, bool need_triton, std::string log)
    : python_(std::move(python)), script_(std::move(script)), log_(std::move(log)), need_triton_(need_triton) {
  std::signal(SIGPIPE, SIG_IGN);  // a dead worker is an EPIPE on write, not the end of vt-fuzz
}

Worker::~Worker() {
  if (pid_ > 0) {
    ::close(to_fd_);  // end of input: the worker's loop returns
    to_fd_ = -1;
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      ::usleep(20000);
    }
  }
  Kill();
}

void Worker::Kill() {
  if (to_fd_ >= 0) ::close(to_fd_);
  if (from_fd_ >= 0) ::close(from_fd_);
  to_fd_ = from_fd_ = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

std::string Worker::LastLogLine() const {
  std::ifstream f(log_);
  std::string line, last;
  while (std::getline(f, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

std::string Worker::Start(double timeout_s) {
  if (pid_ > 0) return "";
  int to[2], from[2];
  if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  const int log_fd = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  // argv built before fork: the child of a threaded process only calls
  // async-signal-safe functions until execv.
  std::vector<std::string> args = {python_, script_};
  if (need_triton_) args.push_back("--with-triton");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return std::string("fork: ") + std::strerror(errno);
  if (pid == 0) {
    ::dup2(to[0], 0);
    ::dup2(from[1], 1);
    if (log_fd >= 0) ::dup2(log_fd, 2);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  ::close(to[0]);
  ::close(from[1]);
  if (log_fd >= 0) ::close(log_fd);
  pid_ = pid;
  to_fd_ = to[1];
  from_fd_ = from[0];
  if (starts_++ > 0) ++restarts_;
  try {
    Reply hello = ReadReply(from_fd_, Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000)),
                            timeout_s);
    if (!hello.ok) {
      Kill();
      return hello.error;
    }
    hello_ = hello.header;
    return "";
  } catch (const std::exception& e) {
    Kill();
    const std::string last = LastLogLine();
    return std::string("the upstream worker did not start: ") + e.what() + (last.empty() ? "" : " (" + last + ")");
  }
}

Reply Worker::Call(const UpstreamCall& call, double timeout_s) {
  Reply r;
  if (pid_ <= 0) {
    const std::string why = Start(std::max(timeout_s, 120.0));
    if (!why.empty()) {
      r.error = why;
      return r;
    }
  }
  Json header = {{"op", call.op}, {"args", call.args}, {"tensors", Json::array()}, {"outputs", Json::object()}};
  std::vector<const TensorData*> payload;
  for (const TensorData& t : call.inputs) {
    header["tensors"].push_back({{"name", t.name},
                                 {"dtype", GoldenDTypeName(t.dtype, t.fmt)},
                                 {"shape", t.shape},
                                 {"nbytes", t.storage.size()}});
    payload.push_back(&t);
  }
  for (const TensorData& t : call.outputs) header["outputs"][t.name] = GoldenDTypeName(t.dtype, t.fmt);
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
  try {
    WriteFrame(to_fd_, header, payload);
    return ReadReply(from_fd_, deadline, timeout_s);
  } catch (const std::exception& e) {
    Kill();  // the next call starts a fresh worker
    const std::string last = LastLogLine();
    r.ok = false;
    r.error = std::string("upstream worker: ") + e.what() + (last.empty() ? "" : " (last stderr line: " + last + ")");
    return r;
  }
}

}  // namespace vt::conform::upstream
