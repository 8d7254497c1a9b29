#include "harness/catalog/gemm/gemm_entry.h"

namespace vt::conform::gemm_entry {

std::vector<double> Transposed(const std::vector<double>& v, int64_t rows, int64_t cols) {
  std::vector<double> t(v.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      t[static_cast<std::size_t>(j * rows + i)] = v[static_cast<std::size_t>(i * cols + j)];
    }
  }
  return t;
}

TensorData RepackedView(const TensorData& b_kn, const std::string& name) {
  TensorData t = PlainCopy(b_kn, name, Role::kInput);  // [K,N] bytes, row-major
  const int64_t k = b_kn.shape[0], n = b_kn.shape[1];
  t.shape = {n, k};
  t.strides = {1, std::max<int64_t>(n, 1)};
  t.kn_repacked = true;
  return t;
}

TensorData PlainCopy(const TensorData& src, const std::string& name, Role role) {
  TensorData t = CopyTensor(src, name, role);
  t.kn_repacked = false;
  return t;
}

Claim KZeroWritesZeros() {
  Claim c;
  c.name = "k_zero_writes_zeros";
  c.statement = "with K = 0 every output element is +0 (the empty sum), whatever out held before";
  c.applies = [](const Params& p) { return p.Int("K") != 0; };
  c.check = [](const OpSpec& op, const Case& drawn, const vt::ExecContext& ctx) {
    Params p = drawn.params;
    p.Set("K", 0);
    const Case zero = MakeCase(op, p);
    bool any = false;
    for (const TensorData& t : zero.tensors) any = any || (t.role != Role::kInput && t.Numel() > 0);
    if (!any) return ClaimOutcome::NotApplicable("the output is empty");
    const Execution run = Execute(op, zero, ctx);
    if (!run.guard_error.empty()) return ClaimOutcome::Violated(run.guard_error);
    for (const TensorData& t : run.after.tensors) {
      if (t.role == Role::kInput) continue;
      const std::vector<uint8_t> bytes = t.LogicalBytes();
      for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] != 0) {
          return ClaimOutcome::Violated(t.name + " byte " + std::to_string(i) + " is " +
                                        std::to_string(bytes[i]) + " after a K = 0 run, want +0 everywhere");
        }
      }
    }
    return ClaimOutcome::Holds();
  };
  return c;
}

}  // namespace vt::conform::gemm_entry
