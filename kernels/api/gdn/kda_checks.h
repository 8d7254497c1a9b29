// Validation shared by kda_gated_delta_rule and kda_chunk_prefill
// (op-contracts 3.6, CheckGdnCommon with a per-key-channel gate, and the
// varlen metadata). Every check reads shapes, dtypes and the query_start_loc
// values only; nothing is written, so a refused call leaves out and the
// in-place state unchanged (the seed checks query_start_loc inside the kernel;
// here it is checked before dispatch).
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "api/check.h"
#include "vt/ops_kda.h"

namespace vt::api {

// out and state against further read-only operands (already validated views).
inline void CheckKdaNoOverlap(const Checker& c, const Tensor& out, const Tensor& state,
                              std::initializer_list<std::pair<const char*, const Tensor*>> extra) {
  for (const auto& [name, in] : extra) {
    c.NoOverlap(out, "out", *in, name);
    c.NoOverlap(state, "state", *in, name);
  }
}

// `gate` is g (kda_gated_delta_rule) or g_raw (kda_chunk_prefill), [T,Hv,Dk]
// f32. Further read-only operands (kda_chunk_prefill's a_log, dt_bias) are
// checked by the caller, then passed to CheckKdaNoOverlap.
inline void CheckKda(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& q,
                     const Tensor& k, const Tensor& v, const Tensor& gate, const char* gate_name,
                     const Tensor& beta, const Tensor& state, const Tensor& qsl, const KdaArgs& args) {
  c.Operand(ctx, q, "q");
  c.Rank(q, "q", 3);
  c.FloatIn(q, "q");
  c.Contiguous(q, "q");
  const int64_t t = q.shape[0], hk = q.shape[1], dk = q.shape[2];
  c.Require("q.key_heads", hk >= 1, "Hk = q.shape[1] must be >= 1, got " + q.Describe());
  c.Require("q.head_dim", dk >= 1, "Dk = q.shape[2] must be >= 1, got " + q.Describe());
  c.Operand(ctx, k, "k");
  c.FloatIn(k, "k");
  c.Shape(k, "k", {t, hk, dk});
  c.Contiguous(k, "k");
  c.Operand(ctx, v, "v");
  c.Rank(v, "v", 3);
  c.FloatIn(v, "v");
  c.Contiguous(v, "v");
  const int64_t hv = v.shape[1], dv = v.shape[2];
  c.Require("v.tokens", v.shape[0] == t, "v token count must match q's T = " + std::to_string(t) + ", got " + v.Describe());
  c.Require("v.gqa", hv >= 1 && hv % hk == 0,
            "Hv = v.shape[1] must be a positive multiple of Hk = " + std::to_string(hk) + ", got " + v.Describe());
  c.Require("v.head_dim", dv >= 1, "Dv = v.shape[2] must be >= 1, got " + v.Describe());
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.Shape(out, "out", {t, hv, dv});
  c.Contiguous(out, "out");
  // An input of one dtype whose whole shape the operands before it fixed.
  const auto fixed = [&c, &ctx](const Tensor& x, const char* name, DType dtype, const std::vector<int64_t>& shape) {
    c.Operand(ctx, x, name);
    c.DType(x, name, {dtype});
    c.Shape(x, name, shape);
    c.Contiguous(x, name);
  };
  fixed(gate, gate_name, DType::kF32, {t, hv, dk});
  fixed(beta, "beta", DType::kF32, {t, hv});
  c.Operand(ctx, state, "state");
  c.DType(state, "state", {DType::kF32});
  c.Rank(state, "state", 4);
  c.Contiguous(state, "state");
  const int64_t n = state.shape[0];
  c.Require("state.heads_dims", state.shape[1] == hv && state.shape[2] == dv && state.shape[3] == dk,
            "state must be [N, Hv, Dv, Dk] = [N, " + std::to_string(hv) + ", " + std::to_string(dv) + ", " +
                std::to_string(dk) + "], got " + state.Describe());
  fixed(qsl, "query_start_loc", DType::kI32, {n + 1});
  c.PositiveFinite(args.scale, "scale");
  // Written operands: out and state (in place) overlap nothing.
  c.NoOverlap(out, "out", state, "state");
  CheckKdaNoOverlap(c, out, state,
                    {{"q", &q}, {"k", &k}, {"v", &v}, {gate_name, &gate}, {"beta", &beta}, {"query_start_loc", &qsl}});
  // The values (after the overlap checks: an out or state bound over
  // query_start_loc would have changed them): tile [0, T) in order, empty
  // sequences allowed.
  // Read through HostValues: on a device backend qsl is device memory.
  std::vector<int32_t> loc(static_cast<std::size_t>(n + 1));
  if (n + 1 > 0) {
    const HostValues host(ctx, qsl);
    std::memcpy(loc.data(), host->data, loc.size() * sizeof(int32_t));
  }
  c.Require("query_start_loc.bounds", loc.front() == 0 && loc.back() == t,
            "query_start_loc must start at 0 and end at T = " + std::to_string(t) + ", got " +
                std::to_string(loc.front()) + " .. " + std::to_string(loc.back()));
  int64_t bad = -1;
  for (int64_t s = 0; s < n && bad < 0; ++s) {
    if (loc[static_cast<std::size_t>(s + 1)] < loc[static_cast<std::size_t>(s)]) bad = s;
  }
  c.Require("query_start_loc.monotone", bad < 0,
            "query_start_loc must be non-decreasing, got [" + std::to_string(bad) + "] = " +
                (bad < 0 ? std::string() : std::to_string(loc[static_cast<std::size_t>(bad)])) + " > [" +
                std::to_string(bad + 1) + "] = " +
                (bad < 0 ? std::string() : std::to_string(loc[static_cast<std::size_t>(bad + 1)])));
}

}  // namespace vt::api
