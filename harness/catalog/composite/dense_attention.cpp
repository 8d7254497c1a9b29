// The dense_attention golden adapter: vLLM's Qwen3-Next full-attention path
// (Qwen3NextAttention.forward without the projections) mapped onto a chain
// of the project's own kernels, each run through its catalog entry:
//   1. rms_norm (gemma: (1 + w), as GemmaRMSNorm) of every q and k head, out
//      in q's dtype (forward_native computes in f32 and casts back);
//   2. rope_cos_sin_cache at the manifest's positions (vLLM's f32 cos|sin
//      table rows; cast to q's dtype as vLLM casts its cache), then
//      rope_from_cache rotates q and k in place (NeoX unless
//      args.is_neox_style says otherwise; the first rotary_dim dims);
//   3. attention (the mapped op: GQA, causal as args.causal, args.scale)
//      -> compared with `attn`;
//   4. then fused_chain (interpreter tier) "sigmoid(gate) -> gate; attn *
//      gate -> out" -> compared with `out` ([T, Hq*D]), when the golden has a
//      gate and an out.
// Steps 1-2 run at one thread inside the mapping; 3-4 run at one and at the
// configured thread count (the checker compares those bytes).
#include <set>

#include "harness/catalog/attn/attn_entry.h"
#include "harness/catalog/catalog.h"
#include "harness/catalog/claims.h"
#include "harness/catalog/composite/composite_adapters.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"

namespace vt::conform {

namespace local_dense_attention {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

[[noreturn]] void Refuse(const GoldenCase& g, const std::string& why) {
  throw GoldenError(g.dir + "/manifest.json", "dense_attention: " + why);
}

// Arguments the mapping reads, and the ones that only describe the capture.
const std::set<std::string>& MappedArgs() {
  static const std::set<std::string> k = {"eps",         "base",         "rotary_dim", "scale",
                                          "head_dim",    "num_q_heads",  "num_kv_heads", "causal",
                                          "is_neox_style", "gemma"};
  return k;
}
const std::set<std::string>& DescriptiveArgs() {
  static const std::set<std::string> k = {"note", "seed", "class_name", "oracle_loader", "get_rope_call",
                                          "max_position", "max_position_embeddings", "dtype"};
  return k;
}

Execution Run(const char* op, const Case& c, const vt::ExecContext& ctx) {
  const Execution e = Execute(*FindOp(op), c, ctx);
  if (!e.guard_error.empty()) throw std::runtime_error(std::string(op) + " wrote outside its operands: " + e.guard_error);
  return e;
}

// rms_norm of every head row of x ([rows, d]), out in x's dtype.
TensorData NormHeads(const TensorData& x, const TensorData& w, int64_t rows, int64_t d, bool gemma, double eps,
                     const std::string& as, uint64_t seed) {
  Case n;
  n.params = Params("rms_norm");
  n.params.Set("gemma", gemma ? 1 : 0);
  n.params.Set("eps", eps);
  n.params.seed = seed;
  n.tensors = {TensorFromValues("x", x.dtype, {rows, d}, Role::kInput, x.Values()),
               CopyTensor(w, "weight", Role::kInput),
               TensorFromValues("out", x.dtype, {rows, d}, Role::kOutput,
                                std::vector<double>(static_cast<size_t>(rows * d), 0.0))};
  return CopyTensor(Run("rms_norm", n, vt::ExecContext{vt::Backend::kCPU, 1, false}).after.Get("out"), as, Role::kInput);
}

}  // namespace
}  // namespace local_dense_attention

GoldenMapping MapDenseAttention(const GoldenCase& g) {
  using namespace local_dense_attention;
  for (const auto& [key, value] : g.args.items()) {
    if (MappedArgs().count(key) == 0 && DescriptiveArgs().count(key) == 0) {
      throw GoldenUnsupported("args." + key + " is not mapped (only plain RoPE: " +
                              "no scaling, no mrope; Gemma or plain RMSNorm; causal or not)");
    }
  }
  const TensorData& q = g.Get(GoldenPick(g, {"q", "query"}));
  const TensorData& k = g.Get(GoldenPick(g, {"k", "key"}));
  const TensorData& v = g.Get(GoldenPick(g, {"v", "value"}));
  const TensorData& pos = g.Get(GoldenPick(g, {"positions"}));
  const std::string attn_name = GoldenPick(g, {"attn"});
  const TensorData& qn = g.Get(GoldenPick(g, {"q_norm_weight"}));
  const TensorData& kn = g.Get(GoldenPick(g, {"k_norm_weight"}));
  if (q.dtype != vt::DType::kF32 && q.dtype != vt::DType::kBF16) {
    throw GoldenUnsupported("q of dtype " + DTypeKey(q) + " (the chain runs f32 or bf16)");
  }
  if (k.dtype != q.dtype || v.dtype != q.dtype) Refuse(g, "q, k and v must share one dtype");
  if (pos.dtype != vt::DType::kI32 && pos.dtype != vt::DType::kI64) Refuse(g, "positions must be i32 or i64");
  if (pos.shape.size() != 1) throw GoldenUnsupported("positions of rank " + std::to_string(pos.shape.size()) + " (mrope)");
  const int64_t t = pos.shape[0];
  const int64_t d = g.ArgInt("head_dim").value_or(q.shape.back());
  const int64_t hq = g.ArgInt("num_q_heads").value_or(t > 0 && d > 0 ? q.Numel() / (t * d) : 0);
  const int64_t hk = g.ArgInt("num_kv_heads").value_or(t > 0 && d > 0 ? k.Numel() / (t * d) : 0);
  if (t <= 0 || d <= 0 || hq <= 0 || hk <= 0 || q.Numel() != t * hq * d || k.Numel() != t * hk * d ||
      v.Numel() != k.Numel() || g.Get(attn_name).Numel() != q.Numel()) {
    Refuse(g, "q/attn must hold T x num_q_heads x head_dim and k/v T x num_kv_heads x head_dim elements");
  }
  if (qn.Numel() != d || kn.Numel() != d) Refuse(g, "q_norm_weight / k_norm_weight must hold head_dim values");
  const int64_t rot = g.ArgInt("rotary_dim").value_or(d);
  const bool gemma = g.ArgBool("gemma", true), neox = g.ArgBool("is_neox_style", true);
  const double eps = g.ArgNum("eps", 1e-6), base = g.ArgNum("base", 10000.0);
  const uint64_t seed = 0x5eed0a77;

  // 1. Head norms.
  TensorData qh = NormHeads(q, qn, t * hq, d, gemma, eps, "q", seed);
  TensorData kh = NormHeads(k, kn, t * hk, d, gemma, eps, "k", seed);
  // 2. The cos|sin rows at the positions, then the rotation in place.
  const vt::ExecContext one{vt::Backend::kCPU, 1, false};
  Case cs;
  cs.params = Params("rope_cos_sin_cache");
  cs.params.Set("rot", rot);
  cs.params.Set("base", base);
  cs.params.seed = seed;
  cs.tensors = {CopyTensor(pos, "positions", Role::kInput),
                TensorFromValues("cos_sin", vt::DType::kF32, {t, rot}, Role::kOutput,
                                 std::vector<double>(static_cast<size_t>(t * rot), 0.0))};
  const std::vector<double> table = Run("rope_cos_sin_cache", cs, one).after.Get("cos_sin").Values();
  Case r;
  r.params = Params("rope_from_cache");
  r.params.Set("rot", rot);
  r.params.Set("neox", neox ? 1 : 0);
  r.params.Set("mrope", "none");
  r.params.seed = seed;
  std::vector<double> rows(static_cast<size_t>(t));
  for (int64_t i = 0; i < t; ++i) rows[static_cast<size_t>(i)] = static_cast<double>(i);
  qh.role = kh.role = Role::kInPlace;
  qh.shape = {t, hq, d};
  kh.shape = {t, hk, d};
  qh.SetContiguous();
  kh.SetContiguous();
  r.tensors = {qh, kh, TensorFromValues("positions", vt::DType::kI64, {t}, Role::kInput, rows),
               TensorFromValues("cache", q.dtype, {t, rot}, Role::kInput, table)};
  const Execution rotated = Run("rope_from_cache", r, one);

  // 3. The attention case.
  GoldenMapping m;
  m.run_op = "attention";
  Params p("attention");
  p.Set("in", DTypeKey(q));
  const TensorData attn_out = GoldenOutputLike(g, attn_name, "out");
  p.Set("out", DTypeKey(attn_out));
  p.Set("T", t);
  p.Set("Hq", hq);
  p.Set("Hkv", hk);
  p.Set("D", d);
  p.Set("causal", g.ArgBool("causal", true) ? 1 : 0);
  p.Set("scale", g.ArgNum("scale", 1.0 / std::sqrt(static_cast<double>(d))));
  p.seed = seed;
  m.c.params = p;
  TensorData vv = GoldenTensor(g, GoldenPick(g, {"v", "value"}), "value", Role::kInput);
  vv.shape = {t, hk, d};
  vv.SetContiguous();
  TensorData ao = attn_out;
  ao.shape = {t, hq, d};
  ao.SetContiguous();
  m.c.tensors = {CopyTensor(rotated.after.Get("q"), "query", Role::kInput),
                 CopyTensor(rotated.after.Get("k"), "key", Role::kInput), vv, ao};
  m.compare = {{"out", attn_name}};

  // 4. The gate, when the golden records it and the gated output.
  if (g.Has("gate") && g.Has("out")) {
    const TensorData gate = g.Get("gate");
    const TensorData gated_like = GoldenOutputLike(g, "out", "gated");
    if (gate.Numel() != q.Numel() || gated_like.Numel() != q.Numel()) Refuse(g, "gate and out must hold q's element count");
    if (gate.dtype != vt::DType::kF32 && gate.dtype != vt::DType::kBF16) {
      throw GoldenUnsupported("gate of dtype " + DTypeKey(gate));
    }
    const int64_t width = hq * d;
    m.then = [t, width, gate, gated_like, seed](Case& after, const vt::ExecContext& ctx) {
      Case fc;
      fc.params = Params("fused_chain");
      fc.params.Set("recipe", "G2:2;M02:3");  // sigmoid(residual) -> residual; x * residual -> out
      fc.params.Set("eps", 1e-6);
      fc.params.Set("tier", 1);
      fc.params.seed = seed;
      const TensorData& attn = after.Get("out");
      fc.tensors = {TensorFromValues("x", attn.dtype, {t, width}, Role::kInput, attn.Values()),
                    TensorFromValues("weight", vt::DType::kF32, {width}, Role::kInput,
                                     std::vector<double>(static_cast<size_t>(width), 0.0)),
                    TensorFromValues("residual", gate.dtype, {t, width}, Role::kInPlace, gate.Values()),
                    TensorFromValues("out", gated_like.dtype, {t, width}, Role::kOutput,
                                     std::vector<double>(static_cast<size_t>(t * width), 0.0))};
      const Execution e = Run("fused_chain", fc, ctx);
      after.tensors.push_back(CopyTensor(e.after.Get("out"), "gated", Role::kOutput));
    };
    m.compare.push_back({"gated", "out"});
  }
  return m;
}

namespace local_dense_attention {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

// The inverse of MapDenseAttention (vt-fuzz --upstream): an attention case as
// the "dense_attention" runner key's call - vLLM's chain (GemmaRMSNorm per
// head, get_rope NeoX, torch SDPA; vt_regen/ops_composite.py) on inputs the
// chain hands to SDPA unchanged, so that SDPA (vLLM's attention backend on a
// CPU) sees the drawn query and key: the `qk=unit_rms` draws (rows of rms
// exactly 1 times a power of two s: the norm's weight s - 1, eps 2^-30, which
// rounds away against a mean square of 1) at position 0 (cos 1, sin 0). q = k
// rows / s. No gate: the attention case has none (the chain's sigmoid gate
// is fused_chain's step, not this op's). A narrow slice of the op: whole
// numbers in q/k, f32 only - the regenerated goldens are f32 only
// (ops_composite.dense_attention: bf16 roundings inside the chain flip).
UpstreamCall UpstreamDenseAttention(const Case& c) {
  RequireElements(c, "out");
  const TensorData& query = c.Get("query");
  if (query.dtype != vt::DType::kF32) {
    throw GoldenUnsupported("query/key/value of dtype " + DTypeKey(query) +
                            " (the chain's goldens are f32 only: bf16 roundings inside it flip)");
  }
  const int64_t t = query.shape[0], hq = query.shape[1], d = query.shape[2], hk = c.Get("key").shape[1];
  if (d < 2) throw GoldenUnsupported("head_dim 1 (vLLM's NeoX rotary needs an even rotary_dim >= 2)");
  const double s = attn_entry::UnitRmsScale(c.params.Num("mag"));
  const std::vector<double> qv = query.Values(), kv = c.Get("key").Values();
  if (!attn_entry::IsUnitRmsRows(qv, d, s) || !attn_entry::IsUnitRmsRows(kv, d, s)) {
    throw GoldenUnsupported("query/key rows not of rms exactly 1 x a power of two (qk=unit_rms): vLLM's per-head "
                            "norm would change them");
  }
  std::vector<double> q = qv, k = kv;
  for (double& x : q) x /= s;
  for (double& x : k) x /= s;
  UpstreamCall u;
  u.op = "dense_attention";
  u.args = {{"eps", 0x1p-30},        {"base", 10000.0},     {"rotary_dim", d - d % 2},
            {"scale", c.params.Num("scale")}, {"head_dim", d}, {"num_q_heads", hq},
            {"num_kv_heads", hk},    {"causal", c.params.Flag("causal")}, {"is_neox_style", true},
            {"gemma", true}};
  const std::vector<double> w(static_cast<size_t>(d), s - 1.0);
  u.inputs = {TensorFromValues("q", vt::DType::kF32, {t, hq, d}, Role::kInput, q),
              TensorFromValues("k", vt::DType::kF32, {t, hk, d}, Role::kInput, k),
              UpstreamInput(c, "value", "v"),
              TensorFromValues("positions", vt::DType::kI64, {t}, Role::kInput,
                               std::vector<double>(static_cast<size_t>(t), 0.0)),
              TensorFromValues("q_norm_weight", vt::DType::kF32, {d}, Role::kInput, w),
              TensorFromValues("k_norm_weight", vt::DType::kF32, {d}, Role::kInput, w)};
  u.outputs = {UpstreamOutput(c, "out", "attn")};
  return u;
}

}  // namespace
}  // namespace local_dense_attention

UpstreamMap UpstreamMap_attention() {
  using namespace local_dense_attention;
  return {"attention", "dense_attention", UpstreamDenseAttention};
}

}  // namespace vt::conform
