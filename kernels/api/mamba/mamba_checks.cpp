#include "api/mamba/mamba_checks.h"

#include <cstring>
#include <string>

namespace vt::api::mamba {

void FloatOperand(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                  int rank, bool output) {
  c.Operand(ctx, t, name);
  c.Rank(t, name, rank);
  if (output) {
    c.FloatOut(t, name);
  } else {
    c.FloatIn(t, name);
  }
  c.Contiguous(t, name);
}

void HeadVector(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name,
                int64_t heads) {
  c.Operand(ctx, t, name);
  c.Rank(t, name, 1);
  c.DType(t, name, {vt::DType::kF32});
  c.Contiguous(t, name);
  c.Shape(t, name, {heads});
}

void IndexVector(const Checker& c, const ExecContext& ctx, const Tensor& t, const char* name) {
  c.Operand(ctx, t, name);
  c.Rank(t, name, 1);
  c.DType(t, name, {vt::DType::kI32});
  c.Contiguous(t, name);
}

void ANegative(const Checker& c, const ExecContext& ctx, const Tensor& device_A) {
  const HostValues host(ctx, device_A);  // the values, readable on the host
  const Tensor& A = *host;
  const float* a = static_cast<const float*>(A.data);
  int64_t bad = -1;
  for (int64_t h = 0; h < A.shape[0] && bad < 0; ++h) {
    float v;
    std::memcpy(&v, a + h, sizeof v);
    if (!(v < 0.0f)) bad = h;
  }
  c.Require("A.negative", bad < 0,
            "A must be strictly negative (A = -exp(A_log)); A[" + std::to_string(bad) + "] is not");
}

void SingleRank(const Checker& c, const Mamba2Args& args) {
  c.Require("range(tp_world_size)", args.tp_world_size == 1,
            "tp_world_size must be 1 (tensor-parallel head splits are not implemented), got " +
                std::to_string(args.tp_world_size));
}

SsmDims SsmOperands(const Checker& c, const ExecContext& ctx, const Tensor& x, const Tensor& dt, const Tensor& A,
                    const Tensor& B, const Tensor& C, const Tensor& out, const Tensor& state, const char* state_name,
                    const std::string& rows, bool rows_nonempty) {
  FloatOperand(c, ctx, x, "x", 3, false);
  SsmDims d{};
  d.rows = x.shape[0], d.H = x.shape[1], d.P = x.shape[2];
  c.Require("x.nonempty", (d.rows > 0 || !rows_nonempty) && d.H > 0 && d.P > 0,
            "x [" + rows + ",H,P] must have " + (rows_nonempty ? rows + ", " : std::string()) + "H, P > 0, got " +
                x.Describe());
  FloatOperand(c, ctx, dt, "dt", 2, false);
  c.Shape(dt, "dt", {d.rows, d.H});
  HeadVector(c, ctx, A, "A", d.H);
  FloatOperand(c, ctx, B, "B", 3, false);
  d.G = B.shape[1], d.N = B.shape[2];
  c.Shape(B, "B", {d.rows, d.G, d.N});
  c.Require("B.groups", d.G > 0 && d.N > 0 && d.H % d.G == 0,
            "B [" + rows + ",G,N] needs G > 0 dividing H = " + std::to_string(d.H) + " and N > 0, got " +
                B.Describe());
  FloatOperand(c, ctx, C, "C", 3, false);
  c.SameShape(C, "C", B, "B");
  FloatOperand(c, ctx, out, "out", 3, true);
  c.SameShape(out, "out", x, "x");
  FloatOperand(c, ctx, state, state_name, 4, true);
  d.S = state.shape[0];
  c.Shape(state, state_name, {d.S, d.H, d.P, d.N});
  return d;
}

std::vector<int32_t> ReadI32(const ExecContext& ctx, const Tensor& device_t) {
  const HostValues host(ctx, device_t);  // the values, readable on the host
  const Tensor& t = *host;
  std::vector<int32_t> v(static_cast<std::size_t>(t.Numel()));
  if (!v.empty()) std::memcpy(v.data(), t.data, v.size() * sizeof(int32_t));
  return v;
}

}  // namespace vt::api::mamba
