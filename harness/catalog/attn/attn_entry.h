// The attention entries (attention and its CUDA-variant names,
// attention_cross, dflash_block_attention, dflash_paged_block_attention):
// one builder, AttnSpec, and the pieces they share - extents (small key
// ranges mostly, a few long ones with narrow heads so the ci tier stays
// fast), the q/k/v/out quartet, request blocks, the baseline tolerance, and
// the error cases and claims several entries make.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "harness/catalog/seq_entry.h"
#include "oracles/attn/softmax_attention.h"

namespace vt::conform::attn_entry {

// What one attention entry declares. AttnSpec adds the rest: family attn,
// the generator around the hooks' draw, the oracle (the baseline rule of
// `out` over the hooks' Eval<double> and Eval<float>), the f32 definition,
// the tolerance, the contract (the quartet query / `key` / `value` / out,
// then `operands`; scale > 0), the error cases every entry has (key's head dim, value's tokens, key/value
// heads not dividing Hq, out's heads) before the entry's own, and after the
// entry's claims the GQA one: GQA == MHA on `expanded` (key and value by
// default) with each kv-head repeated, stated by `gqa_statement`.
struct AttnOp {
  std::string name;
  std::string dtypes;
  seq::Hooks<std::vector<double> (*)(const Case&), std::vector<float> (*)(const Case&)> hooks;
  std::string key = "key", value = "value";
  std::vector<OperandRule> operands = {};
  std::vector<ErrorCase> errors = {};
  std::vector<Claim> claims = {};
  std::vector<std::string> expanded = {"key", "value"};
  std::string gqa_statement =
      "GQA with Hq/Hkv q-heads per kv-head == MHA on K/V with each kv-head repeated Hq/Hkv times";
};
OpSpec AttnSpec(AttnOp a);

// Token / key counts. The long ones (130, 257) reach the regime where the
// Bounded running bound grows past usefulness and the baseline rule decides.
rc::Gen<int64_t> Tokens(Tier t, bool with_zero = true);
// Head dims: 1, odd, tile-ish and the common 64 / 128.
rc::Gen<int64_t> HeadDim(Tier t);
// Request block lengths (0 = an empty request), 1..5 requests.
rc::Gen<std::vector<int64_t>> Blocks(Tier t);

// Draws Hkv, Hq = Hkv * group, D (narrowed when `keys` is long), the softmax
// scale, the input magnitude "mag", the dtypes "in" / "out" into p.
void DrawHeads(Params& p, Tier t, int64_t keys);

// query [tq, Hq, D], `key` / `value` [tk, Hkv, D] (inputs, N(0, mag^2)), out [tq, Hq, D].
void AddQuartet(Case& c, int64_t tq, int64_t tk, const std::string& key = "key",
                const std::string& value = "value");

oracle::AttnShape ShapeOf(const Case& c, const std::string& key = "key");

// attention's `qk=unit_rms` draws (the slice vt-fuzz --upstream holds to
// vLLM's dense_attention chain, whose per-head GemmaRMSNorm comes first):
// every query and key head row is whole numbers in [-3, 3] whose squares sum
// to exactly D, times UnitRmsScale(mag) - a power of two, so the norm (rms 1
// exactly, weight scale - 1) and a rotation at position 0 give the row back
// bit for bit. Zeros are +0.
double UnitRmsScale(double mag);
void FillUnitRmsRows(TensorData& t, int64_t d, double scale, uint64_t seed);
// Whether every d-wide row of `values` is such a row at `scale`.
bool IsUnitRmsRows(const std::vector<double>& values, int64_t d, double scale);

// The baseline rule for `out` (docs/ops/attn.md): |kernel - oracle<double>| <=
// kBaselineC * max|oracle<float> - oracle<double>|.
inline constexpr double kBaselineC = 2.0;
// The CUDA flash kernels' key tile (Bc: kernels/cuda/attn/flash_tile.cuh
// kKeyTile), where their online softmax rescales: the tile of the
// same-precision reference their rule is derived from (attention.cpp). The
// unit test AttentionFlashBaseline.* holds the kernels' bytes to that
// reference, so the two constants cannot drift apart unseen.
inline constexpr int64_t kFlashKeyTile = 16;
std::vector<OutputSpec> BaselineOutputs(const Case& c);
// oracle<double> and oracle<float> of `out` -> the baseline rule's Expected.
OracleResult BaselineResult(const Case& c, const std::vector<double>& truth, const std::vector<float>& f32);
// The same rule over several same-precision references - faithful f32
// evaluations of the op in different orders (attention_dense_flash / _fa2:
// the spec's three passes and the CUDA kernels' online softmax): e =
// kBaselineC x the largest of their worst errors.
OracleResult BaselineResult(const Case& c, const std::vector<double>& truth,
                            const std::vector<std::vector<float>>& refs);

// The request blocks' offsets [0, b0, b0+b1, ...] (knob "blocks").
std::vector<int64_t> BlockOffsets(const Params& p);

// [t, h, d] values with every head repeated `group` times: [t, h*group, d].
std::vector<double> RepeatHeads(const std::vector<double>& x, int64_t t, int64_t h, int64_t d, int64_t group);
// The case with key/value (by name) expanded to Hq heads (MHA), params "Hkv" = Hq.
Case ExpandedKV(const Case& c, const std::vector<std::string>& kv);

// Error cases: every named tensor's extent `dim` += delta together (a shape
// relation between operands that move together, e.g. key and value tokens).
ErrorCase DimsTogether(const std::string& name, const std::vector<std::string>& tensors, int dim, int64_t delta,
                       const std::string& expect);
// The DFlash arguments and block offsets both DFlash entries refuse: a
// negative window, no requests, cu_seqlens not starting at 0, ending past
// the tokens (named `end_past`), decreasing.
std::vector<ErrorCase> DFlashErrors(const std::string& end_past);

}  // namespace vt::conform::attn_entry

namespace vt::conform::attn_entry {
// The entry of attention and of its CUDA-variant names (one spec; the
// aliases add the claim that they equal attention bit for bit).
OpSpec DenseAttentionSpec(const std::string& name);
}  // namespace vt::conform::attn_entry
