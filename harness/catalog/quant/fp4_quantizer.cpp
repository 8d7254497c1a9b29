#include "harness/catalog/quant/fp4_quantizer.h"

#include <algorithm>

#include "harness/catalog/claims.h"
#include "harness/golden/golden_io.h"

namespace vt::conform::quant {
namespace local_fp4_quantizer {  // apart in unity batches (harness/CMakeLists.txt)
namespace {

std::vector<std::string> Names(const std::vector<Fp4Input>& inputs) {
  std::vector<std::string> names;
  for (const Fp4Input& in : inputs) names.push_back(in.name);
  return names;
}

// Every input but the first (they share its inner dim).
std::vector<std::string> Rest(const std::vector<Fp4Input>& inputs) {
  std::vector<std::string> names = Names(inputs);
  names.erase(names.begin());
  return names;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

rc::Gen<Params> Gen(const Fp4Quantizer& q, Tier tier) {
  return rc::gen::exec([q, tier] {
    Params p(q.name);
    for (const Fp4Input& in : q.inputs) {
      std::vector<std::string> keys;
      for (vt::DType dt : in.dtypes) keys.emplace_back(vt::Name(dt));
      if (in.dtype_of_first) {
        p.Set(in.name, p.Str(q.inputs.front().name));
      } else {
        p.Set(in.name, keys.size() == 1 ? keys.front() : *gen::Pick(keys));
      }
    }
    p.Set("T", *gen::Rows(tier));
    p.Set("G", *Groups(tier));
    const double scale = *q.scale;
    p.Set("scale", scale);
    if (q.draw_gsi) {
      q.draw_gsi(p, scale);
    } else {
      p.Set("gsi", GsiValue(*GsiKnob(), q.magnitude(scale)));
    }
    p.Set("scale_layout", *ScaleLayoutKnob());
    p.seed = *gen::Seed();
    return p;
  });
}

void Build(const Fp4Quantizer& q, Case& c) {
  const Params& p = c.params;
  const int64_t t = p.Int("T"), k = 16 * p.Int("G");
  for (const Fp4Input& in : q.inputs) c.Input(in.name, p.DType(in.name), {t, q.per_i * k}, entry::Values(p));
  AddOutputs(c, t, k);
  if (q.after_build) q.after_build(c);
}

template <class S, class Oracle>
entry::Outs<S> Eval(const Fp4Quantizer& q, const Oracle& oracle, const Case& c) {
  Fp4Inputs inputs;
  for (const Fp4Input& in : q.inputs) inputs.push_back(c.Get(in.name).Values());
  const TensorData& first = c.Get(q.inputs.front().name);
  const int64_t rows = first.shape[0], k = first.shape[1] / q.per_i;
  return AsOutputs<S>(oracle(inputs, rows, k, static_cast<float>(c.params.Num("gsi"))), c.params, rows, k);
}

// The input given the first input's dtype's other of f32 / bf16 (the
// validator requires one dtype for both).
ErrorCase DTypeDiffers(const std::string& input) {
  return ErrorCase(
      input + "_dtype_differs",
      [input](Case& c) {
        TensorData* t = c.Find(input);
        if (t == nullptr) return false;
        t->dtype = t->dtype == vt::DType::kF32 ? vt::DType::kBF16 : vt::DType::kF32;
        t->fmt = oracle::FmtOf(t->dtype);
        t->SetContiguous();
        return true;
      },
      input);
}

// The activation's case on the fused case's inputs, with a bf16 out [T, K]:
// what the fused op rounds through.
Case ActivationCase(const Fp4Quantizer& q, const Case& c) {
  const Fp4Activation& act = *q.activation;
  const TensorData& first = c.Get(q.inputs.front().name);
  const int64_t rows = first.shape[0], k = first.shape[1] / q.per_i;
  Case m;
  m.params = Params(act.op);
  for (const auto& [mine, theirs] : act.inputs) m.params.Set(theirs, c.params.Str(mine));
  m.params.Set("out", "bf16");
  m.params.seed = c.params.seed;
  for (const auto& [mine, theirs] : act.inputs) m.tensors.push_back(CopyTensor(c.Get(mine), theirs, Role::kInput));
  m.tensors.push_back(TensorFromValues("out", vt::DType::kBF16, {rows, k}, Role::kOutput,
                                       std::vector<double>(static_cast<std::size_t>(rows * k), 0.0)));
  return m;
}

}  // namespace
}  // namespace local_fp4_quantizer

Fp4Calls Calls(UnaryFp4Kernel kernel, UnaryFp4Oracle<entry::Bounded> oracle, UnaryFp4Oracle<float> oracle_f32) {
  using namespace local_fp4_quantizer;
  Fp4Calls calls;
  calls.run = [kernel](const vt::ExecContext& ctx, const Workspace& ws, const std::vector<std::string>& in) {
    kernel(ctx, ws["out_packed"], ws["out_scale"], ws[in.at(0)], ws.params().F32("gsi"), LayoutOf(ws.params()));
  };
  calls.oracle = [oracle](const Fp4Inputs& x, int64_t rows, int64_t k, double gsi) {
    return oracle(x.at(0), rows, k, gsi);
  };
  calls.oracle_f32 = [oracle_f32](const Fp4Inputs& x, int64_t rows, int64_t k, double gsi) {
    return oracle_f32(x.at(0), rows, k, gsi);
  };
  return calls;
}

Fp4Calls Calls(BinaryFp4Kernel kernel, BinaryFp4Oracle<entry::Bounded> oracle, BinaryFp4Oracle<float> oracle_f32) {
  using namespace local_fp4_quantizer;
  Fp4Calls calls;
  calls.run = [kernel](const vt::ExecContext& ctx, const Workspace& ws, const std::vector<std::string>& in) {
    kernel(ctx, ws["out_packed"], ws["out_scale"], ws[in.at(0)], ws[in.at(1)], ws.params().F32("gsi"),
           LayoutOf(ws.params()));
  };
  calls.oracle = [oracle](const Fp4Inputs& x, int64_t rows, int64_t k, double gsi) {
    return oracle(x.at(0), x.at(1), rows, k, gsi);
  };
  calls.oracle_f32 = [oracle_f32](const Fp4Inputs& x, int64_t rows, int64_t k, double gsi) {
    return oracle_f32(x.at(0), x.at(1), rows, k, gsi);
  };
  return calls;
}

double ProductMagnitude(double scale) {
  using namespace local_fp4_quantizer;
  return std::max(scale * scale, 0.05);
}

OpSpec Fp4QuantizerSpec(const Fp4Quantizer& q) {
  using namespace local_fp4_quantizer;
  OpSpec s;
  s.name = q.name;
  s.family = "quant";
  s.dtypes = q.dtypes;
  s.gen = [q](Tier tier) { return Gen(q, tier); };
  s.build = [q](Case& c) { Build(q, c); };
  s.run = [run = q.calls.run, names = Names(q.inputs)](const vt::ExecContext& ctx, const Workspace& ws) {
    run(ctx, ws, names);
  };
  s.oracle = [q](const Case& c) { return entry::ToOracleResult(Eval<entry::Bounded>(q, q.calls.oracle, c)); };
  s.oracle_f32 = [q](const Case& c) {
    std::map<std::string, std::vector<double>> r;
    for (const auto& [name, values] : Eval<float>(q, q.calls.oracle_f32, c)) {
      r[name] = {values.begin(), values.end()};
    }
    return r;
  };
  s.outputs = Outputs;
  for (const Fp4Input& in : q.inputs) {
    s.contract.operands.push_back(entry::Operand(in.name, in.dtypes, entry::kContiguous, {2}));
    s.values.specials.push_back({in.name});
  }
  s.contract.operands.push_back(entry::Written("out_packed", entry::kU8, entry::kContiguous, {2}));
  s.contract.operands.push_back(entry::Written("out_scale", entry::kU8, entry::kContiguous, {2}));
  s.contract.scalars = Scalars();
  if (!q.exp_edges.empty()) {
    s.values.edges = [t = q.exp_edges](const Params&) { return ExpBands(t); };
  }

  s.errors = OutputErrors();
  s.errors.push_back(InnerNotMultipleOf16(q.inputs.front().name, q.per_i, Rest(q.inputs)));
  s.errors.insert(s.errors.end(), q.errors.begin(), q.errors.end());
  for (const Fp4Input& in : q.inputs) {
    if (in.dtype_of_first) s.errors.push_back(DTypeDiffers(in.name));
  }

  std::vector<std::string> row_tensors = Names(q.inputs);
  row_tensors.insert(row_tensors.end(), {"out_packed", "out_scale"});
  s.claims = {LinearRowSlice(row_tensors), LayoutsAgree()};
  std::function<Case(const Case&)> derive;
  if (q.activation) {
    derive = [q](const Case& c) { return ActivationCase(q, c); };
    s.claims.push_back(ComposedOf(q.activation->claim,
                                  q.name + " == " + q.activation->op + "(" + JoinNames(Names(q.inputs)) +
                                      " -> bf16) then scaled_fp4_quant (same gsi, same scale layout)",
                                  q.activation->op, derive));
  }

  // vt-golden regen's cases (docs/goldens.md, "NVFP4 goldens"): the codes
  // compared exactly; a fused case's recorded bf16 activation (act_bf16) is
  // checked against the activation op as well, so that a code difference can
  // be told apart from an activation difference.
  s.goldens = {{q.name, [q, derive](const GoldenCase& g) {
                  GoldenMapping m = GoldenFp4Quant(g, q.name, q.inputs.front().name, q.per_i, Rest(q.inputs));
                  if (q.activation) CheckActivation(m, g, q.activation->op, derive);
                  return m;
                }}};
  return s;
}

UpstreamMap Fp4UpstreamMap(const std::string& op, const std::vector<std::string>& inputs, bool fused,
                           int64_t max_elements, const std::string& why_max) {
  auto to = [op, inputs, fused, max_elements, why_max](const Case& c) {
    RequireElements(c, "out_packed");
    const int64_t rows = c.Get("out_packed").shape[0], k = 2 * c.Get("out_packed").shape[1];
    if (rows * k > max_elements) {
      throw GoldenUnsupported(std::to_string(rows * k) + " quantized elements (more than " +
                              std::to_string(max_elements) + "): " + why_max);
    }
    UpstreamCall u;
    u.op = op;
    u.args = {{"gsi", c.params.Num("gsi")}, {"scale_layout", c.params.Str("scale_layout")}, {"block_size", 16}};
    for (const std::string& in : inputs) u.inputs.push_back(UpstreamInput(c, in, in));
    u.outputs = {UpstreamOutput(c, "out_packed", "out_packed"), UpstreamOutput(c, "out_scale", "out_scale")};
    if (fused) {
      TensorData act;
      act.name = "act_bf16";
      act.dtype = vt::DType::kBF16;
      act.shape = {rows, k};
      act.role = Role::kOutput;
      act.SetContiguous();
      u.outputs.push_back(act);
    }
    return u;
  };
  // scale (the fill's magnitude) and aim (values targeted at ties or scale
  // midpoints) only choose the inputs' values, which the golden holds.
  return {op, op, to, {"scale", "aim"}};
}

}  // namespace vt::conform::quant
