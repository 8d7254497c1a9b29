#include "harness/catalog/attn/attn_entry.h"

#include <algorithm>
#include <cmath>

#include "harness/core/rng.h"

namespace vt::conform::attn_entry {

rc::Gen<int64_t> Tokens(Tier t, bool with_zero) {
  std::vector<int64_t> v;
  switch (t) {
    case Tier::kSmoke: v = {1, 2, 5}; break;
    case Tier::kCi: v = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 64, 130, 257}; break;
    case Tier::kFull: v = {1, 2, 3, 5, 8, 16, 17, 31, 33, 63, 64, 65, 127, 129, 257, 513}; break;
  }
  if (with_zero && t != Tier::kSmoke) v.push_back(0);
  return gen::Pick(v);
}

rc::Gen<int64_t> HeadDim(Tier t) {
  if (t == Tier::kSmoke) return gen::Pick(std::vector<int64_t>{1, 8});
  // 12, 24, 33, 40: vector tails of the tiers (attend_tiers.h: 9..15, one and a
  // half avx512 vectors, a one-lane tail, a half-vector tail).
  return gen::Pick(std::vector<int64_t>{1, 2, 7, 8, 12, 16, 24, 33, 40, 64, 128});
}

rc::Gen<std::vector<int64_t>> Blocks(Tier t) {
  return rc::gen::exec([t] {
    const int64_t n = *gen::Pick(t == Tier::kSmoke ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{1, 2, 3, 5});
    std::vector<int64_t> b;
    for (int64_t r = 0; r < n; ++r) {
      b.push_back(*gen::Pick(t == Tier::kSmoke ? std::vector<int64_t>{1, 3}
                                               : std::vector<int64_t>{1, 2, 3, 4, 5, 8, 16, 17, 0, 33}));
    }
    return b;
  });
}

void DrawHeads(Params& p, Tier t, int64_t keys) {
  p.Set("in", *gen::FloatIn());
  p.Set("out", *gen::FloatOut());
  const int64_t hk = *gen::Pick(std::vector<int64_t>{1, 2, 3});
  // q-heads per kv-head: the tiers take a kv-head's q-heads in blocks of up
  // to kMaxQueries (4; attend_tiers.h), so groups above 4 make two blocks,
  // the second partial at 7 (4 + 3) - models draw 7 and 8 (Qwen2-7B 28/4,
  // Llama-70B 64/8); {1, 2, 4} alone never ran a kv-head's second block.
  const int64_t group = *gen::Pick(std::vector<int64_t>{1, 2, 3, 4, 7, 8});
  int64_t d = *HeadDim(t);
  // Long key ranges with narrow heads only: attention is O(T^2 Hq D).
  if (keys > 64) d = std::min<int64_t>(d, 16);
  p.Set("Hkv", hk);
  p.Set("Hq", keys > 64 ? std::min<int64_t>(hk * group, 4) / hk * hk : hk * group);
  p.Set("D", d);
  // The softmax scale: 1/sqrt(D) (the model's), and others so that a scale
  // applied twice / dropped / moved after the exp changes the result.
  const std::string how = *gen::Pick(std::vector<std::string>{"rsqrt", "rsqrt", "0.125", "1", "2.5"});
  p.Set("scale", how == "rsqrt" ? 1.0 / std::sqrt(static_cast<double>(d)) : std::stod(how));
  // Input magnitude: typical, tiny (near-uniform softmax), large (near one-hot).
  p.Set("mag", *gen::Pick(std::vector<double>{1.0, 1.0, 0.01, 4.0}));
}

void AddQuartet(Case& c, int64_t tq, int64_t tk, const std::string& key, const std::string& value) {
  const Params& p = c.params;
  const vt::DType in = p.DType("in");
  const int64_t hq = p.Int("Hq"), hk = p.Int("Hkv"), d = p.Int("D");
  const Fill f = Fill::Normal(0.0, p.Num("mag"));
  c.Input("query", in, {tq, hq, d}, f);
  c.Input(key, in, {tk, hk, d}, f);
  c.Input(value, in, {tk, hk, d}, f);
  c.Output("out", p.DType("out"), {tq, hq, d});
}

double UnitRmsScale(double mag) { return std::exp2(std::round(std::log2(mag))); }

void FillUnitRmsRows(TensorData& t, int64_t d, double scale, uint64_t seed) {
  const uint64_t stream = HashName("unit_rms:" + t.name);
  uint64_t k = 0;
  const auto next = [&] { return StreamValue(seed, stream, k++); };
  t.fill = Fill::Const(0.0);
  t.overrides.clear();
  const int64_t rows = d > 0 ? t.Numel() / d : 0;
  std::vector<int64_t> row(static_cast<size_t>(d));
  for (int64_t r = 0; r < rows; ++r) {
    // n3 threes, n2 twos, n1 ones and 8 n3 + 3 n2 zeros: 9 n3 + 4 n2 + n1 = d.
    const int64_t n3 = static_cast<int64_t>(next() % static_cast<uint64_t>(d / 9 + 1));
    const int64_t n2 = static_cast<int64_t>(next() % static_cast<uint64_t>((d - 9 * n3) / 4 + 1));
    const int64_t n1 = d - 9 * n3 - 4 * n2;
    std::fill(row.begin(), row.end(), 0);
    std::fill(row.begin(), row.begin() + n3, 3);
    std::fill(row.begin() + n3, row.begin() + n3 + n2, 2);
    std::fill(row.begin() + n3 + n2, row.begin() + n3 + n2 + n1, 1);
    for (int64_t i = d - 1; i > 0; --i) std::swap(row[static_cast<size_t>(i)], row[next() % static_cast<uint64_t>(i + 1)]);
    for (int64_t i = 0; i < d; ++i) {
      const double v = static_cast<double>(row[static_cast<size_t>(i)]) * ((next() & 1) != 0 ? -scale : scale);
      if (v != 0.0) t.overrides.emplace_back(r * d + i, v);
    }
  }
}

bool IsUnitRmsRows(const std::vector<double>& values, int64_t d, double scale) {
  if (d <= 0 || values.size() % static_cast<size_t>(d) != 0) return false;
  for (size_t r = 0; r < values.size(); r += static_cast<size_t>(d)) {
    double sum = 0.0;
    for (int64_t i = 0; i < d; ++i) {
      const double v = values[r + static_cast<size_t>(i)];
      const double w = v / scale;
      if (w != std::round(w) || std::fabs(w) > 3.0) return false;
      if (v == 0.0 && std::signbit(v)) return false;  // -0 is not drawn (and the norm would keep it)
      sum += w * w;
    }
    if (sum != static_cast<double>(d)) return false;
  }
  return true;
}

oracle::AttnShape ShapeOf(const Case& c, const std::string& key) {
  const TensorData& q = c.Get("query");
  return {q.shape[0], q.shape[1], c.Get(key).shape[1], q.shape[2]};
}

std::vector<OutputSpec> BaselineOutputs(const Case&) {
  // The baseline rule, applied per element before the store: the Expected's
  // e is kBaselineC x the worst f32-vs-double error of the plain f32
  // evaluation (both unrounded), and the bound rule then admits
  // [R(v - e), R(v + e)], R the rounding to out's dtype. (Comparing after a
  // bf16 store against a max taken after the store would let the rounding of
  // the largest elements swamp the small ones.)
  return {{"out", Bound("FlashAttention's baseline rule: |kernel - oracle<double>| <= 2 x max|oracle<float> - "
                        "oracle<double>| (f32, before the store), then out's rounding. Softmax attention over up "
                        "to 257 keys: a running bound of the f32 passes grows with the key count and the score "
                        "magnitude; c = 2: a faithful f32 kernel in another order errs like the plain one, a "
                        "drift of one ulp per key step does not (AttentionBaseline unit test)")}};
}

OracleResult BaselineResult(const Case& c, const std::vector<double>& truth, const std::vector<float>& f32) {
  return BaselineResult(c, truth, std::vector<std::vector<float>>{f32});
}

OracleResult BaselineResult(const Case&, const std::vector<double>& truth,
                            const std::vector<std::vector<float>>& refs) {
  double worst = 0.0;
  for (const std::vector<float>& f32 : refs) {
    for (size_t k = 0; k < truth.size() && k < f32.size(); ++k) {
      const double d = std::fabs(static_cast<double>(f32[k]) - truth[k]);
      if (std::isfinite(d)) worst = std::max(worst, d);
    }
  }
  Expected e;
  e.v = truth;
  e.baseline_err = worst;
  e.e.assign(truth.size(), kBaselineC * worst);
  OracleResult r;
  r["out"] = e;
  return r;
}

std::vector<int64_t> BlockOffsets(const Params& p) { return seq::Cumulative(seq::IntList(p, "blocks")); }

std::vector<double> RepeatHeads(const std::vector<double>& x, int64_t t, int64_t h, int64_t d, int64_t group) {
  std::vector<double> out;
  out.reserve(static_cast<size_t>(t * h * group * d));
  for (int64_t i = 0; i < t; ++i) {
    for (int64_t g = 0; g < h; ++g) {
      for (int64_t r = 0; r < group; ++r) {
        const auto at = x.begin() + static_cast<std::ptrdiff_t>((i * h + g) * d);
        out.insert(out.end(), at, at + d);
      }
    }
  }
  return out;
}

Case ExpandedKV(const Case& c, const std::vector<std::string>& kv) {
  Case d = c;
  const int64_t hq = c.params.Int("Hq"), hk = c.params.Int("Hkv");
  d.params.Set("Hkv", hq);
  for (const std::string& name : kv) {
    const TensorData& t = c.Get(name);
    std::vector<int64_t> shape = t.shape;
    // [T, Hk, D] or a paged [pages, block, Hk, D]: heads are the second-innermost extent.
    const size_t hd = shape.size() - 2;
    int64_t rows = 1;
    for (size_t k = 0; k < hd; ++k) rows *= shape[k];
    shape[hd] = hq;
    d.Get(name) = TensorFromValues(name, t.dtype, shape, Role::kInput,
                                   RepeatHeads(t.Values(), rows, hk, shape.back(), hq / hk));
  }
  return d;
}

ErrorCase DimsTogether(const std::string& name, const std::vector<std::string>& tensors, int dim, int64_t delta,
                       const std::string& expect) {
  return {name,
          [=](Case& c) {
            for (const std::string& n : tensors) {
              TensorData* t = c.Find(n);
              if (t == nullptr || t->shape[static_cast<size_t>(dim)] + delta < 0) return false;
            }
            for (const std::string& n : tensors) {
              TensorData& t = c.Get(n);
              t.shape[static_cast<size_t>(dim)] += delta;
              t.SetContiguous();
            }
            return true;
          },
          expect};
}

std::vector<ErrorCase> DFlashErrors(const std::string& end_past) {
  using V = std::vector<int64_t>;
  return {mut::Arg("window", -1),
          mut::Arg("reqs", 0),
          seq::EditInts("cu_start_not_zero", "cu_seqlens", "cu_seqlens[0]", seq::StartAtOne),
          seq::EditInts(end_past, "cu_seqlens", "cu_seqlens[num_reqs]", seq::EndPastTotal),
          // H-1: a negative block length (the seed sized a buffer from it).
          seq::EditInts("cu_decreasing", "cu_seqlens", "non-decreasing",
                        [](V& v, const Case&) {
                          if (v.size() < 3) return false;
                          v[1] = v[2] + 1;
                          return true;
                        })};
}

namespace local_attn_entry {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// key/value heads set to Hq + 1: not a divisor of Hq.
ErrorCase HeadsNotDividing(const std::string& key, const std::string& value) {
  return {key + "_heads_not_dividing_Hq",
          [=](Case& c) {
            const int64_t hq = c.Get("query").shape[1];
            for (const std::string& n : {key, value}) {
              TensorData& t = c.Get(n);
              t.shape[t.shape.size() - 2] = hq + 1;
              t.SetContiguous();
            }
            return true;
          },
          "multiple"};
}

// The quartet's contract operands.
std::vector<OperandRule> QuartetOperands(const std::string& key, const std::string& value) {
  using entry::kContiguous;
  return {entry::Operand("query", entry::kFloatIn, kContiguous, {3}),
          entry::Operand(key, entry::kFloatIn, kContiguous, {3}),
          entry::Operand(value, entry::kFloatIn, kContiguous, {3}),
          entry::Written("out", entry::kFloatOut, kContiguous, {3})};
}

}  // namespace
}  // namespace local_attn_entry

OpSpec AttnSpec(AttnOp a) {
  using namespace local_attn_entry;
  OpSpec s = seq::Basics(a.name, "attn", a.dtypes, a.hooks);
  const auto truth = a.hooks.oracle;
  const auto f32 = a.hooks.definition;
  s.oracle = [truth, f32](const Case& c) { return BaselineResult(c, truth(c), f32(c)); };
  s.oracle_f32 = [f32](const Case& c) {
    const std::vector<float> f = f32(c);
    return std::map<std::string, std::vector<double>>{{"out", std::vector<double>(f.begin(), f.end())}};
  };
  s.outputs = BaselineOutputs;
  std::vector<OperandRule> operands = QuartetOperands(a.key, a.value);
  seq::Append(operands, a.operands);
  s.contract = {operands, {entry::PositiveFinite("scale")}};
  s.errors = {mut::Dim(a.key, 2, 1), mut::Dim(a.value, 0, 1), HeadsNotDividing(a.key, a.value),
              mut::Dim("out", 1, 1)};
  seq::Append(s.errors, a.errors);
  s.claims = a.claims;
  const std::vector<std::string> expanded = a.expanded;
  s.claims.push_back(SameAs("gqa_is_expanded_mha", a.gqa_statement,
                            [](const Params& p) { return p.Int("Hq") != p.Int("Hkv"); }, a.name,
                            [expanded](const Case& c) { return ExpandedKV(c, expanded); }, {{"out", "out"}}));
  return s;
}

}  // namespace vt::conform::attn_entry
