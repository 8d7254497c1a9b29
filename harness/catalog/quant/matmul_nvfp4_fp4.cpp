// Catalog entry: matmul_nvfp4_fp4 (W4A4 NVFP4 GEMM: vLLM cutlass_scaled_fp4_mm
// and its emulation - both operands e2m1 with e4m3 block scales, times alpha).
#include <cmath>
#include <stdexcept>

#include "harness/catalog/catalog.h"
#include "harness/catalog/quant/quant_entry.h"
#include "harness/catalog/seq_entry.h"
#include "harness/golden/adapter.h"
#include "harness/golden/upstream_call.h"
#include "oracles/quant/matmul_nvfp4_fp4.h"
#include "vt/ops.h"

namespace vt::conform {
namespace local_matmul_nvfp4_fp4 {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

void Draw(Params& p, Tier tier) {
  p.Set("out", *gen::FloatOut());
  p.Set("T", *gen::Rows(tier));
  p.Set("N", *gen::Pick(std::vector<int64_t>{1, 2, 3, 5, 8, 16, 17, 33, 64}));
  p.Set("G", *gen::Pick(std::vector<int64_t>{1, 2, 3, 4, 8, 16, 32}));
  // Block-scale magnitudes: typical, small (e4m3 subnormals), large (448 saturation).
  p.Set("sscale", *gen::Pick(std::vector<double>{1.0, 1.0, 0.02, 100.0}));
  p.Set("alpha", *gen::Pick(std::vector<double>{1.0, 0.375, -2.5, 1e-3}));
}

void Build(Case& c) {
  const Params& p = c.params;
  const int64_t m = p.Int("T"), n = p.Int("N"), g = p.Int("G"), k = 16 * g;
  const Fill bytes = Fill::Uniform(0.0, 256.0);  // every code pair, -0 nibbles included
  const Fill scales = Fill::Normal(0.0, p.Num("sscale"));
  c.Input("a_packed", vt::DType::kU8, {m, k / 2}, bytes);
  c.Input("a_scale", vt::DType::kU8, {m, g}, scales).fmt = oracle::Fmt::kFp8E4M3;
  c.Input("b_packed", vt::DType::kU8, {n, k / 2}, bytes);
  c.Input("b_scale", vt::DType::kU8, {n, g}, scales).fmt = oracle::Fmt::kFp8E4M3;
  c.Output("out", p.DType("out"), {m, n});
}

void Run(const vt::ExecContext& ctx, const Workspace& ws) {
  vt::MatmulNvfp4Fp4(ctx, ws["out"], ws["a_packed"], ws["a_scale"], ws["b_packed"], ws["b_scale"],
                     ws.params().F32("alpha"));
}

template <class S>
entry::Outs<S> Eval(const Case& c) {
  const TensorData& ap = c.Get("a_packed");
  const TensorData& bp = c.Get("b_packed");
  const int64_t m = ap.shape[0], n = bp.shape[0], k = 2 * ap.shape[1];
  const auto a = oracle::DequantizeNvfp4(ap.Values(), c.Get("a_scale").Values(), m, k);
  const auto b = oracle::DequantizeNvfp4(bp.Values(), c.Get("b_scale").Values(), n, k);
  return {{"out", oracle::MatmulNvfp4Fp4<S>(a, b, m, n, k, static_cast<float>(c.params.Num("alpha")))}};
}

std::vector<OutputSpec> Outputs(const Case&) {
  return {{"out", Bound("decoded e2m1 * e4m3 values and their products are exact in f32 (at most 12 "
                        "significant bits); the f32 sum over K: running error bound of each add; times "
                        "alpha; then one rounding to out (docs/ops/quant.md)")}};
}

// K not a multiple of 16: both packed operands 4 bytes (8 codes) wider; the
// scale tensors keep floor(K/16) columns, so only the K condition breaks.
ErrorCase KNotMultipleOf16() {
  return ErrorCase(
      "k_not_multiple_of_16",
      [](Case& c) {
        TensorData* a = c.Find("a_packed");
        TensorData* b = c.Find("b_packed");
        if (a == nullptr || b == nullptr) return false;
        a->shape[1] += 4;
        b->shape[1] += 4;
        a->SetContiguous();
        b->SetContiguous();
        return true;
      },
      "multiple of 16");
}

// matmul_nvfp4_fp4 == matmul_bt on the dequantized operands (f32 [M,K] and
// [N,K], f32 out), then mul_scalar by alpha into out's dtype. Both sum the same
// exact f32 products sequentially over k and multiply the f32 sum by alpha
// once (a commutative IEEE product), so the bytes agree.
Claim DequantizedMatmul() {
  Claim c;
  c.name = "dequantized_matmul_times_alpha";
  c.statement = "matmul_nvfp4_fp4 == mul_scalar(matmul_bt(dequant(a), dequant(b)) in f32, alpha) in out's dtype";
  c.check = [](const OpSpec& op, const Case& mine, const vt::ExecContext& ctx) {
    const OpSpec* bt = FindOp("matmul_bt");
    const OpSpec* ms = FindOp("mul_scalar");
    if (bt == nullptr || ms == nullptr) throw std::logic_error("claim names an unknown op");
    const TensorData& ap = mine.Get("a_packed");
    const TensorData& bp = mine.Get("b_packed");
    const int64_t m = ap.shape[0], n = bp.shape[0], k = 2 * ap.shape[1];
    Case g;
    g.params = Params("matmul_bt");
    for (const char* key : {"a", "b", "out"}) g.params.Set(key, "f32");
    g.params.Set("M", m);
    g.params.Set("K", k);
    g.params.Set("N", n);
    g.params.Set("a_pad", 0);
    g.params.Set("repack", 0);
    g.params.seed = mine.params.seed;
    g.tensors = {TensorFromValues("a", vt::DType::kF32, {m, k}, Role::kInput,
                                  oracle::DequantizeNvfp4(ap.Values(), mine.Get("a_scale").Values(), m, k)),
                 TensorFromValues("b", vt::DType::kF32, {n, k}, Role::kInput,
                                  oracle::DequantizeNvfp4(bp.Values(), mine.Get("b_scale").Values(), n, k)),
                 TensorFromValues("out", vt::DType::kF32, {m, n}, Role::kOutput,
                                  std::vector<double>(static_cast<std::size_t>(m * n), 0.0))};
    const Execution fused = Execute(op, mine, ctx);
    const Execution dot = Execute(*bt, g, ctx);
    if (!fused.guard_error.empty()) return ClaimOutcome::Violated(fused.guard_error);
    if (!dot.guard_error.empty()) return ClaimOutcome::Violated("matmul_bt: " + dot.guard_error);
    Case s;
    s.params = Params("mul_scalar");
    s.params.Set("x", "f32");
    s.params.Set("out", mine.params.Str("out"));
    s.params.Set("s", static_cast<double>(mine.params.F32("alpha")));
    s.params.seed = mine.params.seed;
    s.tensors = {CopyTensor(dot.after.Get("out"), "x", Role::kInput),
                 CopyTensor(mine.Get("out"), "out", Role::kOutput)};
    const Execution scaled = Execute(*ms, s, ctx);
    if (!scaled.guard_error.empty()) return ClaimOutcome::Violated("mul_scalar: " + scaled.guard_error);
    const std::string d = DiffBytes(fused.after.Get("out"), scaled.after.Get("out"), /*any_nan=*/true);
    return d.empty() ? ClaimOutcome::Holds() : ClaimOutcome::Violated(d);
  };
  return c;
}

// vt-golden regen's cases (docs/goldens.md, "NVFP4 goldens"): vLLM's
// run_nvfp4_emulations (dequantize, then torch.matmul in x's dtype) on x and a
// weight quantized by ref_nvfp4_quant. The op runs on the emulation's own
// codes and linear e4m3 scales of both operands (a_packed/a_scale =
// ref_nvfp4_quant(x), b_packed/b_scale = the weight's), alpha from args (the
// f32 product of the two dequantization global scales); out is compared under
// the manifest's per-case derived tolerance (summation order and, f32, the
// emulation's rounded dequantized operands).
GoldenMapping GoldenMatmulNvfp4(const GoldenCase& g) {
  GoldenMapping m;
  for (const char* t : {"a_packed", "b_packed"}) {
    if (g.Get(t).dtype != vt::DType::kU8 || g.Get(t).shape.size() != 2) throw GoldenUnsupported(std::string(t) + " is not u8 [rows, K/2]");
  }
  for (const char* t : {"a_scale", "b_scale"}) {
    if (g.Get(t).fmt != oracle::Fmt::kFp8E4M3) throw GoldenUnsupported(std::string(t) + " is not fp8_e4m3");
  }
  if (g.ArgStr("scale_layout", "linear") != "linear") throw GoldenUnsupported("only linear block scales");
  const int64_t rows = g.Get("a_packed").shape[0], n = g.Get("b_packed").shape[0], k = 2 * g.Get("a_packed").shape[1];
  if (k % 16 != 0) throw GoldenUnsupported("K is not a multiple of 16");
  const double alpha = g.ArgNum("alpha", NAN);
  if (!std::isfinite(alpha)) throw GoldenUnsupported("no finite alpha in args");
  const TensorData out = GoldenOutputLike(g, "out", "out");
  Params p("matmul_nvfp4_fp4");
  p.Set("out", DTypeKey(out));
  p.Set("T", rows);
  p.Set("N", n);
  p.Set("G", k / 16);
  p.Set("sscale", 1.0);
  p.Set("alpha", alpha);
  m.c.params = p;
  m.c.tensors = {GoldenTensor(g, "a_packed", "a_packed", Role::kInput), GoldenTensor(g, "a_scale", "a_scale", Role::kInput),
                 GoldenTensor(g, "b_packed", "b_packed", Role::kInput), GoldenTensor(g, "b_scale", "b_scale", Role::kInput),
                 out};
  m.compare = {{"out", "out"}};
  return m;
}

// The inverse for vt-fuzz --upstream: both operands as cutlass_scaled_fp4_mm
// takes them (codes, linear e4m3 block scales) and alpha; the worker runs the
// NVFP4 emulation's dequantization and torch.matmul (vt_regen/live_third.py).
UpstreamCall UpstreamMm(const Case& c) {
  RequireElements(c, "out");
  for (const char* t : {"a_scale", "b_scale"}) {
    for (uint8_t b : c.Get(t).LogicalBytes()) {
      // e4m3fn's NaN (S.1111.111): non-finite, no golden can vouch for it
      if ((b & 0x7F) == 0x7F) throw GoldenUnsupported(std::string("a NaN byte in ") + t);
    }
  }
  UpstreamCall u;
  u.op = "matmul_nvfp4_fp4";
  u.args = {{"alpha", c.params.Num("alpha")}, {"scale_layout", "linear"}, {"block_size", 16}};
  u.inputs = {UpstreamInput(c, "a_packed", "a_packed"), UpstreamInput(c, "a_scale", "a_scale"),
              UpstreamInput(c, "b_packed", "b_packed"), UpstreamInput(c, "b_scale", "b_scale")};
  u.outputs = {UpstreamOutput(c, "out", "out")};
  return u;
}

}  // namespace
}  // namespace local_matmul_nvfp4_fp4

OpSpec Spec_matmul_nvfp4_fp4() {
  using namespace local_matmul_nvfp4_fp4;
  OpSpec s = seq::EvaluatedSpec(
      {.name = "matmul_nvfp4_fp4", .family = "quant",
       .dtypes = "cpu: a_packed u8 [M,K/2], a_scale u8 (e4m3) [M,K/16], b_packed u8 [N,K/2], b_scale u8 "
                 "[N,K/16], K % 16 == 0; out f32/bf16 [M,N]",
       .draw = Draw, .build = Build, .run = Run, .truth = Eval<entry::Bounded>, .f32 = Eval<float>, .outputs = Outputs});
  s.contract = {{entry::Operand("a_packed", entry::kU8, entry::kContiguous, {2}),
                 entry::Operand("a_scale", entry::kU8, entry::kContiguous, {2}),
                 entry::Operand("b_packed", entry::kU8, entry::kContiguous, {2}),
                 entry::Operand("b_scale", entry::kU8, entry::kContiguous, {2}),
                 entry::Written("out", entry::kFloatOut, entry::kContiguous, {2})},
                {entry::Finite("alpha")}};
  // A NaN scale byte (0x7F / 0xFF) poisons 16 products of every dot product
  // it enters: one per row of a (rows 3 mod 4) and of b (columns 3 mod 4).
  s.values.specials = {{"a_scale", true}, {"b_scale", true}};
  s.errors = {KNotMultipleOf16(),         mut::Dim("a_packed", 0, 1), mut::Dim("a_scale", 1, 1),
              mut::Dim("a_scale", 0, 1),  mut::Dim("b_packed", 1, 1), mut::Dim("b_packed", 0, 1),
              mut::Dim("b_scale", 1, 1),  mut::Dim("b_scale", 0, 1),  mut::Dim("out", 0, 1),
              mut::Dim("out", 1, 1)};
  s.claims = {RowSlice({"a_packed", "a_scale", "out"}), DequantizedMatmul()};
  s.goldens = {{"matmul_nvfp4_fp4", GoldenMatmulNvfp4}};
  return s;
}

UpstreamMap UpstreamMap_matmul_nvfp4_fp4() {
  using namespace local_matmul_nvfp4_fp4;
  // sscale only chooses the block scales' magnitudes (the golden holds the bytes)
  return {"matmul_nvfp4_fp4", "matmul_nvfp4_fp4", UpstreamMm, {"sscale"}};
}

}  // namespace vt::conform
