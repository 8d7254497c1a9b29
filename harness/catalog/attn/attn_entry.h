// Helpers the attention-family catalog entries share: extents (small key
// ranges mostly, a few long ones with narrow heads so the ci tier stays
// fast), the q/k/v/out quartet, request blocks, the baseline tolerance, and
// the claims several entries make (GQA head expansion, alias == attention).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/catalog/entry.h"
#include "oracles/attn/softmax_attention.h"

namespace vt::conform::attn_entry {

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

// The baseline rule for `out` (docs/ops/attn.md): |kernel - oracle<double>| <=
// kBaselineC * max|oracle<float> - oracle<double>|.
inline constexpr double kBaselineC = 2.0;
std::vector<OutputSpec> BaselineOutputs(const Case& c);
// oracle<double> and oracle<float> of `out` -> the baseline rule's Expected.
OracleResult BaselineResult(const Case& c, const std::vector<double>& truth, const std::vector<float>& f32);

// The i32 values of a metadata tensor declared through fill overrides.
void SetI32(TensorData& t, const std::vector<int64_t>& values);
std::vector<int64_t> DeclaredI32(const TensorData& t);
// Prefix sums of block lengths: [0, b0, b0+b1, ...].
std::vector<int64_t> CuOf(const std::vector<int64_t>& blocks);
std::vector<int64_t> BlocksOf(const Params& p);

// [t, h, d] values with every head repeated `group` times: [t, h*group, d].
std::vector<double> RepeatHeads(const std::vector<double>& x, int64_t t, int64_t h, int64_t d, int64_t group);
// The case with key/value (by name) expanded to Hq heads (MHA), params "Hkv" = Hq.
Case ExpandedKV(const Case& c, const std::vector<std::string>& kv);

// Error cases: every named tensor's extent `dim` += delta together (a shape
// relation between operands that move together, e.g. key and value tokens).
ErrorCase DimsTogether(const std::string& name, const std::vector<std::string>& tensors, int dim, int64_t delta,
                       const std::string& expect);
// Sets a params key the entry's Run reads (present or not): an argument the
// generator never draws (e.g. a null host pointer, a block_size argument that
// differs from the cache's page height).
ErrorCase SetArg(const std::string& name, const std::string& key, Json value, const std::string& expect);
// The named extents set to exactly 0 (tensors the case lacks are skipped).
ErrorCase ZeroExtents(const std::string& name, const std::vector<std::pair<std::string, int>>& dims,
                      const std::string& expect);
// key/value heads set to Hq + 1: not a divisor of Hq.
ErrorCase HeadsNotDividing(const std::string& key, const std::string& value);
// One value of an i32 metadata tensor replaced (applies when `edit` returns true).
ErrorCase MetaEdit(const std::string& name, const std::string& tensor,
                   std::function<bool(std::vector<int64_t>&, const Case&)> edit, const std::string& expect);

// The quartet's contract operands.
std::vector<OperandRule> QuartetOperands(const std::string& key = "key", const std::string& value = "value");

}  // namespace vt::conform::attn_entry

namespace vt::conform::attn_entry {
// The entry of attention and of its CUDA-variant names (one spec; the
// aliases add the claim that they equal attention bit for bit).
OpSpec DenseAttentionSpec(const std::string& name);
}  // namespace vt::conform::attn_entry
