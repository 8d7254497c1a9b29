#include "api/conv/conv_checks.h"

#include <cstring>

namespace vt::api {

void CheckConvCommon(const Checker& c, const ExecContext& ctx, const Tensor& out, const Tensor& x,
                     const Tensor& weight, const Tensor* bias, const Tensor& conv_state, bool exact_width) {
  c.Operand(ctx, x, "x");
  c.Rank(x, "x", 2);
  c.FloatIn(x, "x");
  c.RowStrided(x, "x");  // the merged projection's padded rows
  const int64_t channels = x.shape[1];
  c.Operand(ctx, weight, "weight");
  c.Rank(weight, "weight", 2);
  c.FloatIn(weight, "weight");
  c.Contiguous(weight, "weight");
  const int64_t k = weight.shape[1];
  c.Require("weight.width", k >= 1, "kernel width K = weight.shape[1] must be >= 1, got " + weight.Describe());
  c.Shape(weight, "weight", {channels, k});
  if (bias != nullptr) {
    c.Operand(ctx, *bias, "bias");
    c.Rank(*bias, "bias", 1);
    c.FloatIn(*bias, "bias");
    c.Contiguous(*bias, "bias");
    c.Shape(*bias, "bias", {channels});
  }
  c.Operand(ctx, conv_state, "conv_state");
  c.Rank(conv_state, "conv_state", 3);
  c.DType(conv_state, "conv_state", {vt::DType::kF32});
  c.Contiguous(conv_state, "conv_state");
  c.Require("conv_state.channels", conv_state.shape[1] == channels,
            "conv_state must be [N,C,L] with C = x.shape[1] = " + std::to_string(channels) + ", got " +
                conv_state.Describe());
  const int64_t width = k - 1, len = conv_state.shape[2];
  if (exact_width) {
    c.Require("conv_state.width", len == width,
              "conv_state must be [N,C,K-1] with K-1 = " + std::to_string(width) + " (the prefill conv uses the "
              "state row as exactly K-1 taps), got " + conv_state.Describe());
  } else {
    c.Require("conv_state.width", len >= width,
              "conv_state must be [N,C,L] with L >= K-1 = " + std::to_string(width) + ", got " +
                  conv_state.Describe());
  }
  c.Operand(ctx, out, "out");
  c.FloatOut(out, "out");
  c.SameShape(out, "out", x, "x");
  c.Contiguous(out, "out");
}

void CheckMeta(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
               std::initializer_list<vt::DType> dtypes, int64_t n) {
  c.Operand(ctx, t, name);
  c.Rank(t, name, 1);
  c.DType(t, name, dtypes);
  c.Contiguous(t, name);
  c.Shape(t, name, {n});
}

void CheckNoOverlaps(const Checker& c, const std::vector<Named>& written, const std::vector<Named>& all) {
  // Each unordered pair once: (out, conv_state) is one condition, not two
  // (the second order could never be the one that refuses).
  for (std::size_t i = 0; i < written.size(); ++i) {
    const Named& w = written[i];
    if (w.t == nullptr) continue;
    for (const Named& o : all) {
      if (o.t == nullptr || o.t == w.t) continue;
      bool seen = false;
      for (std::size_t j = 0; j < i; ++j) seen = seen || written[j].t == o.t;
      if (!seen) c.NoOverlap(*w.t, w.name, *o.t, o.name);
    }
  }
}

void CheckConvNoOverlaps(const Checker& c, const Tensor& out, const Tensor& x, const Tensor& weight,
                         const Tensor* bias, const Tensor& conv_state, const std::vector<Named>& meta) {
  std::vector<Named> all = {
      {&out, "out"}, {&x, "x"}, {&weight, "weight"}, {bias, "bias"}, {&conv_state, "conv_state"}};
  all.insert(all.end(), meta.begin(), meta.end());
  CheckNoOverlaps(c, {{&out, "out"}, {&conv_state, "conv_state"}}, all);
}

int64_t MetaAt(const Tensor& t, int64_t k) {
  const auto* p = static_cast<const unsigned char*>(t.data);
  if (t.dtype == vt::DType::kI8) {
    int8_t v;
    std::memcpy(&v, p + k, 1);
    return v;
  }
  int32_t v;
  std::memcpy(&v, p + k * 4, 4);
  return v;
}

void RequireCumulative(const Checker& c, const ExecContext& ctx, const Tensor& device_off, const char* name,
                       int64_t total, int64_t max_step, const std::string& what) {
  const HostValues host(ctx, device_off);  // the values, readable on the host
  const Tensor& off = *host;
  const int64_t n = off.shape[0];
  const std::string nm(name);
  const int64_t first = n > 0 ? MetaAt(off, 0) : 0, last = n > 0 ? MetaAt(off, n - 1) : 0;
  c.Require((nm + ".bounds").c_str(), n > 0 && first == 0 && last == total,
            nm + " must start at 0 and end at " + what + " = " + std::to_string(total) + ", got " +
                std::to_string(first) + " .. " + std::to_string(last));
  int64_t bad = -1;
  for (int64_t k = 1; k < n && bad < 0; ++k) {
    const int64_t step = MetaAt(off, k) - MetaAt(off, k - 1);
    if (step < 0 || (max_step >= 0 && step > max_step)) bad = k;
  }
  std::string msg;
  if (bad >= 0) {
    msg = nm + " must be non-decreasing" +
          (max_step >= 0 ? " with every length <= max_query_len = " + std::to_string(max_step) : std::string()) +
          ": " + nm + "[" + std::to_string(bad - 1) + "] = " + std::to_string(MetaAt(off, bad - 1)) + ", " + nm +
          "[" + std::to_string(bad) + "] = " + std::to_string(MetaAt(off, bad));
  }
  c.Require((nm + ".monotone").c_str(), bad < 0, msg);
}

void RequireSlots(const Checker& c, const ExecContext& ctx, const Tensor& device_idx, const char* name, int64_t slots,
                  bool allow_null, bool distinct) {
  const HostValues host(ctx, device_idx);  // the values, readable on the host
  const Tensor& idx = *host;
  const int64_t n = idx.shape[0];
  const std::string nm(name);
  int64_t bad = -1;
  for (int64_t k = 0; k < n && bad < 0; ++k) {
    const int64_t v = MetaAt(idx, k);
    if (v >= slots || (!allow_null && v < 0)) bad = k;
  }
  std::string msg;
  if (bad >= 0) {
    msg = nm + "[" + std::to_string(bad) + "] = " + std::to_string(MetaAt(idx, bad)) + " is outside " +
          (allow_null ? "(< 0 = NULL) [0, " : "[0, ") + std::to_string(slots) + ") (slots of the cache)";
  }
  c.Require((nm + ".range").c_str(), bad < 0, msg);
  if (!distinct) return;
  // Live slots are < slots here (checked above), so a bitmap finds repeats.
  std::vector<int64_t> first(static_cast<std::size_t>(slots), -1);
  std::string dup;
  for (int64_t k = 0; k < n && dup.empty(); ++k) {
    const int64_t v = MetaAt(idx, k);
    if (v < 0) continue;
    int64_t& f = first[static_cast<std::size_t>(v)];
    if (f >= 0) {
      dup = "duplicate live " + nm + ": rows " + std::to_string(f) + " and " + std::to_string(k) + " both name slot " +
            std::to_string(v) + " (a parallel read-modify-write race)";
    }
    f = k;
  }
  c.Require((nm + ".distinct").c_str(), dup.empty(), dup);
}

}  // namespace vt::api
