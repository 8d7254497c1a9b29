// The gate operands gdn_g_beta and gdn_post_conv share (op-contracts 3.4,
// GdnGBeta): g_out, beta_out [T,Hv] f32 contiguous; a, b [T,Hv] one dtype of
// f32/bf16, row-strided; a_log, dt_bias [Hv] f32 contiguous. The caller has
// checked g_out's view and rank (it defines T and Hv).
#pragma once

#include <initializer_list>
#include <utility>

#include "api/check.h"

namespace vt::api {

// `others`: the op's remaining operands (name, view) that no gate output may
// overlap.
inline void CheckGdnGate(const Checker& c, const ExecContext& ctx, const Tensor& g_out,
                         const Tensor& beta_out, const Tensor& a, const Tensor& b, const Tensor& a_log,
                         const Tensor& dt_bias,
                         std::initializer_list<std::pair<const char*, const Tensor*>> others) {
  c.DType(g_out, "g_out", {DType::kF32});
  c.Contiguous(g_out, "g_out");
  const std::vector<int64_t> rows(g_out.shape, g_out.shape + 2);
  const std::vector<int64_t> heads = {g_out.shape[1]};
  c.Operand(ctx, beta_out, "beta_out");
  c.DType(beta_out, "beta_out", {DType::kF32});
  c.Shape(beta_out, "beta_out", rows);
  c.Contiguous(beta_out, "beta_out");
  c.Operand(ctx, a, "a");
  c.DType(a, "a", {DType::kF32, DType::kBF16});
  c.Shape(a, "a", rows);
  c.RowStrided(a, "a");
  c.Operand(ctx, b, "b");
  c.SameDType(b, "b", a, "a");
  c.Shape(b, "b", rows);
  c.RowStrided(b, "b");
  c.Operand(ctx, a_log, "a_log");
  c.DType(a_log, "a_log", {DType::kF32});
  c.Shape(a_log, "a_log", heads);
  c.Contiguous(a_log, "a_log");
  c.Operand(ctx, dt_bias, "dt_bias");
  c.DType(dt_bias, "dt_bias", {DType::kF32});
  c.Shape(dt_bias, "dt_bias", heads);
  c.Contiguous(dt_bias, "dt_bias");
  c.NoOverlap(g_out, "g_out", beta_out, "beta_out");
  const std::pair<const char*, const Tensor*> inputs[] = {
      {"a", &a}, {"b", &b}, {"a_log", &a_log}, {"dt_bias", &dt_bias}};
  for (const auto& [name, t] : inputs) {
    c.NoOverlap(g_out, "g_out", *t, name);
    c.NoOverlap(beta_out, "beta_out", *t, name);
  }
  for (const auto& [name, t] : others) {
    c.NoOverlap(g_out, "g_out", *t, name);
    c.NoOverlap(beta_out, "beta_out", *t, name);
  }
}

}  // namespace vt::api
