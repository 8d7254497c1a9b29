#include "harness/catalog/gdn/gdn_recurrence_entry.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "harness/core/rng.h"

namespace vt::conform::gdn_entry {

namespace local_gdn_recurrence_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

Expected BaselineOf(const std::vector<double>& truth, const std::vector<float>& f32, const std::vector<bool>& exact) {
  std::vector<double> same(f32.begin(), f32.end());
  std::vector<double> loose_truth, loose_same;
  for (std::size_t k = 0; k < truth.size(); ++k) {
    if (k < exact.size() && exact[k]) continue;
    loose_truth.push_back(truth[k]);
    loose_same.push_back(same[k]);
  }
  // The baseline is measured over the elements the tolerance judges.
  // Measured before the output's rounding (f32): the comparison rounds the
  // accepted interval outward to the output's format (compare.cpp, baseline
  // rule).
  Expected e = BaselineExpected(loose_truth, loose_same, oracle::Fmt::kF32);
  e.v = truth;
  e.f32 = same;
  e.e.assign(truth.size(), 0.0);
  for (std::size_t k = 0; k < truth.size() && k < exact.size(); ++k) {
    if (exact[k]) e.e[k] = INFINITY;  // judged by equality with the f32 definition
  }
  e.exact = exact;  // and so is a second reference (the torch mode)
  return e;
}

std::vector<bool> ExpandRows(const std::vector<bool>& rows, int64_t row_elems) {
  std::vector<bool> m;
  m.reserve(rows.size() * static_cast<size_t>(row_elems));
  for (bool r : rows) m.insert(m.end(), static_cast<size_t>(row_elems), r);
  return m;
}

Tolerance OutTolerance() {
  return Baseline(2.0, 0.0,
                  "baseline, c = 2 over max|oracle<float> - oracle<double>| (the definition in f32 in "
                  "the spec's order, stored to out's dtype): the error of a recurrence compounds over the "
                  "sequence, so no useful a-priori bound exists; a dropped decay step or beta applied "
                  "twice moves outputs by >1e3x that baseline (docs/ops/gdn.md)");
}

Tolerance StateTolerance() {
  return Baseline(2.0, 0.0,
                  "baseline, c = 2 as for out, over the written state slots; slots the op must not "
                  "write are held to their input bytes (docs/ops/gdn.md)");
}

std::vector<ErrorCase> HeadErrors(std::function<void(Case&)> build) {
  return {seq::Rebuilt("hv_not_multiple_of_hk", "multiple of",
                     [](Params& p) {
                       const int64_t hv = Dims(p).hv;
                       p.Set("Hv", hv);
                       p.Set("Hk", hv + 1);  // hv % (hv + 1) == hv != 0
                       return true;
                     },
                     build),
          seq::Rebuilt("dk_zero", "Dk", [](Params& p) { p.Set("Dk", 0); return true; }, build),
          seq::Rebuilt("dv_zero", "Dv", [](Params& p) { p.Set("Dv", 0); return true; }, build)};
}

std::map<std::string, std::vector<double>> OutAndStateF32(const oracle::GdnResult<float>& f) {
  return {{"out", std::vector<double>(f.out.begin(), f.out.end())},
          {"state", std::vector<double>(f.state.begin(), f.state.end())}};
}

std::vector<OutputSpec> OutAndStateOutputs() { return {{"out", OutTolerance()}, {"state", StateTolerance()}}; }

OracleResult Oracle(const Recurrence& r, const Case& c) {
  const auto truth = r.hooks.oracle(c);
  const auto f32 = r.hooks.definition(c);
  const ExactRows exact = r.exact(c);
  const oracle::GdnDims d = Dims(c.params);
  return {{"out", BaselineOf(truth.out, f32.out, ExpandRows(exact.out, d.hv * d.dv))},
          {"state", BaselineOf(truth.state, f32.state, ExpandRows(exact.state, d.SlotElems()))}};
}

}  // namespace
}  // namespace local_gdn_recurrence_entry

OpSpec RecurrenceSpec(Recurrence r) {
  using namespace local_gdn_recurrence_entry;
  OpSpec s = seq::Basics(r.name, "gdn", r.dtypes, r.hooks);
  s.oracle = [r](const Case& c) { return Oracle(r, c); };
  const auto f32 = r.hooks.definition;
  s.oracle_f32 = [f32](const Case& c) { return OutAndStateF32(f32(c)); };
  s.outputs = [](const Case&) { return OutAndStateOutputs(); };
  s.contract = {r.operands, {entry::PositiveFinite("scale")}};
  s.errors = r.errors;
  seq::Append(s.errors, HeadErrors(r.hooks.build));
  s.claims = r.claims;
  s.goldens = r.goldens;
  return s;
}

ExactRows SlotRows(const std::vector<int64_t>& idx, int64_t requests, int64_t slots, bool cache) {
  using namespace local_gdn_recurrence_entry;
  ExactRows r;
  r.out.assign(static_cast<size_t>(requests), false);
  r.state.assign(static_cast<size_t>(slots), cache);
  for (std::size_t b = 0; b < idx.size(); ++b) {
    if (idx[b] < 0) {
      r.out[b] = true;
    } else {
      r.state[static_cast<size_t>(idx[b])] = false;
    }
  }
  return r;
}

void SetHeads(Params& p, int64_t hk, int64_t hv, int64_t dk, int64_t dv) {
  using namespace local_gdn_recurrence_entry;
  p.Set("Hk", hk);
  p.Set("ratio", hv / hk);
  p.Set("Dk", dk);
  p.Set("Dv", dv);
  p.Set("sk", "rsqrt");
  p.Set("decay", "mild");
  p.Set("init", "unit");
}

void DrawHeads(Params& p, Tier tier, bool packed) {
  using namespace local_gdn_recurrence_entry;
  if (!packed) {
    p.Set("qk", *gen::FloatIn());
    p.Set("v", *gen::FloatIn());
    p.Set("out", *gen::FloatOut());
  }
  p.Set("Hk", *gen::Pick(std::vector<int64_t>{1, 2, 3}));
  p.Set("ratio", *gen::Pick(std::vector<int64_t>{1, 2, 3, 4}));
  const bool smoke = tier == Tier::kSmoke;
  // Dk and Dv below, between and past the vector tiers' 8 / 16 lanes (value
  // rows are the lanes, Dk the columns of each transposed block).
  p.Set("Dk", *gen::Pick(smoke ? std::vector<int64_t>{4, 1, 16}
                               : std::vector<int64_t>{16, 1, 2, 7, 32, 33, 64, 128, 12, 20}));
  p.Set("Dv", *gen::Pick(smoke ? std::vector<int64_t>{4, 1, 16}
                               : std::vector<int64_t>{16, 1, 3, 32, 64, 128, 9, 13, 24, 40}));
  p.Set("sk", *gen::Pick(std::vector<std::string>{"rsqrt", "pow2"}));
  p.Set("decay", *gen::Pick(std::vector<std::string>{"mild", "strong", "none"}));
  p.Set("init", *gen::Pick(std::vector<std::string>{"unit", "small"}));
  if (!packed) p.Set("scale", static_cast<double>(ScaleOf(p)));
}

oracle::GdnDims Dims(const Params& p) {
  using namespace local_gdn_recurrence_entry;
  oracle::GdnDims d;
  d.hk = p.Int("Hk");
  d.hv = p.Has("Hv") ? p.Int("Hv") : p.Int("Hk") * p.Int("ratio");
  d.dk = p.Int("Dk");
  d.dv = p.Int("Dv");
  return d;
}

float ScaleOf(const Params& p) {
  using namespace local_gdn_recurrence_entry;
  if (p.Str("sk") == "pow2") return 0.25f;
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(p.Int("Dk"))));
}

int64_t TokenBudget(const Params& p, int64_t budget) {
  using namespace local_gdn_recurrence_entry;
  const oracle::GdnDims d = Dims(p);
  return std::max<int64_t>(1, budget / (d.hv * d.dv * d.dk));
}

namespace local_gdn_recurrence_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// Rows of `d` seed-derived Gaussian values scaled to unit L2 norm.
std::vector<double> UnitRows(uint64_t seed, const std::string& name, int64_t rows, int64_t d) {
  std::vector<double> v(static_cast<size_t>(rows * d));
  const uint64_t stream = HashName(name);
  for (int64_t r = 0; r < rows; ++r) {
    double ss = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      const double x = Gaussian(seed, stream, static_cast<uint64_t>(r * d + j));
      v[static_cast<size_t>(r * d + j)] = x;
      ss += x * x;
    }
    const double inv = ss > 0.0 ? 1.0 / std::sqrt(ss) : 1.0;
    for (int64_t j = 0; j < d; ++j) v[static_cast<size_t>(r * d + j)] *= inv;
  }
  return v;
}

void SetValuesAsFill(TensorData& t, const std::vector<double>& v) {
  t.fill = Fill::Const(0.0);
  t.overrides.clear();
  t.overrides.reserve(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) t.overrides.emplace_back(static_cast<int64_t>(k), v[k]);
}

}  // namespace
}  // namespace local_gdn_recurrence_entry

void AddTokenInputs(Case& c, int64_t tokens) {
  using namespace local_gdn_recurrence_entry;
  const Params& p = c.params;
  const oracle::GdnDims d = Dims(p);
  SetValuesAsFill(c.Input("q", p.DType("qk"), {tokens, d.hk, d.dk}, Fill::Const(0)),
                  UnitRows(c.params.seed, "q", tokens * d.hk, d.dk));
  SetValuesAsFill(c.Input("k", p.DType("qk"), {tokens, d.hk, d.dk}, Fill::Const(0)),
                  UnitRows(c.params.seed, "k", tokens * d.hk, d.dk));
  c.Input("v", p.DType("v"), {tokens, d.hv, d.dv}, Fill::Normal(0.0, 1.0));
  const std::string decay = p.Str("decay");
  const Fill g = decay == "none" ? Fill::Const(0.0) : decay == "strong" ? Fill::Uniform(-4.0, -0.5) : Fill::Uniform(-0.2, 0.0);
  c.Input("g", vt::DType::kF32, {tokens, d.hv}, g);
  c.Input("beta", vt::DType::kF32, {tokens, d.hv}, Fill::Uniform(0.0, 1.0));
}

void AddState(Case& c, int64_t slots, vt::DType dt) {
  using namespace local_gdn_recurrence_entry;
  const oracle::GdnDims d = Dims(c.params);
  c.Add("state", dt, {slots, d.hv, d.dv, d.dk}, Role::kInPlace,
        Fill::Normal(0.0, c.params.Str("init") == "small" ? 0.01 : 0.5));
}

void AddOut(Case& c, int64_t tokens) {
  using namespace local_gdn_recurrence_entry;
  const oracle::GdnDims d = Dims(c.params);
  c.Output("out", c.params.DType("out"), {tokens, d.hv, d.dv});
}

std::vector<int64_t> DrawSlots(uint64_t seed, const std::string& stream, int64_t count, int64_t slots, int64_t nulls) {
  using namespace local_gdn_recurrence_entry;
  std::vector<int64_t> all(static_cast<size_t>(slots));
  std::iota(all.begin(), all.end(), 0);
  const uint64_t s = HashName(stream);
  for (int64_t i = slots - 1; i > 0; --i) {
    const auto j = static_cast<int64_t>(StreamValue(seed, s, static_cast<uint64_t>(i)) % static_cast<uint64_t>(i + 1));
    std::swap(all[static_cast<size_t>(i)], all[static_cast<size_t>(j)]);
  }
  std::vector<int64_t> v(all.begin(), all.begin() + std::min(count, slots));
  v.resize(static_cast<size_t>(count), -1);
  nulls = std::min(nulls, count / 3);
  for (int64_t n = 0; n < nulls; ++n) {
    v[static_cast<size_t>(StreamValue(seed, s ^ 0x6e756c6cULL, static_cast<uint64_t>(n)) % static_cast<uint64_t>(count))] = -1;
  }
  return v;
}

TensorData LeadingRows(const TensorData& t, int64_t lo, int64_t hi, const std::string& name, Role role) {
  using namespace local_gdn_recurrence_entry;
  int64_t row = 1;
  for (std::size_t d = 1; d < t.shape.size(); ++d) row *= t.shape[d];
  const std::vector<double> all = t.Values();
  std::vector<int64_t> shape = t.shape;
  shape[0] = hi - lo;
  return TensorFromValues(name, t.dtype, shape, role, std::vector<double>(all.begin() + lo * row, all.begin() + hi * row));
}

std::vector<TensorData> TokenRows(const Case& c, int64_t lo, int64_t hi) {
  using namespace local_gdn_recurrence_entry;
  std::vector<TensorData> v;
  for (const char* name : kTokenInputs) v.push_back(LeadingRows(c.Get(name), lo, hi, name, Role::kInput));
  return v;
}

TensorData OneSequence(const std::string& name, int64_t len) {
  using namespace local_gdn_recurrence_entry;
  return TensorFromValues(name, vt::DType::kI32, {2}, Role::kInput, {0.0, static_cast<double>(len)});
}

std::vector<OperandRule> TokenOperands(std::vector<OperandRule> meta) {
  using namespace local_gdn_recurrence_entry;
  std::vector<OperandRule> v = {entry::Operand("q", entry::kFloatIn, entry::kContiguous, {3}),
                                entry::Operand("k", entry::kFloatIn, entry::kContiguous, {3}),
                                entry::Operand("v", entry::kFloatIn, entry::kContiguous, {3}),
                                entry::Operand("g", entry::kF32, entry::kContiguous, {2}),
                                entry::Operand("beta", entry::kF32, entry::kContiguous, {2})};
  seq::Append(v, std::move(meta));
  seq::Append(v, {entry::Written("state", entry::kF32, entry::kContiguous, {4}),
                  entry::Written("out", entry::kFloatOut, entry::kContiguous, {3})});
  return v;
}

std::vector<ErrorCase> TokenDimErrors() {
  using namespace local_gdn_recurrence_entry;
  return {mut::Dim("k", 1, 1),   mut::Dim("k", 2, -1),  mut::Dim("v", 0, 1),
          mut::Dim("v", 2, 1),   mut::Dim("out", 0, 1), mut::Dim("out", 1, 1),
          mut::Dim("g", 0, 1),   mut::Dim("beta", 1, 1), mut::Dim("state", 3, 1)};
}

std::vector<ErrorCase> CumulativeErrors(const std::string& prefix, const std::string& tensor) {
  using namespace local_gdn_recurrence_entry;
  return {seq::EditInts(prefix + "_first_nonzero", tensor, "start at", seq::StartAtOne),
          seq::EditInts(prefix + "_last_past_end", tensor, "end at", seq::EndPastTotal),
          seq::EditInts(prefix + "_not_monotonic", tensor, "non-decreasing",
                    [](std::vector<int64_t>& v, const Case&) {
                      if (v.size() < 3) return false;
                      v[v.size() - 2] = v.back() + 1;  // bounds still hold
                      return true;
                    }),
          seq::EditInts(prefix + "_first_step_negative", tensor, "non-decreasing", seq::FirstStepNegative)};
}

std::vector<ErrorCase> SlotErrors(const std::string& tensor) {
  using namespace local_gdn_recurrence_entry;
  return {seq::EditInts(tensor + "_out_of_range", tensor, "out of range",
                    [](std::vector<int64_t>& v, const Case& c) {
                      if (v.empty()) return false;
                      v[v.size() / 2] = c.Get("state").shape[0];
                      return true;
                    }),
          seq::EditInts(tensor + "_duplicate", tensor, "duplicate",
                    [](std::vector<int64_t>& v, const Case&) {
                      for (std::size_t i = 0; i < v.size(); ++i) {
                        if (v[i] >= 0 && v.size() >= 2) {
                          v[(i + 1) % v.size()] = v[i];
                          return true;
                        }
                      }
                      return false;
                    })};
}

}  // namespace vt::conform::gdn_entry

#include "harness/golden/adapter.h"

namespace vt::conform::gdn_entry {

GoldenMapping MapPackedFromParts(const GoldenCase& g, Params p, const std::string& out, const std::string& state_out) {
  using namespace local_gdn_recurrence_entry;
  GoldenMapping m;
  m.run_op = "gdn_packed_decode";
  const TensorData& q = g.Get("q");
  const TensorData& k = g.Get("k");
  const TensorData& v = g.Get("v");
  const std::string alog = GoldenPick(g, {"A_log", "a_log"});
  for (const char* name : {"k", "v", "a", "b"}) {
    if (g.Get(name).dtype != q.dtype) {
      throw GoldenUnsupported(std::string("q and ") + name + " of different dtypes (one activation dtype)");
    }
  }
  const int64_t batch = q.shape[0];
  const int64_t qw = q.Numel() / std::max<int64_t>(batch, 1), vw = v.Numel() / std::max<int64_t>(batch, 1);
  const std::vector<double> qv = q.Values(), kv = k.Values(), vv = v.Values();
  std::vector<double> mixed;
  for (int64_t b = 0; b < batch; ++b) {
    mixed.insert(mixed.end(), qv.begin() + b * qw, qv.begin() + (b + 1) * qw);
    mixed.insert(mixed.end(), kv.begin() + b * qw, kv.begin() + (b + 1) * qw);
    mixed.insert(mixed.end(), vv.begin() + b * vw, vv.begin() + (b + 1) * vw);
  }
  const TensorData& state = g.Get("state_in");
  p.op = "gdn_packed_decode";
  p.Set("act", DTypeKey(q));
  p.Set("state_dt", DTypeKey(state));
  p.Set("alog_dt", DTypeKey(g.Get(alog)));
  p.Set("bias_dt", DTypeKey(g.Get("dt_bias")));
  p.Set("pad", 0);
  p.Set("spare", state.shape[0] - batch);
  p.Set("nulls", 0);
  m.c.params = p;
  std::vector<double> idx;
  for (int64_t b = 0; b < batch; ++b) idx.push_back(static_cast<double>(b));
  m.c.tensors = {TensorFromValues("mixed_qkv", q.dtype, {batch, 2 * qw + vw}, Role::kInput, mixed),
                 GoldenTensor(g, "a", "a", Role::kInput),
                 GoldenTensor(g, "b", "b", Role::kInput),
                 GoldenTensor(g, alog, "a_log", Role::kInput),
                 GoldenTensor(g, "dt_bias", "dt_bias", Role::kInput),
                 GoldenTensor(g, "state_in", "state", Role::kInPlace),
                 TensorFromValues("state_idx", vt::DType::kI32, {batch}, Role::kInput, idx),
                 seq::Poisoned("out", q.dtype, v.shape)};
  m.compare = {{"out", out}, {"state", state_out}};
  return m;
}

}  // namespace vt::conform::gdn_entry
