// threads mode: the bytes of every operand (outputs and in-place ones, gaps
// included) at threads {2,3,4,7,8,16}, and with the GEMM steal switch, must
// equal the bytes at 1 thread.
#include <cstring>

#include "harness/catalog/claims.h"
#include "harness/modes/mode.h"
#include "harness/modes/thread_counts.h"

namespace vt::conform {
namespace {

struct Variant {
  int threads;
  bool steal;
};
constexpr Variant kVariants[] = {{2, false}, {3, false}, {4, false}, {7, false}, {8, false},
                                 {16, false}, {4, true},  {16, true}};

class ThreadsMode : public Mode {
 public:
  std::string_view name() const override { return "threads"; }
  bool Covers(const OpSpec& op) const override { return op.run != nullptr; }

  std::vector<CaseRef> Enumerate(const OpSpec& op, const RunConfig& cfg) const override {
    return TierRefs(op, cfg, name());
  }

  CaseResult Check(const OpSpec& op, const CaseRef& ref, const RunConfig& cfg) const override {
    CaseResult r = StartResult(op, name(), ref, cfg);
    const Case c = MakeCase(op, ref.params);
    try {
      const Execution base = Execute(op, c, vt::ExecContext{vt::Backend::kCPU, 1, false});
      if (!base.guard_error.empty()) {
        r.status = Outcome::kFailedError;
        r.reason = "threads=1: " + base.guard_error;
        return r;
      }
      for (const Variant& v : kVariants) {
        const Execution run = Execute(op, c, vt::ExecContext{vt::Backend::kCPU, v.threads, v.steal});
        const std::string label = "threads=" + std::to_string(v.threads) + (v.steal ? " steal" : "");
        if (!run.guard_error.empty()) {
          r.status = Outcome::kFailedError;
          r.reason = label + ": " + run.guard_error;
          return r;
        }
        for (const TensorData& t : run.after.tensors) {
          const TensorData& b = base.after.Get(t.name);
          if (t.storage != b.storage) {
            r.status = Outcome::kFailedIncorrect;
            const std::string d = DiffBytes(t, b);
            r.reason = label + ": " + t.name + " differs from threads=1" + (d.empty() ? " (in a gap)" : ": " + d);
            return r;
          }
        }
      }
    } catch (const std::exception& e) {
      r.status = Outcome::kFailedError;
      r.reason = std::string("refused or failed on a valid case: ") + e.what();
    }
    return r;
  }
};

}  // namespace

std::vector<int> ThreadsModeCounts() {
  std::vector<int> out = {1};
  for (const Variant& v : kVariants) {
    if (!v.steal) out.push_back(v.threads);
  }
  return out;
}

std::unique_ptr<Mode> MakeThreadsMode() { return std::make_unique<ThreadsMode>(); }

}  // namespace vt::conform
