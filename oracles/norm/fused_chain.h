// fused_chain oracle: the recipe's definition, step by step over the four
// canonical operands (x, weight per column, residual, out). Each step is
// elementwise (or a row rms_norm) on the values the operands hold BEFORE the
// step, and its result is stored - rounded - to the destination's format.
//   add: a + b   mul: a * b   silu: a * sigmoid(a)   sigmoid: 1 / (1 + exp(-a))
//   rms_norm: a / sqrt(mean(a^2) + eps) * b   (gemma: * (1 + b))
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "oracles/act/activations.h"
#include "oracles/norm/rms_norm.h"
#include "vt/fused_recipe.h"

namespace vt::oracle {

template <class S>
struct ChainSlots {
  std::vector<S> x, weight, residual, out;  // residual/out updated in place
  Fmt residual_fmt = Fmt::kF32, out_fmt = Fmt::kF32;
};

template <class S>
void FusedChain(int64_t rows, int64_t h, const vt::FusedRecipe& recipe, double eps,
                ChainSlots<S>& s) {
  auto at = [&](int slot, int64_t i, int64_t j) -> S {
    switch (slot) {
      case vt::kSlotX: return s.x[static_cast<size_t>(i * h + j)];
      case vt::kSlotWeight: return s.weight[static_cast<size_t>(j)];
      case vt::kSlotResidual: return s.residual[static_cast<size_t>(i * h + j)];
      default: return s.out[static_cast<size_t>(i * h + j)];
    }
  };
  for (int64_t i = 0; i < rows; ++i) {
    for (int k = 0; k < recipe.n; ++k) {
      const vt::FusedStep& st = recipe.steps[k];
      std::vector<S> result(static_cast<size_t>(h));
      if (st.op == vt::FusedOp::kRmsNorm) {
        std::vector<S> a(static_cast<size_t>(h));
        for (int64_t j = 0; j < h; ++j) a[static_cast<size_t>(j)] = at(st.in0, i, j);
        const S inv = RmsInv(a, eps);
        for (int64_t j = 0; j < h; ++j) {
          const S b = st.gemma ? at(st.in1, i, j) + In<S>(1.0) : at(st.in1, i, j);
          result[static_cast<size_t>(j)] = a[static_cast<size_t>(j)] * inv * b;
        }
      } else {
        for (int64_t j = 0; j < h; ++j) {
          const S a = at(st.in0, i, j);
          S r;
          switch (st.op) {
            case vt::FusedOp::kAdd: r = a + at(st.in1, i, j); break;
            case vt::FusedOp::kMul: r = a * at(st.in1, i, j); break;
            case vt::FusedOp::kSilu: r = a * Sigmoid(a); break;
            default: r = Sigmoid(a); break;
          }
          result[static_cast<size_t>(j)] = r;
        }
      }
      std::vector<S>& dst = st.out == vt::kSlotResidual ? s.residual : s.out;
      const Fmt fmt = st.out == vt::kSlotResidual ? s.residual_fmt : s.out_fmt;
      for (int64_t j = 0; j < h; ++j) dst[static_cast<size_t>(i * h + j)] = Store(fmt, result[static_cast<size_t>(j)]);
    }
  }
}

}  // namespace vt::oracle
