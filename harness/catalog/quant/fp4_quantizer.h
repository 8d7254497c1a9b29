// The one builder of the fp4 quantizer entries: scaled_fp4_quant and the fused
// activation + NVFP4 quant ops (silu_mul_fp4_quant, silu_and_mul_fp4_quant,
// sigmoid_gate_fp4_quant). They share the knobs T, G, gsi and scale_layout,
// the outputs out_packed / out_scale and their rules, the output and inner-dim
// error cases, the batch-invariance and layout claims and the golden adapter;
// an entry says only what differs: its inputs, its magnitude knob, its run
// call and oracle and, for a fused op, the activation it rounds through
// (docs/adding-an-op.md, "Quant and GEMM builders"; docs/ops/quant.md).
#pragma once

#include "harness/golden/upstream_call.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/catalog/quant/quant_entry.h"

namespace vt::conform::quant {

// One input of a quantizer, in the op's argument order: a contiguous 2-D
// [T, per_i * K] tensor (K = 16 G) drawn N(0, scale^2).
struct Fp4Input {
  std::string name;
  // The dtypes the validator accepts. The generator draws the input's dtype
  // key among them in this order; a single dtype is set without a draw.
  std::vector<vt::DType> dtypes;
  // The validator requires the first input's dtype: the key is the first
  // input's (one draw for both), and an error case "<name>_dtype_differs"
  // gives this input the other of f32 / bf16.
  bool dtype_of_first = false;
};

// The activation a fused op is DEFINED to round through: the catalog op run
// with a bf16 "out" [T, K], then scaled_fp4_quant on that out.
struct Fp4Activation {
  std::string op;     // moe_silu_mul, silu_and_mul, sigmoid_gate_bf16
  std::string claim;  // the equivalence claim's name in case ids
  // Each of the fused op's inputs -> the activation's input it is.
  std::vector<std::pair<std::string, std::string>> inputs;
};

// The run call and the oracle of a one- or two-input quantizer, over its
// inputs in the entry's order: its API entry point and its definition
// (oracles/quant/) at Bounded and at float. Calls() makes them from the
// function names, so an entry states them in one line.
using UnaryFp4Kernel = void (*)(const vt::ExecContext&, const vt::Tensor& out_packed, const vt::Tensor& out_scale,
                                const vt::Tensor& x, float gsi, vt::Fp4ScaleLayout layout);
using BinaryFp4Kernel = void (*)(const vt::ExecContext&, const vt::Tensor& out_packed, const vt::Tensor& out_scale,
                                 const vt::Tensor& a, const vt::Tensor& b, float gsi, vt::Fp4ScaleLayout layout);
template <class S>
using UnaryFp4Oracle = oracle::Fp4Quant<S> (*)(const std::vector<double>& x, int64_t rows, int64_t k, double gsi);
template <class S>
using BinaryFp4Oracle = oracle::Fp4Quant<S> (*)(const std::vector<double>& a, const std::vector<double>& b,
                                                int64_t rows, int64_t k, double gsi);
using Fp4Inputs = std::vector<std::vector<double>>;  // each input's logical values
struct Fp4Calls {
  std::function<void(const vt::ExecContext&, const Workspace&, const std::vector<std::string>& inputs)> run;
  std::function<oracle::Fp4Quant<entry::Bounded>(const Fp4Inputs&, int64_t rows, int64_t k, double gsi)> oracle;
  std::function<oracle::Fp4Quant<float>(const Fp4Inputs&, int64_t rows, int64_t k, double gsi)> oracle_f32;
};
Fp4Calls Calls(UnaryFp4Kernel kernel, UnaryFp4Oracle<entry::Bounded> oracle, UnaryFp4Oracle<float> oracle_f32);
Fp4Calls Calls(BinaryFp4Kernel kernel, BinaryFp4Oracle<entry::Bounded> oracle, BinaryFp4Oracle<float> oracle_f32);

// What a quantizer entry says; Fp4QuantizerSpec builds the OpSpec from it.
struct Fp4Quantizer {
  std::string name;
  std::string dtypes;  // for reports and --list
  std::vector<Fp4Input> inputs;
  // Columns of the (single) input per quantized column: 2 for gate_up [M, 2I].
  int64_t per_i = 1;
  // The "scale" knob's values (input magnitudes) ...
  rc::Gen<double> scale = gen::Scale();
  // ... and the magnitude of the quantized values for a given scale, from
  // which the "gsi" knob is derived (GsiValue).
  double (*magnitude)(double scale) = [](double scale) { return scale; };
  // Optional: draws "gsi" (and any knob that decides it) instead of the
  // default, right after "scale" (scaled_fp4_quant's "aim").
  std::function<void(Params& p, double scale)> draw_gsi;
  // Optional: adjusts the built case (targeted input values).
  std::function<void(Case&)> after_build;
  Fp4Calls calls;  // Calls(vt::<Op>, oracle::<Op><entry::Bounded>, oracle::<Op><float>)
  // The input holding a sigmoid / silu argument: its exp branch edges are
  // the op's "values=edges" bands. Empty: none.
  std::string exp_edges;
  // The op's own shape-relation error cases, after the shared ones.
  std::vector<ErrorCase> errors;
  std::optional<Fp4Activation> activation;  // fused ops
};

// silu(g) * up is about scale^2 in magnitude (scale for the near-linear 0.05).
double ProductMagnitude(double scale);

OpSpec Fp4QuantizerSpec(const Fp4Quantizer& q);

// vt-fuzz --upstream (harness/golden/upstream_call.h): the inverse of
// GoldenFp4Quant (+ CheckActivation) for the quantizer `op` with inputs
// `inputs` (manifest names = case names): the runner key `op`'s call with
// gsi, scale_layout and block_size 16; outputs out_packed, out_scale and,
// for a fused op (`fused`), the bf16 activation act_bf16 [T, K] the adapter
// holds the activation op to. Cases over `max_elements` quantized elements
// are left out (GoldenUnsupported, with why).
// The fused ops' bound: each element's f32 activation may differ between
// torch and the kernel by a few ulps (live.py: 12 u), and one within that of a
// bf16 rounding midpoint may round either way - about 2.6e-4 of elements, so
// a case of 1024 is skipped about one time in four (measured in docs/fuzzing.md).
inline constexpr int64_t kFusedFp4MaxElements = 1024;
inline constexpr const char* kFusedFp4Why =
    "more elements make it likely that some activation lies within the two sides' f32 error of a bf16 rounding "
    "midpoint (such a case is skipped: upstream cannot vouch for its act_bf16)";
UpstreamMap Fp4UpstreamMap(const std::string& op, const std::vector<std::string>& inputs, bool fused,
                           int64_t max_elements, const std::string& why_max);

}  // namespace vt::conform::quant
