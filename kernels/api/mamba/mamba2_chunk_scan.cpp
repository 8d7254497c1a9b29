// vt::Mamba2ChunkScan: every condition of op-contracts 3.6 (Mamba2ChunkScan),
// the seed's kernel checks and the ones it leaves open (H-1, H-3), all
// evaluated before the kernel runs. The metadata rules restate what vLLM's
// compute_varlen_chunk_metadata guarantees, except that chunks need not sit on
// physical chunk_size boundaries: any tiling into in-sequence chunks of at
// most chunk_size tokens is a valid input (docs/ops/mamba.md).
#include <string>
#include <vector>

#include "api/kernel_types.h"
#include "api/mamba/mamba_checks.h"
#include "vt/registry.h"

namespace vt {
namespace {

void CheckArgs(const api::Checker& c, const Mamba2Args& args) {
  api::mamba::SingleRank(c, args);
  const int64_t cs = args.chunk_size;
  c.Require("range(chunk_size)", cs > 0 && (cs & (cs - 1)) == 0,
            "chunk_size must be a power of two > 0, got " + std::to_string(cs));
  c.Require("range(dt_min)", args.dt_min >= 0.0f,
            "dt_min must be >= 0 (and not NaN), got " + std::to_string(args.dt_min));
  c.Require("range(dt_max)", args.dt_max >= args.dt_min,
            "dt_max must be >= dt_min (and not NaN), got " + std::to_string(args.dt_max));
}

// The metadata values: chunks tile [0, T) in order, each inside the sequence
// seq_idx names, sequences tile [0, T) and are non-empty, last_chunk_indices
// names each sequence's last chunk.
void CheckMetadata(const api::Checker& c, const ExecContext& ctx, int64_t T, int64_t cs, const Tensor& cu_seqlens,
                   const Tensor& cu_chunk_seqlens, const Tensor& last_chunk_indices,
                   const Tensor& seq_idx) {
  const std::vector<int32_t> cus = api::mamba::ReadI32(ctx, cu_seqlens);
  const std::vector<int32_t> ccs = api::mamba::ReadI32(ctx, cu_chunk_seqlens);
  const std::vector<int32_t> lci = api::mamba::ReadI32(ctx, last_chunk_indices);
  const std::vector<int32_t> sidx = api::mamba::ReadI32(ctx, seq_idx);
  const int64_t S = static_cast<int64_t>(lci.size()), n = static_cast<int64_t>(sidx.size());

  c.Require("cu_chunk_seqlens.bounds", ccs.front() == 0 && ccs.back() == T,
            "cu_chunk_seqlens must start at 0 and end at T = " + std::to_string(T));
  int64_t bad = -1;
  for (int64_t k = 0; k < n && bad < 0; ++k) {
    const int64_t len = static_cast<int64_t>(ccs[k + 1]) - ccs[k];
    if (len <= 0 || len > cs) bad = k;
  }
  c.Require("cu_chunk_seqlens.chunk_len", bad < 0,
            "cu_chunk_seqlens: every chunk must hold 1..chunk_size tokens; chunk " +
                std::to_string(bad) + " does not");
  c.Require("cu_seqlens.bounds", cus.front() == 0 && cus.back() == T,
            "cu_seqlens must start at 0 and end at T = " + std::to_string(T));
  bool monotone = true, nonempty = true;
  for (int64_t b = 0; b < S; ++b) {
    monotone = monotone && cus[b + 1] >= cus[b];
    nonempty = nonempty && cus[b + 1] != cus[b];
  }
  c.Require("cu_seqlens.monotone", monotone, "cu_seqlens must be non-decreasing");
  c.Require("sequence.nonempty", nonempty,
            "cu_seqlens: empty sequences are not supported (upstream would read another "
            "sequence's state for them)");
  bad = -1;
  for (int64_t k = 0; k < n && bad < 0; ++k) {
    if (sidx[k] < 0 || sidx[k] >= S) bad = k;
  }
  c.Require("seq_idx.range", bad < 0,
            "seq_idx entries must index a sequence in [0, S); entry " + std::to_string(bad) +
                " does not");
  bad = -1;
  for (int64_t b = 0; b < S && bad < 0; ++b) {
    if (lci[b] < 0 || lci[b] >= n) bad = b;
  }
  c.Require("last_chunk_indices.range", bad < 0,
            "last_chunk_indices entries must be in [0, nchunks); entry " + std::to_string(bad) +
                " is not (a negative entry marks an empty sequence: not supported)");
  bool increasing = lci.back() == n - 1;
  for (int64_t b = 1; b < S; ++b) increasing = increasing && lci[b] > lci[b - 1];
  c.Require("last_chunk_indices.increasing", increasing,
            "last_chunk_indices must be strictly increasing and end at nchunks - 1");
  bad = -1;
  for (int64_t k = 0, b = 0; k < n && bad < 0; ++k) {
    while (lci[b] < k) ++b;  // ends: lci.back() == n - 1
    if (sidx[k] != b) bad = k;
  }
  c.Require("seq_idx.consistent", bad < 0,
            "seq_idx must name the sequence last_chunk_indices assigns each chunk to; chunk " +
                std::to_string(bad) + " differs");
  bad = -1;
  for (int64_t k = 0; k < n && bad < 0; ++k) {
    const int32_t s = sidx[k];
    if (ccs[k] < cus[s] || ccs[k + 1] > cus[s + 1]) bad = k;
  }
  c.Require("chunk.in_sequence", bad < 0,
            "every chunk must lie inside its sequence (cu_chunk_seqlens vs cu_seqlens); chunk " +
                std::to_string(bad) + " crosses a sequence boundary");
}

}  // namespace

void Mamba2ChunkScan(const ExecContext& ctx, const Tensor& out, const Tensor& final_states,
                     const Tensor& x, const Tensor& dt, const Tensor& A, const Tensor& B,
                     const Tensor& C, const Tensor* D, const Tensor* z, const Tensor* dt_bias,
                     const Tensor* initial_states, const Tensor& cu_seqlens,
                     const Tensor& cu_chunk_seqlens, const Tensor& last_chunk_indices,
                     const Tensor& seq_idx, const Mamba2Args& args) {
  const api::Checker c("mamba2_chunk_scan");
  namespace m = api::mamba;
  CheckArgs(c, args);
  const m::SsmDims d = m::SsmOperands(c, ctx, x, dt, A, B, C, out, final_states, "final_states", "T", true);
  const int64_t T = d.rows, H = d.H, P = d.P, S = d.S;
  if (D != nullptr) {
    c.Operand(ctx, *D, "D");
    c.RankIn(*D, "D", 1, 2);
    c.DType(*D, "D", {vt::DType::kF32});
    c.Contiguous(*D, "D");
    c.Shape(*D, "D", D->rank == 1 ? std::vector<int64_t>{H} : std::vector<int64_t>{H, P});
  }
  if (z != nullptr) {
    m::FloatOperand(c, ctx, *z, "z", 3, false);
    c.SameShape(*z, "z", x, "x");
  }
  if (dt_bias != nullptr) m::HeadVector(c, ctx, *dt_bias, "dt_bias", H);
  if (initial_states != nullptr) {
    m::FloatOperand(c, ctx, *initial_states, "initial_states", 4, true);
    c.SameShape(*initial_states, "initial_states", final_states, "final_states");
  }
  m::IndexVector(c, ctx, cu_seqlens, "cu_seqlens");
  c.Shape(cu_seqlens, "cu_seqlens", {S + 1});
  m::IndexVector(c, ctx, cu_chunk_seqlens, "cu_chunk_seqlens");
  c.Require("cu_chunk_seqlens.length", cu_chunk_seqlens.shape[0] >= 2,
            "cu_chunk_seqlens must hold nchunks + 1 >= 2 entries, got " + cu_chunk_seqlens.Describe());
  const int64_t nchunks = cu_chunk_seqlens.shape[0] - 1;
  m::IndexVector(c, ctx, last_chunk_indices, "last_chunk_indices");
  c.Shape(last_chunk_indices, "last_chunk_indices", {S});
  m::IndexVector(c, ctx, seq_idx, "seq_idx");
  c.Shape(seq_idx, "seq_idx", {nchunks});

  // The two written operands overlap nothing else (and not each other).
  const std::vector<std::pair<const Tensor*, const char*>> others = {
      {&x, "x"}, {&dt, "dt"}, {&A, "A"}, {&B, "B"}, {&C, "C"}, {D, "D"}, {z, "z"},
      {dt_bias, "dt_bias"}, {initial_states, "initial_states"}, {&cu_seqlens, "cu_seqlens"},
      {&cu_chunk_seqlens, "cu_chunk_seqlens"}, {&last_chunk_indices, "last_chunk_indices"},
      {&seq_idx, "seq_idx"}};
  c.NoOverlap(out, "out", final_states, "final_states");
  for (const auto& [t, name] : others) {
    if (t == nullptr) continue;
    c.NoOverlap(out, "out", *t, name);
    c.NoOverlap(final_states, "final_states", *t, name);
  }

  CheckMetadata(c, ctx, T, args.chunk_size, cu_seqlens, cu_chunk_seqlens, last_chunk_indices, seq_idx);
  m::ANegative(c, ctx, A);
  GetKernel<kernel::Mamba2ChunkScanFn>("mamba2_chunk_scan", ctx.backend)(
      ctx, out, final_states, x, dt, A, B, C, D, z, dt_bias, initial_states, cu_seqlens,
      cu_chunk_seqlens, last_chunk_indices, seq_idx, args);
}

}  // namespace vt
