// negative mode: each error case (one violated precondition of a valid case)
// must be refused with vt::Error naming the op, and every operand - guards and
// strided gaps included - must come back byte-unchanged (validate before
// mutate), and the refusal must name what was broken (ErrorCase::expect). Cases run in a forked child at 1 thread so that a missing check
// that crashes or hangs the kernel is reported, not fatal to the run.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "harness/catalog/claims.h"
#include "harness/modes/mode.h"
#include "vt/error.h"

namespace vt::conform {
namespace {

const ErrorCase* FindError(const OpSpec& op, const std::string& name) {
  for (const ErrorCase& e : op.errors) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// Whether a refusal's condition names what the error case broke.
bool NamesTheViolation(const std::string& condition, const std::string& expect) {
  if (expect.empty()) return true;
  std::size_t start = 0;
  for (;;) {
    const std::size_t bar = expect.find('|', start);
    const std::string fragment = expect.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (!fragment.empty() && condition.find(fragment) != std::string::npos) return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

struct Verdict {
  Outcome status = Outcome::kPassed;
  std::string reason;
};

// Runs one mutated case in-process and judges it.
Verdict Judge(const OpSpec& op, const ErrorCase& ec, const Case& c) {
  Workspace ws(c);
  Verdict v;
  try {
    op.run(vt::ExecContext{vt::Backend::kCPU, 1, false}, ws);
    v.status = Outcome::kFailedIncorrect;
    v.reason = "accepted an invalid case (no vt::Error)";
  } catch (const vt::Error& e) {
    if (e.op() != op.name) {
      v.status = Outcome::kFailedIncorrect;
      v.reason = "refused by '" + e.op() + "' instead of '" + op.name + "': " + e.what();
    } else if (!NamesTheViolation(e.condition(), ec.expect)) {
      v.status = Outcome::kFailedIncorrect;
      v.reason = std::string("refused for another reason: ") + e.what() + " (expected a condition about '" +
                 ec.expect + "')";
    } else {
      v.reason = e.what();
    }
  } catch (const std::exception& e) {
    v.status = Outcome::kFailedError;
    v.reason = std::string("threw a non-vt::Error exception: ") + e.what();
  }
  const std::string guards = ws.CheckGuards();
  const Case after = ws.Snapshot();
  for (const TensorData& t : c.tensors) {
    if (after.Get(t.name).storage != t.storage) {
      v.status = Outcome::kFailedIncorrect;
      v.reason = "operand " + t.name + " was modified (" + v.reason + ")";
      return v;
    }
  }
  if (!guards.empty()) {
    v.status = Outcome::kFailedIncorrect;
    v.reason = "wrote outside its operands: " + guards;
  }
  return v;
}

// The same in a forked child, which reports "<status>\n<reason>" on a pipe.
Verdict JudgeIsolated(const OpSpec& op, const ErrorCase& ec, const Case& c) {
  int fds[2];
  if (pipe(fds) != 0) return Judge(op, ec, c);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return Judge(op, ec, c);
  }
  if (pid == 0) {
    close(fds[0]);
    alarm(20);  // a missing check may send the kernel into a huge loop
    const Verdict v = Judge(op, ec, c);
    const std::string msg = std::to_string(static_cast<int>(v.status)) + "\n" + v.reason;
    const ssize_t ignored = write(fds[1], msg.data(), msg.size());
    (void)ignored;
    _exit(0);
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
  Verdict v;
  if (WIFSIGNALED(status)) {
    v.status = Outcome::kFailedError;
    v.reason = std::string("crashed: ") + strsignal(WTERMSIG(status)) + " (a missing check let the kernel run)";
    return v;
  }
  const std::size_t nl = msg.find('\n');
  if (nl == std::string::npos) {
    v.status = Outcome::kFailedError;
    v.reason = "the isolated child reported nothing";
    return v;
  }
  v.status = static_cast<Outcome>(std::stoi(msg.substr(0, nl)));
  v.reason = msg.substr(nl + 1);
  return v;
}

class NegativeMode : public Mode {
 public:
  std::string_view name() const override { return "negative"; }
  bool Covers(const OpSpec& op) const override { return !op.errors.empty(); }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    const int want = DrawCount(name(), cfg.tier);
    const std::vector<Params> pool = TierCases(op, cfg, std::max(want * 16, 24));
    std::vector<CaseRef> refs;
    for (const ErrorCase& ec : op.errors) {
      int n = 0;
      for (const Params& p : pool) {
        if (n == want) break;
        Case probe = MakeCase(op, p);
        if (!ec.mutate(probe)) continue;
        refs.push_back({p.Identity() + "!" + ec.name, p, ec.name, ""});
        ++n;
      }
      if (n == 0) {
        CaseRef none;
        none.id = op.name + "!" + ec.name;
        none.variant = ec.name;
        none.note = "error case '" + ec.name + "' applies to none of " + std::to_string(pool.size()) + " drawn cases";
        refs.push_back(none);
      }
    }
    return refs;
  }

  CaseRef Parse(const OpSpec& op, const std::string& id) const override {
    const std::size_t bang = id.rfind('!');
    if (bang == std::string::npos) throw std::invalid_argument("negative case ids end in !error");
    CaseRef r = Mode::Parse(op, id.substr(0, bang));
    r.id = id;
    r.variant = id.substr(bang + 1);
    return r;
  }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    if (!ref.note.empty()) {
      r.status = Outcome::kSkipped;
      r.reason = ref.note;
      return r;
    }
    const ErrorCase* ec = FindError(op, ref.variant);
    if (ec == nullptr) {
      r.status = Outcome::kFailedError;
      r.reason = "no error case named '" + ref.variant + "'";
      return r;
    }
    Case c = MakeCase(op, ref.params);
    if (!ec->mutate(c)) {
      r.status = Outcome::kSkipped;
      r.reason = "error case does not apply to this case";
      return r;
    }
    Materialize(c);
    r.tolerance = "refused with vt::Error, operands unchanged";
    const Verdict v = cfg.isolate ? JudgeIsolated(op, *ec, c) : Judge(op, *ec, c);
    r.status = v.status;
    r.reason = v.status == Outcome::kPassed ? "refused: " + v.reason : v.reason;
    return r;
  }
};

}  // namespace

std::unique_ptr<Mode> MakeNegativeMode() { return std::make_unique<NegativeMode>(); }

}  // namespace vt::conform
