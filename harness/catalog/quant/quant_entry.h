// Helpers the fp4 quant-family catalog entries share: the knobs (groups, the
// global scale inverse, the scale layout), the two outputs and their rules,
// the shape-relation error cases, and the claims that tie the ops together.
// docs/ops/quant.md explains the choices.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "oracles/quant/fp4.h"
#include "vt/ops_quant.h"

namespace vt::conform::quant {

// Groups of 16 per row (K = 16 G): 1, the 4-group swizzle tile -1/0/+1, and wider rows.
rc::Gen<int64_t> Groups(Tier t);
rc::Gen<std::string> ScaleLayoutKnob();  // "linear" / "swizzled"
// Knob "gsi": how the global scale inverse relates to the input magnitude
// (unit: 1; real: vLLM's 448*6 / (4 * scale); pow2: a power of two; sat: large
// enough that most block scales saturate at 448; zero: 0, all codes 0).
rc::Gen<std::string> GsiKnob();
double GsiValue(const std::string& knob, double scale);

// The layout enum the case asks for; any other knob value (an error case) maps
// to an out-of-range enum value.
vt::Fp4ScaleLayout LayoutOf(const Params& p);

// out_packed [rows, k/2] u8 and out_scale (u8, fp8 e4m3 payload) in the case's layout.
void AddOutputs(Case& c, int64_t rows, int64_t k);

// The oracle's result as the two outputs, the scale in the case's layout
// (swizzled: CUTLASS's tile order built by oracle::SwizzleScales, padding 0).
template <class S>
entry::Outs<S> AsOutputs(const oracle::Fp4Quant<S>& q, const Params& p, int64_t rows, int64_t k) {
  entry::Outs<S> o;
  o["out_packed"] = q.packed;
  if (LayoutOf(p) == vt::Fp4ScaleLayout::kCutlassSwizzled) {
    o["out_scale"] = oracle::SwizzleScales<S>(q.scale, rows, k / 16, oracle::In<S>(0.0));
  } else {
    o["out_scale"] = q.scale;
  }
  return o;
}

std::vector<OutputSpec> Outputs(const Case&);

// The scalar contract shared by the four quant ops (gsi finite as f32).
std::vector<ScalarRule> Scalars();

// Error cases on the outputs and arguments: invalid layout, negative gsi,
// out_packed / out_scale extents off by one (and, swizzled, by a whole tile).
std::vector<ErrorCase> OutputErrors();

// The quantized inner dim of `input` not a multiple of 16, the outputs kept
// consistent (out_packed follows K/2, out_scale's floor(K/16) is unchanged),
// so that only the multiple-of-16 condition is broken. `per_i`: input columns
// per quantized column (2 for gate_up [M, 2I]); `also`: further inputs that
// share the inner dim.
ErrorCase InnerNotMultipleOf16(const std::string& input, int64_t per_i, std::vector<std::string> also = {});

// Targeted values for scaled_fp4_quant (knob "aim=ties"): every group gets an
// amax of exactly 6u (u = 2^e / gsi, gsi a power of two), so its block scale is
// 2^e and 1/block is exact: the other elements are drawn among +-u * {0.25,
// 0.75, 1.25, 1.75, 2.5, 3.5, 5} (every e2m1 tie), 6u (the saturation edge) and
// values inside (-6u, 6u); one group in 8 is all zero.
void AimAtTies(TensorData& x, uint64_t seed, double gsi);

// Batch invariance (claims.h RowSlice) for linear-layout cases: a swizzled
// scale tensor's extent is rounded up to whole tiles, so it does not slice.
Claim LinearRowSlice(std::vector<std::string> row_tensors);

// Targeted values for scaled_fp4_quant (knob "aim=midpoints"): in each group
// the element holding amax is moved (up, so it stays the largest) to the
// value of x's dtype for which the f32 definition's s = gsi * (amax * f32(1/6))
// lands on an e4m3 rounding midpoint, or as close as x's dtype allows. A
// one-ulp slip in s (a true division by 6, another association) then moves
// the scale byte - and the group's codes - about half the time.
void AimAtScaleMidpoints(TensorData& x, uint64_t seed, double gsi);

// The same case with the other scale layout gives the same packed bytes and
// the same scale bytes at the positions CUTLASS's swizzle maps them to.
Claim LayoutsAgree();

// Fused op == its activation (op `act_op`, bf16 out, case from `derive`) then
// scaled_fp4_quant on that bf16 tensor, with the same gsi and layout.
Claim ComposedOf(std::string name, std::string statement, std::string act_op,
                 std::function<Case(const Case&)> derive);

// Golden adapters (docs/goldens.md, "NVFP4 goldens"): a vt-golden regen case
// of the fp4 quantizers (manifest op = the catalog op) mapped onto the op's
// case: `input` (and `also`) the golden's input tensors, per_i input columns
// per quantized column (2 for gate_up), args gsi and scale_layout (linear /
// swizzled), outputs out_packed (u8, low nibble first) and out_scale
// (fp8_e4m3). The reference's -0 codes (nibble 0x8: ref_nvfp4_quant's
// sign(x) * 0) are compared as +0 (0x0), the seed's zero: the golden's bytes
// are re-laid so, and the count is reported as a side check. Both outputs are
// compared byte for byte under the manifest's tolerance (0).
GoldenMapping GoldenFp4Quant(const GoldenCase& g, const std::string& op, const std::string& input, int64_t per_i,
                             std::vector<std::string> also = {});

// A fused case's recorded bf16 activation (act_bf16), when the golden has
// one: the mapping's tail runs `act_op` on the case `derive` builds from the
// fused case (bf16 out) and compares its out with act_bf16 too, so that an
// activation that rounded differently is reported as such.
void CheckActivation(GoldenMapping& m, const GoldenCase& g, const std::string& act_op,
                     std::function<Case(const Case&)> derive);

}  // namespace vt::conform::quant
