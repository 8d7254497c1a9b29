// The GEMM vector tiers' engine, written once over a vector type V (V512 in
// gemm_avx512.cpp, V256 in gemm_avx2.cpp) and compiled in each tier's file
// under that tier's target pragma. Include it only there, after every other
// header: all it defines is internal to that file.
//
// Contract: the portable engine's (gemm_tile.h). Each output is one f32
// accumulator from +0; for k = 0..K-1 in order it takes one multiply
// a[i,k] * b[k,j] and one add, rounded each (V::MulAdd: a multiply, then an
// add, never a fused multiply-add; -ffp-contract=off keeps the compiler from
// fusing them).
// Vector lane c of accumulator v of row r holds output column j0 + v*L + c:
// lanes run across output columns, so vectorising changes no sum.
//
// Structure of ComputeBlockImpl (one thread, one block of outputs):
//   - decode (one row, an f32/bf16 weight): no packing; a [K,N]-ordered
//     weight's rows are streamed in place into f32 accumulators
//     (DecodeRow), an [N,K] one is read L rows along k and transposed in
//     registers (DecodeRowNk);
//   - otherwise the block is cut into sub-blocks of at most kColBlock
//     columns x kUnitRows rows (PackedBlock), and each sub-block runs K in
//     passes of kDepthBlock (KBlocked): per pass the weight rows of the pass
//     are packed to f32 once ([kc][kNV*L] per panel, dtype and orientation
//     resolved once per panel, columns past the block zero), then per block
//     of kRowBlock rows the activations of the pass are read in place (f32)
//     or widened ONCE to f32 rows (f16/bf16), and a kMR x kNV register tile
//     runs the pass's k over each (row group, panel), its accumulators
//     loaded from and stored to an f32 buffer between passes (the last
//     pass of a whole tile stores to an f32 out directly). K blocking keeps
//     the tile's weight panel (kDepthBlock x kNV*L floats) in L1 across a
//     row block and the pass's packed weight in L2; an accumulator stored
//     and reloaded in f32 is the same value, so each output still takes
//     k = 0, 1, ... in order and the bytes are those of one pass over K.
#pragma once

// Internal linkage: each tier's file compiles these under its own target, and
// a shared symbol would let the linker hand one tier's code to the other.
namespace vt::cpu::gemm::simd {
namespace {

inline constexpr int kMR = 6;              // rows per register tile
inline constexpr int kNV = 2;              // vectors of columns per register tile
inline constexpr int64_t kRowBlock = 96;   // rows widened and packed at once (a multiple of kMR)
inline constexpr int64_t kDepthBlock = 256;  // k per pass: the avx512 panel pass is 256 x 32 floats = 32 KB (L1)
inline constexpr int64_t kColBlock = 512;  // columns per sub-block: a pass's packed weight, 512 KB on avx512 (L2)
inline constexpr int64_t kUnitRows = 384;  // rows per sub-block: its f32 accumulators, <= 768 KB (L2)

inline int64_t Min(int64_t a, int64_t b) { return a < b ? a : b; }

// Element e of a float operand, widened to f32 (exact for every dtype).
inline float Widen(DType dt, const unsigned char* base, int64_t e) {
  if (dt == DType::kF32) {
    float f;
    __builtin_memcpy(&f, base + e * 4, 4);
    return f;
  }
  uint16_t h;
  __builtin_memcpy(&h, base + e * 2, 2);
  return dt == DType::kBF16 ? BF16ToF32(h) : F16ToF32(h);
}

// Rows [i0, i0 + rows) of a (f16/bf16), columns [p0, p0 + kc), widened to
// f32 row-major: dst[r * kc + p] (bf16 by whole vectors, exact).
template <class V, DType T>
void WidenRows(const Problem& pr, int64_t i0, int64_t rows, int64_t p0, int64_t kc, float* dst) {
  constexpr int L = V::kLanes;
  const auto* a = static_cast<const unsigned char*>(pr.a);
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t e0 = (i0 + r) * pr.a_rs + p0;
    float* d = dst + r * kc;
    int64_t p = 0;
    if constexpr (T == DType::kBF16) {
      for (; p + L <= kc; p += L) V::Store(d + p, V::template LoadAs<T>(a, e0 + p));
    }
    for (; p < kc; ++p) d[p] = Widen(T, a, e0 + p);
  }
}

// t[c] = n elements (n <= L, the rest +0) of weight row c, for c < rows,
// from element e0 + c * ldb; t[c] = +0 for c >= rows (not read).
template <class V, DType T>
inline void LoadNk(const unsigned char* b, int64_t e0, int64_t ldb, int rows, int n, typename V::T* t) {
  for (int c = 0; c < V::kLanes; ++c) {
    if (c >= rows) {
      t[c] = V::Zero();
    } else {
      t[c] = n == V::kLanes ? V::template LoadAs<T>(b, e0 + c * ldb) : V::template LoadPartial<T>(b, e0 + c * ldb, n);
    }
  }
}

// Weight rows [p0, p0 + kc) of columns [j0, j0 + w) as dst[p * width + c],
// zero for c >= w.
template <class V, DType T>
void PackCols(const Problem& pr, int64_t j0, int64_t w, int width, int64_t p0, int64_t kc, float* dst) {
  const auto* b = static_cast<const unsigned char*>(pr.b);
  if constexpr (T != DType::kF16) {
    if (!pr.b_nk && w == width) {  // whole vectors of a [K,N]-ordered row: widened in registers
      for (int64_t p = 0; p < kc; ++p) {
        for (int c = 0; c < width; c += V::kLanes) {
          V::Store(dst + p * width + c, V::template LoadAs<T>(b, (p0 + p) * pr.ldb + j0 + c));
        }
      }
      return;
    }
  }
  if constexpr (T != DType::kF16) {
    if (pr.b_nk) {  // [N,K]-ordered: L weight rows x L k at a time, transposed in registers
      constexpr int L = V::kLanes;
      for (int v = 0; v < width / L; ++v) {
        for (int64_t p = 0; p < kc; p += L) {
          const int n = static_cast<int>(Min(L, kc - p));
          typename V::T t[L];
          LoadNk<V, T>(b, (j0 + v * L) * pr.ldb + p0 + p, pr.ldb, static_cast<int>(Min(L, w - v * L)), n, t);
          V::Transpose(t);
          for (int q = 0; q < n; ++q) V::Store(dst + (p + q) * width + v * L, t[q]);
        }
      }
      return;
    }
  }
  if (pr.b_nk) {
    for (int c = 0; c < width; ++c) {
      if (c >= w) {
        for (int64_t p = 0; p < kc; ++p) dst[p * width + c] = 0.0f;
        continue;
      }
      const int64_t e0 = (j0 + c) * pr.ldb + p0;
      for (int64_t p = 0; p < kc; ++p) dst[p * width + c] = Widen(T, b, e0 + p);
    }
    return;
  }
  for (int64_t p = 0; p < kc; ++p) {
    float* row = dst + p * width;
    const int64_t e0 = (p0 + p) * pr.ldb + j0;
    int c = 0;
    for (; c < w; ++c) row[c] = Widen(T, b, e0 + c);
    for (; c < width; ++c) row[c] = 0.0f;
  }
}

// Row i's first w results to out[i, j0 .. j0 + w), rounded to out's dtype.
inline void StoreRow(const Problem& pr, int64_t i, int64_t j0, int64_t w, const float* acc) {
  auto* base = static_cast<unsigned char*>(pr.out);
  const int64_t e0 = i * pr.out_rs + j0;
  if (pr.out_dt == DType::kF32) {
    __builtin_memcpy(base + e0 * 4, acc, static_cast<std::size_t>(w) * 4);
    return;
  }
  for (int64_t c = 0; c < w; ++c) {
    const uint16_t h = pr.out_dt == DType::kBF16 ? F32ToBF16(acc[c]) : F32ToF16(acc[c]);
    __builtin_memcpy(base + (e0 + c) * 2, &h, 2);
  }
}

// One pass of kc steps of a kMR x kNV tile: acc[r][c] (row r at acc + r * ldc)
// starts at +0 on the first pass, else at the f32 value the previous pass
// stored, then takes arows[r][p] * bp[p][c] for p = 0..kc-1 in order, and is
// stored to dst (row r at dst + r * ldd: acc itself, or an f32 out on the
// last pass).
template <class V>
void Tile(const float* const* arows, const float* bp, int64_t kc, float* acc, int64_t ldc, bool first, float* dst,
          int64_t ldd) {
  constexpr int L = V::kLanes;
  typename V::T c[kMR][kNV];
  if (first) {
#pragma GCC unroll 16
    for (int r = 0; r < kMR; ++r) {
#pragma GCC unroll 4
      for (int v = 0; v < kNV; ++v) c[r][v] = V::Zero();
    }
  } else {
#pragma GCC unroll 16
    for (int r = 0; r < kMR; ++r) {
#pragma GCC unroll 4
      for (int v = 0; v < kNV; ++v) c[r][v] = V::Load(acc + r * ldc + v * L);
    }
  }
  const float* rows[kMR];
#pragma GCC unroll 16
  for (int r = 0; r < kMR; ++r) rows[r] = arows[r];
  for (int64_t p = 0; p < kc; ++p) {
    typename V::T b[kNV];
#pragma GCC unroll 4
    for (int v = 0; v < kNV; ++v) b[v] = V::Load(bp + p * (kNV * L) + v * L);
#pragma GCC unroll 16
    for (int r = 0; r < kMR; ++r) {
      const typename V::T av = V::Set1(rows[r][p]);
#pragma GCC unroll 4
      for (int v = 0; v < kNV; ++v) c[r][v] = V::MulAdd(c[r][v], av, b[v]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < kMR; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < kNV; ++v) V::Store(dst + r * ldd + v * L, c[r][v]);
  }
}

// Rows [r0, r1) x columns [c0, c1) with c1 - c0 <= kColBlock: K in passes
// of kDepthBlock (one pass when K = 0: the tiles write +0), the f32
// accumulators in acc ([rows rounded up to kMR][panels * width]), then one
// rounding per output to out.
template <class V, DType A, DType B>
void KBlocked(const Problem& pr, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  constexpr int kWidth = kNV * V::kLanes;
  // f32 activations are read in place (nothing to widen); f16/bf16 ones are
  // widened once per pass and 96-row block.
  constexpr bool kInPlace = A == DType::kF32;
  const int64_t k = pr.k, n = c1 - c0, m = r1 - r0;
  const int64_t panels = (n + kWidth - 1) / kWidth, ldc = panels * kWidth;
  const int64_t kcmax = Min(kDepthBlock, k);
  float* apack = kInPlace ? nullptr : Scratch(0, kRowBlock * kcmax);
  float* bpack = Scratch(1, ldc * kcmax);
  float* acc = Scratch(2, (m + kMR) * ldc);
  const auto* a = static_cast<const float*>(pr.a);
  const bool out_f32 = pr.out_dt == DType::kF32;
  float* out = static_cast<float*>(pr.out);
  const int64_t full_panels = n / kWidth;
  int64_t p0 = 0;
  do {
    const int64_t kc = Min(kDepthBlock, k - p0);
    for (int64_t q = 0; q < panels; ++q) {
      PackCols<V, B>(pr, c0 + q * kWidth, Min(kWidth, n - q * kWidth), kWidth, p0, kc, bpack + q * kc * kWidth);
    }
    const bool last = p0 + kc >= k;
    for (int64_t i0 = r0; i0 < r1; i0 += kRowBlock) {
      const int64_t rows = Min(kRowBlock, r1 - i0);
      // Row r of the block at abase + r * lda, k from p0.
      const float* abase = kInPlace ? a + i0 * pr.a_rs + p0 : apack;
      const int64_t lda = kInPlace ? pr.a_rs : kc;
      if constexpr (!kInPlace) WidenRows<V, A>(pr, i0, rows, p0, kc, apack);
      for (int64_t q = 0; q < panels; ++q) {
        for (int64_t g = 0; g * kMR < rows; ++g) {
          // Rows past the block point at its last row: the tile's spare rows
          // compute values nobody stores.
          const float* arows[kMR];
          for (int r = 0; r < kMR; ++r) arows[r] = abase + Min(g * kMR + r, rows - 1) * lda;
          float* tacc = acc + (i0 - r0 + g * kMR) * ldc + q * kWidth;
          // The last pass of a whole tile stores straight to an f32 out.
          const bool direct = last && out_f32 && q < full_panels && (g + 1) * kMR <= rows;
          float* dst = direct ? out + (i0 + g * kMR) * pr.out_rs + c0 + q * kWidth : tacc;
          Tile<V>(arows, bpack + q * kc * kWidth, kc, tacc, ldc, p0 == 0, dst, direct ? pr.out_rs : ldc);
        }
      }
    }
    p0 += kc;
  } while (p0 < k);
  // The rest: to out's dtype, or (f32 out) the ragged panel and short groups.
  for (int64_t i0 = r0; i0 < r1; i0 += kRowBlock) {
    const int64_t rows = Min(kRowBlock, r1 - i0);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t done = out_f32 && r < rows / kMR * kMR ? full_panels * kWidth : 0;
      if (done < n) StoreRow(pr, i0 + r, c0 + done, n - done, acc + (i0 + r - r0) * ldc + done);
    }
  }
}

// Any block: sub-blocks of at most kUnitRows x kColBlock, so the scratch and
// the pass's packed weight stay cache-sized whatever the caller hands over
// (batched_matmul passes whole rows of a batch).
template <class V, DType A, DType B>
void PackedBlock(const Problem& pr, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  for (int64_t j0 = c0; j0 < c1; j0 += kColBlock) {
    for (int64_t i0 = r0; i0 < r1; i0 += kUnitRows) {
      KBlocked<V, A, B>(pr, i0, Min(r1, i0 + kUnitRows), j0, Min(c1, j0 + kColBlock));
    }
  }
}

// acc[c, c + L) += a[q] * b[e[q] + c, ...) for q = 0..Q-1 in that order, each a
// multiply then an add (Partial: lanes from n on are loaded as +0 and never
// stored by the caller).
template <class V, DType B, int Q, bool Partial>
inline void DecodeStep(float* acc, const unsigned char* b, const int64_t* e, const typename V::T* a, int64_t c,
                       int n) {
  typename V::T s = V::Load(acc + c);
#pragma GCC unroll 4
  for (int q = 0; q < Q; ++q) {
    s = V::MulAdd(s, a[q], Partial ? V::template LoadPartial<B>(b, e[q] + c, n) : V::template LoadAs<B>(b, e[q] + c));
  }
  V::Store(acc + c, s);
}

// Q consecutive weight rows (element offsets e[q] of their first column) over
// w columns into acc: whole vectors, then the last partial one.
template <class V, DType B, int Q>
void DecodeRows(float* acc, const unsigned char* b, const int64_t* e, const typename V::T* a, int64_t w) {
  constexpr int L = V::kLanes;
  int64_t c = 0;
  for (; c + L <= w; c += L) DecodeStep<V, B, Q, false>(acc, b, e, a, c, L);
  if (c < w) DecodeStep<V, B, Q, true>(acc, b, e, a, c, static_cast<int>(w - c));
}

// One row against a [K,N]-ordered weight read in place (decode): the weight
// is streamed row by row over the block's columns - contiguous reads the
// prefetcher follows - into f32 accumulators kept in L1 (RunVectorTier caps
// a decode block at 4096 columns, 16 KB), four rows of k per pass. Each
// output still takes k = 0, 1, ... in order, one multiply and one add each;
// an accumulator stored and reloaded in f32 is the same value.
template <class V, DType A, DType B>
void DecodeRow(const Problem& pr, int64_t i, int64_t c0, int64_t c1) {
  constexpr int L = V::kLanes;
  const int64_t w = c1 - c0, k = pr.k;
  float* arow = Scratch(0, k);
  float* acc = Scratch(2, w + L);
  const auto* a = static_cast<const unsigned char*>(pr.a);
  const auto* b = static_cast<const unsigned char*>(pr.b);
  for (int64_t p = 0; p < k; ++p) arow[p] = Widen(A, a, i * pr.a_rs + p);
  for (int64_t c = 0; c < w + L; ++c) acc[c] = 0.0f;
  int64_t p = 0;
  for (; p + 4 <= k; p += 4) {
    const int64_t e[4] = {p * pr.ldb + c0, (p + 1) * pr.ldb + c0, (p + 2) * pr.ldb + c0, (p + 3) * pr.ldb + c0};
    const typename V::T av[4] = {V::Set1(arow[p]), V::Set1(arow[p + 1]), V::Set1(arow[p + 2]), V::Set1(arow[p + 3])};
    DecodeRows<V, B, 4>(acc, b, e, av, w);
  }
  for (; p < k; ++p) {
    const int64_t e[1] = {p * pr.ldb + c0};
    const typename V::T av[1] = {V::Set1(arow[p])};
    DecodeRows<V, B, 1>(acc, b, e, av, w);
  }
  StoreRow(pr, i, c0, w, acc);
}

// Weight rows are read kPrefetchK elements ahead of use (decode, [N,K]
// weight): L rows advance together, more streams than the hardware
// prefetcher follows (measured: 5.8 -> 5.0 ms for 1 x 4096 @ 4096^2 f32;
// about 2% once the step below ran from registers).
inline constexpr int64_t kPrefetchK = 128;

// One vector of L outputs (weight rows from row0, all L present) over k in
// whole steps of L: per step the L rows are read L k along, transposed in
// registers (lane c = output c), and the L products added in k order to s.
// Everything stays in registers: the accumulator is a local (through a
// pointer it would be stored at every k), the transpose is inlined and
// unrolled, and row c is addressed as quad[c / 4] + (c % 4) * ldb - four
// base pointers and two strides - so the addresses fit the general
// registers. Measured (1 x 4096 @ [4096,4096] f32, avx512, 1 thread):
// 5.0 ms -> 3.0 ms; one vector of outputs at a time beats two side by side
// (the second chain's registers and streams cost more than its latency
// hiding gains: 6.5 ms).
template <class V, DType B>
inline typename V::T NkWholeSteps(const float* arow, const unsigned char* row0, int64_t ldb, int64_t k) {
  constexpr int L = V::kLanes;
  constexpr int64_t kEs = B == DType::kF32 ? 4 : 2;
  const int64_t ldb1 = ldb * kEs, ldb3 = 3 * ldb1;
  typename V::T s = V::Zero();
  for (int64_t p = 0; p + L <= k; p += L, row0 += L * kEs) {
    typename V::T t[L];
    const unsigned char* quad = row0;
#pragma GCC unroll 4
    for (int c = 0; c < L; c += 4, quad += 4 * ldb1) {
      if (p + kPrefetchK < k) {
        __builtin_prefetch(quad + kPrefetchK * kEs, 0, 3);
        __builtin_prefetch(quad + ldb1 + kPrefetchK * kEs, 0, 3);
        __builtin_prefetch(quad + 2 * ldb1 + kPrefetchK * kEs, 0, 3);
        __builtin_prefetch(quad + ldb3 + kPrefetchK * kEs, 0, 3);
      }
      t[c] = V::template LoadAs<B>(quad, 0);
      t[c + 1] = V::template LoadAs<B>(quad + ldb1, 0);
      t[c + 2] = V::template LoadAs<B>(quad + 2 * ldb1, 0);
      t[c + 3] = V::template LoadAs<B>(quad + ldb3, 0);
    }
    V::Transpose(t);
#pragma GCC unroll 16
    for (int q = 0; q < L; ++q) s = V::MulAdd(s, V::Set1(arow[p + q]), t[q]);
  }
  return s;
}

// Steps of `rows` (<= L) weight rows from j0 over k = p .. p + n (n <= L)
// added to s: the ragged last step of k, or every step of a ragged last
// vector of outputs. Only the n valid k are applied (a +0 step would turn a
// -0 sum into +0).
template <class V, DType B>
inline void NkPartialStep(const float* arow, const unsigned char* b, int64_t ldb, int64_t j0, int64_t p, int rows,
                          int n, typename V::T& s) {
  typename V::T t[V::kLanes];
  LoadNk<V, B>(b, j0 * ldb + p, ldb, rows, n, t);
  V::Transpose(t);
  for (int q = 0; q < n; ++q) s = V::MulAdd(s, V::Set1(arow[p + q]), t[q]);
}

// One row against an [N,K]-ordered f32/bf16 weight (matmul_bt's plain
// weight; decode). Per vector of L outputs, the L weight rows are read along
// k, L k at a time, transposed in registers so that lane c holds output c's
// weight, and each k's multiply and add is applied in order.
template <class V, DType A, DType B>
void DecodeRowNk(const Problem& pr, int64_t i, int64_t c0, int64_t c1) {
  constexpr int L = V::kLanes;
  constexpr int64_t kEs = B == DType::kF32 ? 4 : 2;
  const int64_t k = pr.k, whole = k / L * L;
  const int tail = static_cast<int>(k - whole);
  float* arow = Scratch(0, k);
  const auto* a = static_cast<const unsigned char*>(pr.a);
  const auto* b = static_cast<const unsigned char*>(pr.b);
  for (int64_t p = 0; p < k; ++p) arow[p] = Widen(A, a, i * pr.a_rs + p);
  float res[L];
  for (int64_t j0 = c0; j0 < c1; j0 += L) {
    const int rows = static_cast<int>(Min(L, c1 - j0));
    typename V::T s;
    if (rows == L) {
      s = NkWholeSteps<V, B>(arow, b + j0 * pr.ldb * kEs, pr.ldb, k);
      if (tail > 0) NkPartialStep<V, B>(arow, b, pr.ldb, j0, whole, L, tail, s);
    } else {
      s = V::Zero();
      for (int64_t p = 0; p < k; p += L) {
        NkPartialStep<V, B>(arow, b, pr.ldb, j0, p, rows, static_cast<int>(Min(L, k - p)), s);
      }
    }
    V::Store(res, s);
    StoreRow(pr, i, j0, rows, res);
  }
}

template <class V, DType A>
void DispatchB(const Problem& pr, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  const bool decode = r1 - r0 == 1 && pr.b_dt != DType::kF16;
  switch (pr.b_dt) {
    case DType::kF16: return PackedBlock<V, A, DType::kF16>(pr, r0, r1, c0, c1);
    case DType::kBF16:
      if (!decode) return PackedBlock<V, A, DType::kBF16>(pr, r0, r1, c0, c1);
      return pr.b_nk ? DecodeRowNk<V, A, DType::kBF16>(pr, r0, c0, c1) : DecodeRow<V, A, DType::kBF16>(pr, r0, c0, c1);
    default:
      if (!decode) return PackedBlock<V, A, DType::kF32>(pr, r0, r1, c0, c1);
      return pr.b_nk ? DecodeRowNk<V, A, DType::kF32>(pr, r0, c0, c1) : DecodeRow<V, A, DType::kF32>(pr, r0, c0, c1);
  }
}

template <class V>
void ComputeBlockImpl(const Problem& pr, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  switch (pr.a_dt) {
    case DType::kF16: return DispatchB<V, DType::kF16>(pr, r0, r1, c0, c1);
    case DType::kBF16: return DispatchB<V, DType::kBF16>(pr, r0, r1, c0, c1);
    default: return DispatchB<V, DType::kF32>(pr, r0, r1, c0, c1);
  }
}

}  // namespace
}  // namespace vt::cpu::gemm::simd
