// vLLM's rope scalings as pure functions: the cos/sin cache that vLLM's
// rotary_embedding package builds for a `rope_parameters` dict (get_rope),
// reproduced in vLLM's own float32 evaluation order so the recorded cache bits
// come out (docs/ops/rope.md, "Rope scalings", has each formula and the vLLM
// class it follows). Used by the long_context_rope golden adapter
// (long_context_rope.cpp): the cache is built here, compared with the
// recorded one, then applied through rope_from_cache.
//
// Why float32 step by step: vLLM computes inv_freq, t * inv_freq, cos/sin and
// the mscale multiply as float32 torch ops. A position near 131k multiplies any
// difference in inv_freq by 1.3e5, so an inv_freq evaluated in double (one
// rounding instead of four) moves the angle by up to ~1e-2 rad and fails a 1e-5
// golden. Each f32 torch op is emulated by one correctly rounded f32 operation
// (the build uses -ffp-contract=off); torch's own pow/cos are within 1 ulp of
// correct rounding, which is the residual this module cannot remove.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vt::conform::rope {

// A rope_parameters dict that is malformed (a key of the wrong type, a value
// out of range, an unknown rope_type): the manifest's fault.
class RopeScalingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A scaling vLLM ships that this module does not build (deepseek_yarn, ntk,
// mllama4, ...): reported UNSUPPORTED with the name, never passed.
class RopeScalingUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Kind { kDefault, kLinear, kLlama3, kDynamicFactor, kDynamicAlpha, kNtk, kYarn, kDeepseekYarn, kLongRope };
const char* Name(Kind k);

struct RopeScaling {
  Kind kind = Kind::kDefault;
  int64_t head_size = 0;
  int64_t rotary_dim = 0;
  int64_t max_position = 0;  // get_rope's max_position
  double theta = 10000.0;    // rope_theta
  bool is_neox = true;

  std::vector<double> factors;  // linear (one cache per factor); factors[0] for the others
  int64_t original_max_position = 0;
  // llama3
  double low_freq_factor = 0, high_freq_factor = 0;
  // dynamic NTK
  int64_t max_trained_positions = 0;
  double alpha = 0;
  // fixed / mixed NTK (rope_type ntk): mixed when mixed_b is given
  std::optional<double> mixed_b;
  // YaRN (both spellings vLLM has used: extrapolation_factor / attn_factor /
  // apply_yarn_scaling, and attention_factor / mscale / mscale_all_dim);
  // DeepSeek's YaRN reads beta_fast, beta_slow, mscale (1), mscale_all_dim (0)
  double beta_fast = 32, beta_slow = 1;
  double extrapolation_factor = 1, attn_factor = 1;
  bool apply_yarn_scaling = true, truncate = true;
  std::optional<double> attention_factor, mscale, mscale_all_dim;
  // mrope (MRotaryEmbedding: default or YaRN inside)
  std::vector<int64_t> mrope_section;  // empty: no mrope
  bool mrope_interleaved = false;
  int64_t mrope_positions_factor = 4;
  // Phi-3 LongRoPE
  std::vector<double> short_factor, long_factor;
  std::optional<double> short_mscale, long_mscale;
  int64_t max_model_len = 0;  // decides short vs long (vLLM reads it from its config)

  bool Mrope() const { return !mrope_section.empty(); }
  // Phi-3: the long factors are used (positions index the long half of the cache).
  bool UseLongRope() const { return kind == Kind::kLongRope && max_model_len > original_max_position; }
};

// Parses get_rope's inputs. `rope_parameters` uses vLLM's key spellings
// (rope_type or legacy type, rope_theta, rope_dim / partial_rotary_factor,
// factor, original_max_position_embeddings, low_freq_factor, high_freq_factor,
// max_trained_positions, alpha, mixed_b, beta_fast, beta_slow, extrapolation_factor,
// attn_factor, attention_factor, apply_yarn_scaling, mscale, mscale_all_dim,
// truncate, short_factor, long_factor, short_mscale, long_mscale,
// mrope_section, mrope_interleaved, mrope_positions_factor). max_model_len
// absent: vLLM's default, the model's max_position.
RopeScaling ParseRopeScaling(const nlohmann::ordered_json& rope_parameters, int64_t head_size, int64_t max_position,
                             bool is_neox, std::optional<int64_t> max_model_len);

// The cache as vLLM lays it out: one or more segments of rows, each from one
// inv_freq vector: row j of a segment is
//   [cos(f32(t_j * inv_freq)) * mscale | sin(...) * mscale],  t_j = f32(j / t_divisor)
// (LinearScaling divides t; Phi-3 concatenates a short and a long segment).
struct CacheSegment {
  int64_t rows = 0;
  std::vector<float> inv_freq;  // rotary_dim / 2
  float mscale = 1.0f;          // 1 multiplies exactly: one code path for all
  float t_divisor = 1.0f;
};
struct CachePlan {
  int64_t rotary_dim = 0;
  std::vector<CacheSegment> segments;
  int64_t Rows() const;
};

CachePlan PlanCache(const RopeScaling& s);
// Row `row` (0 <= row < Rows()) into out[rotary_dim].
void FillRow(const CachePlan& plan, int64_t row, float* out);
// The whole cache, row-major [Rows(), rotary_dim], f32 (vLLM casts it to the
// model dtype afterwards; the caller rounds).
std::vector<float> BuildCache(const CachePlan& plan);
// The cache row vLLM reads for a position (Phi-3 in long mode adds the
// original max position; every other scaling reads row == position).
int64_t CacheRow(const RopeScaling& s, int64_t position);

// The YaRN pieces, exposed for tests and docs: the correction range (low,
// high) in double as vLLM's yarn_find_correction_range returns it, and the
// magnitude scale (yarn_get_mscale with the attention-factor rules).
std::pair<double, double> YarnCorrectionRange(double beta_fast, double beta_slow, int64_t dim, double base,
                                              double max_position, bool truncate);
double YarnMscale(const RopeScaling& s);

}  // namespace vt::conform::rope
