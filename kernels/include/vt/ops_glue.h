// Embedding and glue family: public API. Every function validates all of its
// operands (shapes, dtypes, layouts, overlaps and, for the index ops, every
// index value) before the kernel writes a byte, so a refused call leaves all
// operands unchanged. These ops move values without arithmetic: a float is
// widened to f32 and stored to the destination dtype (round to nearest even
// when that narrows), index_select / index_copy move raw bytes. Contracts and
// decisions: docs/ops/glue.md.
#pragma once

#include "vt/context.h"
#include "vt/tensor.h"

namespace vt {

// q_out[t,h,:] = qgate[t, h*2*Dh : h*2*Dh+Dh], gate_out[t,h,:] = the next Dh
// values (per head the fused projection is laid out [q(Dh) | gate(Dh)]).
// qgate [T, Hq*2*Dh] f32/bf16; q_out [T,Hq,Dh] f32/bf16; gate_out [T,Hq,Dh]
// f32. All contiguous, no overlap.
void AttnGateSplit(const ExecContext& ctx, const Tensor& q_out, const Tensor& gate_out,
                   const Tensor& qgate);

// Row split of a merged projection: qkv [T, q_dim+k_dim+v_dim] -> q_out,
// k_out, v_out whose element counts are T*q_dim, T*k_dim, T*v_dim (any shape,
// contiguous). T > 0; all four share one dtype, f32 or bf16.
void QkvSplit(const ExecContext& ctx, const Tensor& q_out, const Tensor& k_out, const Tensor& v_out,
              const Tensor& qkv);

// out[t,:] = table[ids[t],:]. table [V,H] f32/f16/bf16; ids [T] i32/i64 with
// every id in [0, V); out [T,H] f32/bf16. Contiguous.
void Embedding(const ExecContext& ctx, const Tensor& out, const Tensor& table, const Tensor& ids);

// out = bf16(in), round to nearest even. in f32 with packed inner dims and
// outer strides >= the inner span (read through its strides); out bf16
// contiguous, any shape with in's element count (flat row-major order).
void CastBf16(const ExecContext& ctx, const Tensor& out, const Tensor& in);

// out = f32(in) (exact). in bf16 laid out as CastBf16's in; out f32 contiguous.
void CastF32(const ExecContext& ctx, const Tensor& out, const Tensor& in);

// out[t,h,:Dn] = nope[t,h,:], out[t,h,Dn:] = rope[t, rope.shape[1] == 1 ? 0 : h, :].
// out [T,H,Dn+Dr], nope [T,H,Dn], rope [T,H,Dr] or [T,1,Dr]; one dtype of
// f32/f16/bf16; Dn > 0, Dr >= 0. Innermost stride 1; token and head strides
// free for nope/rope, out's rows must not overlap (row-strided).
void ConcatMlaNopeRope(const ExecContext& ctx, const Tensor& out, const Tensor& nope,
                       const Tensor& rope);

// out[i,...] = in[idx[i],...] (torch.index_select over dim 0), raw bytes.
// in [N, D...] (inner dims packed, outer stride >= inner span); out [M, D...]
// contiguous, same dtype (any), same rank, equal trailing dims; idx [M] i32
// contiguous, every value in [0, N).
void IndexSelect(const ExecContext& ctx, const Tensor& out, const Tensor& in, const Tensor& idx);

// IN PLACE on out: out[idx[i],...] = in[i,...] (Tensor.index_copy_ over dim 0),
// raw bytes. out [N, D...] row-strided as IndexSelect's in; in [M, D...]
// contiguous; idx [M] i32 contiguous, every value in [0, N). Repeated indices:
// the LAST occurrence wins (the seed's sequential order), at every thread count.
void IndexCopy(const ExecContext& ctx, const Tensor& out, const Tensor& in, const Tensor& idx);

}  // namespace vt
