#include "api/rope/rope_checks.h"

#include <cmath>
#include <cstring>
#include <string>

namespace vt::api {

void CheckRotaryDim(const Checker& c, int rotary_dim, int64_t head_dim) {
  c.Require("rotary_dim.range", rotary_dim > 0 && rotary_dim % 2 == 0 && rotary_dim <= head_dim,
            "rotary_dim must be even and in (0, head_dim = " + std::to_string(head_dim) + "], got " +
                std::to_string(rotary_dim));
}

void CheckTokenPositions(const Checker& c, const ExecContext& ctx, const Tensor& positions, int64_t tokens) {
  c.Operand(ctx, positions, "positions");
  c.Rank(positions, "positions", 1);
  c.DType(positions, "positions", {DType::kI32, DType::kI64});
  c.Contiguous(positions, "positions");
  c.Shape(positions, "positions", {tokens});
}

void CheckPositionsInCache(const Checker& c, const ExecContext& ctx, const Tensor& device_positions, int64_t rows) {
  const HostValues host(ctx, device_positions);  // the values, readable on the host
  const Tensor& positions = *host;
  const int64_t n = positions.Numel();
  int64_t bad_at = -1, bad = 0;
  for (int64_t i = 0; i < n && bad_at < 0; ++i) {
    int64_t p = 0;
    if (positions.dtype == DType::kI32) {
      int32_t v;
      std::memcpy(&v, static_cast<const char*>(positions.data) + i * 4, 4);
      p = v;
    } else {
      std::memcpy(&p, static_cast<const char*>(positions.data) + i * 8, 8);
    }
    if (p < 0 || p >= rows) bad_at = i, bad = p;
  }
  c.Require("positions.in_cache", bad_at < 0,
            "positions must lie in [0, P = " + std::to_string(rows) + ") of the cache, got " +
                std::to_string(bad) + " at flat index " + std::to_string(bad_at));
}

void CheckFrequencyArgs(const Checker& c, const RopeArgs& args) {
  c.PositiveFinite(args.base, "base");
  c.Require("range(llama3_scaling_factor)",
            std::isfinite(args.llama3_scaling_factor) && args.llama3_scaling_factor >= 0.0f,
            "llama3_scaling_factor must be finite and >= 0 (0 = no rescale), got " +
                std::to_string(args.llama3_scaling_factor));
  c.PositiveFinite(args.llama3_low_freq_factor, "llama3_low_freq_factor");
  c.PositiveFinite(args.llama3_high_freq_factor, "llama3_high_freq_factor");
  c.PositiveFinite(args.llama3_orig_max_position, "llama3_orig_max_position");
}

}  // namespace vt::api
