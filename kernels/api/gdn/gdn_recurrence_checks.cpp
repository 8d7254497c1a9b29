#include "api/gdn/gdn_recurrence_checks.h"

#include <string>
#include <unordered_set>

namespace vt::api {

GdnDims CheckGdnOperands(const Checker& c, const ExecContext& ctx, const Tensor& out,
                         const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& g,
                         const Tensor& beta, const Tensor& state, const GdnArgs& args) {
  struct Op {
    const Tensor* t;
    const char* name;
    int rank;
  };
  const Op ops[] = {{&q, "q", 3},    {&k, "k", 3},       {&v, "v", 3},        {&out, "out", 3},
                    {&g, "g", 2},    {&beta, "beta", 2}, {&state, "state", 4}};
  for (const Op& o : ops) {
    c.Operand(ctx, *o.t, o.name);
    c.Rank(*o.t, o.name, o.rank);
    c.Contiguous(*o.t, o.name);
  }
  c.FloatIn(q, "q");
  c.FloatIn(k, "k");
  c.FloatIn(v, "v");
  c.FloatOut(out, "out");
  c.DType(g, "g", {vt::DType::kF32});
  c.DType(beta, "beta", {vt::DType::kF32});
  c.DType(state, "state", {vt::DType::kF32});
  GdnDims d;
  d.t = q.shape[0];
  d.hk = q.shape[1];
  d.dk = q.shape[2];
  d.slots = state.shape[0];
  d.hv = state.shape[1];
  d.dv = state.shape[2];
  c.Require("q.heads", d.hk >= 1 && d.dk >= 1, "q must have Hk >= 1 and Dk >= 1, got " + q.Describe());
  c.Require("state.heads", d.hv >= 1 && d.dv >= 1,
            "state must have Hv >= 1 and Dv >= 1, got " + state.Describe());
  c.Require("heads.gqa", d.hv % d.hk == 0,
            "Hv (state.shape[1] = " + std::to_string(d.hv) + ") must be a multiple of Hk (q.shape[1] = " +
                std::to_string(d.hk) + ")");
  c.SameShape(k, "k", q, "q");
  c.Shape(v, "v", {d.t, d.hv, d.dv});
  c.Shape(out, "out", {d.t, d.hv, d.dv});
  c.Shape(g, "g", {d.t, d.hv});
  c.Shape(beta, "beta", {d.t, d.hv});
  c.Shape(state, "state", {d.slots, d.hv, d.dv, d.dk});
  c.PositiveFinite(args.scale, "scale");
  // The two written operands overlap nothing (in place means: only itself).
  const Op inputs[] = {{&q, "q", 0}, {&k, "k", 0}, {&v, "v", 0}, {&g, "g", 0}, {&beta, "beta", 0}};
  for (const Op& o : inputs) {
    c.NoOverlap(out, "out", *o.t, o.name);
    c.NoOverlap(state, "state", *o.t, o.name);
  }
  c.NoOverlap(out, "out", state, "state");
  return d;
}

void CheckI32Vector(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                    int64_t n) {
  c.Operand(ctx, t, name);
  c.DType(t, name, {vt::DType::kI32});
  c.Shape(t, name, {n});
  c.Contiguous(t, name);
}

std::vector<int32_t> ReadI32(const ExecContext& ctx, const Tensor& t) {
  const HostValues host(ctx, t);
  const int64_t n = t.Numel();
  std::vector<int32_t> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = host->Ptr<int32_t>()[i];
  return v;
}

std::vector<int32_t> CheckCumulative(const Checker& c, const ExecContext& ctx, const Tensor& t,
                                     const char* name, int64_t total) {
  const std::vector<int32_t> v = ReadI32(ctx, t);
  const std::string n(name);
  c.Require((n + ".bounds").c_str(), !v.empty() && v.front() == 0 && v.back() == total,
            n + " must start at 0 and end at the token count " + std::to_string(total));
  bool mono = true;
  for (std::size_t i = 1; i < v.size(); ++i) mono = mono && v[i] >= v[i - 1];
  c.Require((n + ".monotonic").c_str(), mono, n + " must be non-decreasing");
  return v;
}

void CheckLiveSlots(const Checker& c, const std::vector<int32_t>& idx, int64_t slots,
                    const char* name) {
  const std::string n(name);
  bool in_range = true;
  for (int32_t s : idx) in_range = in_range && s < slots;
  c.Require((n + ".range").c_str(), in_range,
            n + " out of range: every live index must be < " + std::to_string(slots) + " state slots");
  std::unordered_set<int32_t> seen;
  bool distinct = true;
  for (int32_t s : idx) {
    if (s >= 0 && !seen.insert(s).second) distinct = false;
  }
  c.Require((n + ".distinct").c_str(), distinct,
            "duplicate live " + n + ": two writers of one state slot would race");
}

}  // namespace vt::api
