#include "harness/catalog/gemm/gemm_entry.h"

namespace vt::conform::gemm_entry {
namespace {

// [rows, cols] logical values -> [cols, rows].
std::vector<double> Transposed(const std::vector<double>& v, int64_t rows, int64_t cols) {
  std::vector<double> t(v.size());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      t[static_cast<std::size_t>(j * rows + i)] = v[static_cast<std::size_t>(i * cols + j)];
    }
  }
  return t;
}

std::vector<OutputSpec> Outputs(const Case& c) { return {OutSpec(c.params)}; }

// A definition evaluated on a case's a and b, at the extents it reads from them.
template <class S>
std::function<std::vector<S>(const Case&)> OnMatrices(MatrixOracle<S> definition) {
  return [definition](const Case& c) {
    const TensorData& a = c.Get("a");  // [M,K]; out [M,N]; b [K,N] or, matmul_bt, [N,K]
    return definition(a.shape[0], a.shape[1], c.Get("out").shape[1], a.Values(), c.Get("b").Values());
  };
}
template <class S>
std::function<std::vector<S>(const Case&)> OnBatches(BatchedOracle<S> definition) {
  return [definition](const Case& c) {
    const TensorData& a = c.Get("a");  // [G,M,K]; b [G,K,N]
    return definition(a.shape[0], a.shape[1], a.shape[2], c.Get("b").shape[2], a.Values(), c.Get("b").Values());
  };
}

// The shared part of both Spec overloads; `eval` gives out's values at S.
OpSpec Common(std::string name, std::string dtypes, void (*knobs)(Params&, Tier), GemmKernel kernel,
              std::function<std::vector<entry::Bounded>(const Case&)> eval,
              std::function<std::vector<float>(const Case&)> eval_f32) {
  OpSpec s;
  s.name = std::move(name);
  s.family = "gemm";
  s.dtypes = std::move(dtypes);
  s.gen = [op = s.name, knobs](Tier tier) {
    return rc::gen::exec([op, knobs, tier] {
      Params p(op);
      knobs(p, tier);
      p.Set("fill", *FillKnob());
      p.Set("scale", *gen::Scale());
      p.seed = *gen::Seed();
      return p;
    });
  };
  s.run = [kernel](const vt::ExecContext& ctx, const Workspace& ws) { kernel(ctx, ws["out"], ws["a"], ws["b"]); };
  s.oracle = [eval](const Case& c) { return entry::ToOracleResult({{"out", eval(c)}}); };
  s.oracle_f32 = [eval_f32](const Case& c) {
    const std::vector<float> out = eval_f32(c);
    return std::map<std::string, std::vector<double>>{{"out", {out.begin(), out.end()}}};
  };
  s.outputs = Outputs;
  return s;
}

}  // namespace

OpSpec Spec(std::string name, std::string dtypes, void (*knobs)(Params&, Tier), GemmKernel kernel,
            MatrixOracle<entry::Bounded> oracle, MatrixOracle<float> oracle_f32) {
  return Common(std::move(name), std::move(dtypes), knobs, kernel, OnMatrices(oracle), OnMatrices(oracle_f32));
}

OpSpec Spec(std::string name, std::string dtypes, void (*knobs)(Params&, Tier), GemmKernel kernel,
            BatchedOracle<entry::Bounded> oracle, BatchedOracle<float> oracle_f32) {
  return Common(std::move(name), std::move(dtypes), knobs, kernel, OnBatches(oracle), OnBatches(oracle_f32));
}

void DrawMatrices(Params& p, Tier t) {
  p.Set("a", *gen::FloatIn());
  p.Set("b", *gen::FloatIn());
  p.Set("out", *gen::FloatOut());
  p.Set("M", *Rows(t));
  p.Set("K", *Depth(t));
  p.Set("N", *Cols(t));
}

void AddSharedClaims(OpSpec& s, std::vector<std::string> row_tensors) {
  s.claims.push_back(RowSlice(std::move(row_tensors)));
  s.claims.push_back(KZeroWritesZeros());
}

TensorData TransposedCopy(const TensorData& t, const std::string& name) {
  const int64_t rows = t.shape[0], cols = t.shape[1];
  return TensorFromValues(name, t.dtype, {cols, rows}, Role::kInput, Transposed(t.Values(), rows, cols));
}

Case SameProductAs(const Case& c, const std::string& other, TensorData b) {
  Case d;
  d.params = Params(other);
  for (const char* key : {"a", "b", "out", "M", "K", "N", "fill", "scale"}) d.params.Set(key, c.params.args[key]);
  d.params.seed = c.params.seed;
  d.tensors.push_back(PlainCopy(c.Get("a"), "a", Role::kInput));
  d.tensors.push_back(std::move(b));
  d.tensors.push_back(CopyTensor(c.Get("out"), "out", Role::kOutput));
  return d;
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
