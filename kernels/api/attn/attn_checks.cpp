#include "api/attn/attn_checks.h"

#include <string>

namespace vt::api {

AttnDims CheckAttnOperands(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& query,
                           const Tensor& key, const Tensor& value, float scale, const char* key_name,
                           const char* value_name) {
  c.Operand(ctx, query, "query");
  c.Rank(query, "query", 3);
  c.FloatIn(query, "query");
  c.Contiguous(query, "query");
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{key, key_name}, {value, value_name}}) {
    c.Operand(ctx, t, name);
    c.Rank(t, name, 3);
    c.SameDType(t, name, query, "query");
    c.Contiguous(t, name);
  }
  c.Operand(ctx, out, "out");
  c.Rank(out, "out", 3);
  c.FloatOut(out, "out");
  c.Contiguous(out, "out");

  AttnDims dims;
  dims.tq = query.shape[0];
  dims.hq = query.shape[1];
  dims.d = query.shape[2];
  dims.tk = key.shape[0];
  dims.hk = key.shape[1];
  c.Require("key.head_dim", key.shape[2] == dims.d,
            std::string(key_name) + " must be [S, Hkv, D] with query's head_dim D = " + std::to_string(dims.d) +
                ", got " + key.Describe());
  // value pairs with key row for row and head for head.
  c.SameShape(value, value_name, key, key_name);
  c.Require("heads.gqa", dims.hk > 0 && dims.hq > 0 && dims.hq % dims.hk == 0,
            "query heads Hq = " + std::to_string(dims.hq) + " must be a positive multiple of the " + key_name +
                " heads Hkv = " + std::to_string(dims.hk));
  c.Shape(out, "out", {dims.tq, dims.hq, dims.d});
  c.PositiveFinite(scale, "scale");
  CheckOutputApart(c, out, query, "query");
  CheckOutputApart(c, out, key, key_name);
  CheckOutputApart(c, out, value, value_name);
  return dims;
}

void CheckOutputApart(const Checker& c, const Tensor& out, const Tensor& in, const char* in_name) {
  c.NoOverlap(out, "out", in, in_name);
}

void CheckDFlashArgs(const Checker& c, int64_t sliding_window, int num_reqs) {
  c.Require("sliding_window.range", sliding_window >= 0,
            "sliding_window must be >= 0 (0 = no window), got " + std::to_string(sliding_window));
  c.Require("num_reqs.range", num_reqs >= 1, "num_reqs must be >= 1, got " + std::to_string(num_reqs));
}

}  // namespace vt::api

namespace vt::api {

void CheckCuSeqlens(const Checker& c, const char* name, const int32_t* cu, int64_t n, int64_t total,
                    const char* total_name) {
  const std::string nm(name);
  c.Require("cu_seqlens.start", cu[0] == 0, nm + "[0] must be 0, got " + std::to_string(cu[0]));
  c.Require("cu_seqlens.end", cu[n] == total,
            nm + "[num_reqs] must equal " + total_name + " = " + std::to_string(total) + ", got " +
                std::to_string(cu[n]));
  int64_t bad = -1;
  for (int64_t r = 0; r < n && bad < 0; ++r) {
    if (cu[r + 1] < cu[r]) bad = r;
  }
  c.Require("cu_seqlens.monotone", bad < 0,
            nm + " must be non-decreasing: " + nm + "[" + std::to_string(bad + 1) + "] = " +
                (bad < 0 ? std::string() : std::to_string(cu[bad + 1])) + " < " + nm + "[" + std::to_string(bad) +
                "] = " + (bad < 0 ? std::string() : std::to_string(cu[bad])) + " (a negative block length)");
}

}  // namespace vt::api
