// The pressure integral's sums (docs/model.md, "The pressure integral"):
// the terms of a vector of pieces added to a block of slot sums, the
// blocks' totals in double. What the pressure kernel (pressure.cpp) sums
// over the stored pieces, and the cut kernel (cut.cpp) over the pieces it
// has just cut when it sums a small hull's in place of storing them
// (cutAndSum): the same functions for both, so the same bits. Included
// once per instruction set (its include guard toggles as simd-inl.hpp's
// does).

#include "kernels/pressure.hpp"
#include "kernels/simd-inl.hpp"

#if defined(KEEL_KERNELS_PRESSURE_SUMS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_KERNELS_PRESSURE_SUMS_INL_H_
#undef KEEL_KERNELS_PRESSURE_SUMS_INL_H_
#else
#define KEEL_KERNELS_PRESSURE_SUMS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// The moment m = sum x_i r_i + (sum x_i)(sum r_i) of a field x given at a
/// piece's corners (docs/model.md, "The pressure integral"); sum r_i is 3 G,
/// the stored centroid's.
HWY_INLINE V3 fieldMoment(V3 a, V3 b, V3 c, V3 g, V x0, V x1, V x2, V sum3) {
  return {mulAdd(a.x, x0, mulAdd(b.x, x1, mulAdd(c.x, x2, hn::Mul(g.x, sum3)))),
          mulAdd(a.y, x0, mulAdd(b.y, x1, mulAdd(c.y, x2, hn::Mul(g.y, sum3)))),
          mulAdd(a.z, x0, mulAdd(b.z, x1, mulAdd(c.z, x2, hn::Mul(g.z, sum3))))};
}

/// f(j) for j = 0, ..., kCount - 1, each j a compile-time constant, so that
/// sums held in an array are indexed only by constants and may stay in
/// registers. (Inlined always: GCC would otherwise call a large one, the
/// array it fills then passed through memory.)
template <std::size_t kCount, class F>
HWY_INLINE void eachIndex(const F& f) {
  [&]<std::size_t... J>(std::index_sequence<J...>) HWY_ATTR __attribute__((always_inline)) {
    (f(std::integral_constant<std::size_t, J>()), ...);
  }
  (std::make_index_sequence<kCount>());
}

enum { kForce = 0, kMoment = 3, kBuoyancy = 6, kArea = 9, kDepth = 10, kDepthForce = 11 };

/// The sums of the depths' pressure (eleven); with the corners' pressure
/// heads, fourteen (the depths' force for the volume kept apart).
inline constexpr std::size_t kDepthSums = 11, kHeadSums = 14;

/// A vector of pieces, as a PieceStream holds them: corners, centroids,
/// area vectors [m, m^2], the corners' depths and pressure heads [m] (heads
/// only with kHeads), and weight times area [m^2].
struct PieceTerms {
  V3 a, b, c, g, s;
  V d0, d1, d2, e0, e1, e2;
  V weightedArea;
};

/// Adds the pressure terms of pieces i... (stream order: each goes to its
/// slot, SlotSum) to `block`. With kMiddleDepthOnly, p.d0 and p.d2 are 0
/// in every lane (a two-wet triangle's second piece): the terms they would
/// add are not taken. Those are zeros, +-0 in finite arithmetic, and
/// adding them changes no other value: the terms are the same numbers but
/// for the sign of a zero, which changes no sum (a sum started at +0 is
/// never -0) and so no bit.
template <bool kHeads, bool kMiddleDepthOnly = false>
HWY_INLINE void addTerms(D d, const PieceTerms& p, V3 upv, std::size_t i, Sum* block) {
  static_assert(!(kHeads && kMiddleDepthOnly), "a piece's heads are not taken in part");
  const V three = hn::Set(d, T(3));
  const V sumD = kMiddleDepthOnly ? p.d1 : hn::Add(hn::Add(p.d0, p.d1), p.d2);
  V3 m;
  if constexpr (kMiddleDepthOnly) {
    const V sum3 = hn::Mul(sumD, three);
    m = {mulAdd(p.b.x, p.d1, hn::Mul(p.g.x, sum3)), mulAdd(p.b.y, p.d1, hn::Mul(p.g.y, sum3)),
         mulAdd(p.b.z, p.d1, hn::Mul(p.g.z, sum3))};
  } else {
    m = fieldMoment(p.a, p.b, p.c, p.g, p.d0, p.d1, p.d2, hn::Mul(sumD, three));
  }
  // The pressure's head: the depth, or the surface's head.
  V sumP = sumD;
  V3 mp = m;
  if constexpr (kHeads) {
    sumP = hn::Add(hn::Add(p.e0, p.e1), p.e2);
    mp = fieldMoment(p.a, p.b, p.c, p.g, p.e0, p.e1, p.e2, hn::Mul(sumP, three));
  }
  const V3 sv = p.s;
  const V3 torque = cross(mp, sv);
  const V sUp = dot(sv, upv);
  const V sumD2 = kMiddleDepthOnly ? mulAdd(p.d1, p.d1, hn::Mul(sumD, sumD))
                                   : mulAdd(p.d0, p.d0, mulAdd(p.d1, p.d1, mulAdd(p.d2, p.d2, hn::Mul(sumD, sumD))));
  const V terms[kHeadSums] = {hn::Mul(sv.x, sumP),
                              hn::Mul(sv.y, sumP),
                              hn::Mul(sv.z, sumP),
                              torque.x,
                              torque.y,
                              torque.z,
                              hn::Mul(m.x, sUp),
                              hn::Mul(m.y, sUp),
                              hn::Mul(m.z, sUp),
                              p.weightedArea,
                              hn::Mul(sUp, sumD2),
                              hn::Mul(sv.x, sumD),
                              hn::Mul(sv.y, sumD),
                              hn::Mul(sv.z, sumD)};
  eachIndex<kHeads ? kHeadSums : kDepthSums>([&](auto j) { block[j].add(i, terms[j]); });
}

/// The sums of a block of pieces, each Sum started (zeroed) or not one by
/// one: GCC would clear an array of them, loop-constructed, through memory
/// (rep stos) rather than in the registers the block's loop keeps them in.
template <std::size_t kSums>
struct SumBlock {
  Sum sum[kSums];
  HWY_INLINE SumBlock() : SumBlock(Sum(), std::make_index_sequence<kSums>()) {}
  HWY_INLINE explicit SumBlock(Unstarted tag) : SumBlock(tag, std::make_index_sequence<kSums>()) {}
  template <class Init, std::size_t... J>
  HWY_INLINE SumBlock(const Init& init, std::index_sequence<J...> /*each*/)
      : sum{(static_cast<void>(J), Sum(init))...} {}
};

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
/// The first levels of a SlotSum of doubles' total (slotHalvingSum): its
/// vectors added by halves, vector j + n/2 to vector j, to one vector.
template <class DW, std::size_t K>
HWY_INLINE hn::Vec<DW> foldedSlots(const SlotSum<DW, K>& sum) {
  using S = SlotSum<DW, K>;
  hn::Vec<DW> w[S::kVectors];
  for (std::size_t j = 0; j < S::kVectors; ++j) w[j] = sum.v[j];
  for (std::size_t n = S::kVectors / 2; n >= 1; n /= 2)
    for (std::size_t j = 0; j < n; ++j) w[j] = hn::Add(w[j], w[j + n]);
  return w[0];
}

/// laneHalvingSum of each of the vectors x, several sums at once, into the
/// lanes of v (laneHalvingSums tells which): each level takes the lanes of
/// two vectors (two sums, then four, ...) into one, so that one vector
/// addition makes the level for all of them. The same additions of the
/// same numbers as laneHalvingSum's: lane k + n/2 to lane k (the two halves
/// of a vector), then the halves of those halves, and so on.
template <class DW, std::size_t kN, std::size_t kPadded>
HWY_INLINE void laneHalvingVectors(DW dw, const hn::Vec<DW> (&x)[kN], hn::Vec<DW> (&v)[kPadded]) {
  constexpr std::size_t kLanes = hn::MaxLanes(DW());
  static_assert(kPadded == (kN + kLanes - 1) / kLanes * kLanes, "whole vectors of sums");
  static_assert(kLanes == 2 || kLanes == 4 || kLanes == 8, "a vector of two, four or eight doubles");
  for (std::size_t j = 0; j < kPadded; ++j) v[j] = j < kN ? x[j] : hn::Zero(dw);
  // Each vector's halves: [a's lower + a's upper, b's lower + b's upper].
  for (std::size_t j = 0; j < kPadded / 2; ++j)
    v[j] = hn::Add(hn::ConcatLowerLower(dw, v[2 * j + 1], v[2 * j]), hn::ConcatUpperUpper(dw, v[2 * j + 1], v[2 * j]));
  std::size_t n = kPadded / 2;
  if constexpr (kLanes == 8) {  // four lanes a sum: the halves of each, blocks of two lanes
    for (std::size_t j = 0; j < n / 2; ++j) {
      const hn::Vec<DW> a = v[2 * j], b = v[2 * j + 1];
      v[j] = hn::Add(hn::OddEvenBlocks(hn::SwapAdjacentBlocks(b), a), hn::OddEvenBlocks(b, hn::SwapAdjacentBlocks(a)));
    }
    n /= 2;
  }
  if constexpr (kLanes >= 4) {  // two lanes a sum: lane 0 + lane 1
    for (std::size_t j = 0; j < n / 2; ++j)
      v[j] = hn::Add(hn::ConcatEven(dw, v[2 * j + 1], v[2 * j]), hn::ConcatOdd(dw, v[2 * j + 1], v[2 * j]));
  }
}

/// laneHalvingSum of each of the vectors x into total[j] (laneHalvingVectors).
template <class DW, std::size_t kN>
HWY_INLINE void laneHalvingSums(DW dw, const hn::Vec<DW> (&x)[kN], double* total) {
  constexpr std::size_t kLanes = hn::MaxLanes(DW());
  constexpr std::size_t kPadded = (kN + kLanes - 1) / kLanes * kLanes;
  hn::Vec<DW> v[kPadded];
  laneHalvingVectors(dw, x, v);
  double lanes[kPadded];
  for (std::size_t j = 0; j < kPadded / kLanes; ++j) hn::StoreU(v[j], dw, lanes + j * kLanes);
  // Eight lanes leave each vector's sums in the order 0, 2, 1, 3, 4, 6, 5, 7
  // (the blocks' step interleaves them); fewer, in order.
  for (std::size_t j = 0; j < kN; ++j) {
    const std::size_t k = j % 4;
    total[j] = lanes[kLanes == 8 && (k == 1 || k == 2) ? j ^ 3u : j];
  }
}
#endif

/// A Sum's partial sums carried on in double, slot by slot (SlotSum): the
/// pressure sums cancel heavily over a closed hull (docs/model.md, "The
/// pressure integral").
/// Started from a Sum, it holds that Sum's slots exactly: +0 + x is x for
/// every x but -0, which a sum started at +0 never is.
struct WideSum {
  HWY_INLINE WideSum() {}  // (the implicit one would lack the instruction set's attributes)
#if defined(BT_USE_DOUBLE_PRECISION) && !HWY_HAVE_SCALABLE
  using DW = D;
  Sum v;
  HWY_INLINE explicit WideSum(const Sum& x) : v(x) {}
  /// Adds x's first `vectors` slot vectors (the rest +0, which would
  /// change no bit).
  HWY_INLINE void add(const Sum& x, std::size_t vectors = Sum::kVectors) {
    for (std::size_t j = 0; j < Sum::kVectors && j < vectors; ++j) v.v[j] = hn::Add(v.v[j], x.v[j]);
  }
  [[nodiscard]] HWY_INLINE double total() const { return v.total(); }
#if HWY_TARGET != HWY_SCALAR
  [[nodiscard]] HWY_INLINE hn::Vec<DW> folded() const { return foldedSlots(v); }
  /// folded() of WideSum(a) plus b's first slot vector, when a's other
  /// slot vectors are +0 too: the levels that would add them change no bit.
  static HWY_INLINE hn::Vec<DW> firstFolded(const Sum& a, const Sum& b) { return hn::Add(a.v[0], b.v[0]); }
#endif
#elif HWY_HAVE_SCALABLE || HWY_TARGET == HWY_SCALAR
  double v[kSlots] = {};  // one lane at a time
  HWY_INLINE explicit WideSum(const Sum& x) { add(x); }
  HWY_INLINE void add(const Sum& x, std::size_t /*vectors: all*/ = 0) {
    T lanes[kSlots];
    x.store(lanes);
    for (std::size_t k = 0; k < kSlots; ++k) v[k] += double(lanes[k]);
  }
  [[nodiscard]] HWY_INLINE double total() const {
    double sum[kSlots];
    std::copy(v, v + kSlots, sum);
    return halvingSum(sum, kSlots);
  }
#else
  using DW = hn::RepartitionToWide<D>;
  SlotSum<DW, kSlots> v;  // float vector j's slots are double vectors 2j and 2j + 1
  /// Slot vector k of x in double.
  static HWY_INLINE hn::Vec<DW> promoted(const Sum& x, std::size_t k) {
    const hn::Half<D> dh;
    return hn::PromoteTo(DW(), k % 2 == 0 ? hn::LowerHalf(dh, x.v[k / 2]) : hn::UpperHalf(dh, x.v[k / 2]));
  }
  HWY_INLINE explicit WideSum(const Sum& x) {
    for (std::size_t k = 0; k < 2 * Sum::kVectors; ++k) v.v[k] = promoted(x, k);
  }
  /// Adds x's first `vectors` slot vectors (the rest +0, which would
  /// change no bit).
  HWY_INLINE void add(const Sum& x, std::size_t vectors = Sum::kVectors) {
    for (std::size_t k = 0; k < 2 * Sum::kVectors && k < 2 * vectors; ++k) v.v[k] = hn::Add(v.v[k], promoted(x, k));
  }
  [[nodiscard]] HWY_INLINE double total() const { return v.total(); }
  [[nodiscard]] HWY_INLINE hn::Vec<DW> folded() const { return foldedSlots(v); }
  /// folded() of WideSum(a) plus b's first slot vector, when a's other
  /// slot vectors are +0 too: the levels that would add them change no
  /// bit, and the last adds the first vector's two halves.
  static HWY_INLINE hn::Vec<DW> firstFolded(const Sum& a, const Sum& b) {
    return hn::Add(hn::Add(promoted(a, 0), promoted(b, 0)), hn::Add(promoted(a, 1), promoted(b, 1)));
  }
#endif
};

/// Adds the pressure terms of pieces i... of s to `block`.
template <bool kHeads>
HWY_INLINE void addPieces(D d, const PieceStream& s, std::size_t i, V3 upv, Sum* block) {
  PieceTerms p;
  p.a = load3(d, s.ax, s.ay, s.az, i), p.b = load3(d, s.bx, s.by, s.bz, i), p.c = load3(d, s.cx, s.cy, s.cz, i);
  p.g = centroid(d, s, i);
  p.s = load3(d, s.sx, s.sy, s.sz, i);
  p.d0 = hn::LoadU(d, s.d0 + i), p.d1 = hn::LoadU(d, s.d1 + i), p.d2 = hn::LoadU(d, s.d2 + i);
  if constexpr (kHeads) p.e0 = hn::LoadU(d, s.e0 + i), p.e1 = hn::LoadU(d, s.e1 + i), p.e2 = hn::LoadU(d, s.e2 + i);
  p.weightedArea = hn::Mul(hn::LoadU(d, s.weight + i), hn::LoadU(d, s.area + i));
  addTerms<kHeads>(d, p, upv, i, block);
}

/// Adds the pressure terms of pieces [start, end) of s, one block, to
/// `block`; false when every piece was dry (block then left as it was).
template <bool kHeads>
HWY_INLINE bool addBlock(D d, const PieceStream& s, std::size_t start, std::size_t end, V3 upv, Sum* block) {
  bool pending = false;
  for (std::size_t i = start; i < end; i += hn::Lanes(d)) {
    if (!hn::AllFalse(d, hn::Gt(hn::LoadU(d, s.weight + i), hn::Zero(d)))) {  // else dry: adds nothing
      addPieces<kHeads>(d, s, i, upv, block);
      pending = true;
    }
  }
  return pending;
}

/// The PressureSums of the sums' totals, total(j) for each sum j (indexed
/// as kForce..., a compile-time constant), written in place, each total as
/// it is made: a returned copy, or an array of the totals, is stored in
/// narrow stores and read in wide loads, which wait for them.
template <bool kHeads, class Total>
HWY_INLINE void sumsOf(const Total& total, PressureSums& out) {
  double* const field[kHeadSums] = {
      &out.force[0],      &out.force[1],          &out.force[2],          &out.moment[0],         &out.moment[1],
      &out.moment[2],     &out.buoyancyMoment[0], &out.buoyancyMoment[1], &out.buoyancyMoment[2], &out.area,
      &out.depthIntegral, &out.depthForce[0],     &out.depthForce[1],     &out.depthForce[2]};
  eachIndex<kHeads ? kHeadSums : kDepthSums>([&](auto j) {
    const double value = total(j);
    *field[j] = value;
    // Without heads, the force is the depths' force.
    if constexpr (!kHeads && decltype(j)::value < 3) out.depthForce[j] = value;
  });
}

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
/// sumsOf the depths' sums (without heads) when their totals are lanes of
/// vectors of eight doubles (laneHalvingVectors): PressureSums' fourteen
/// doubles in a row (the force twice, as depthForce) made by two lane
/// permutations and stored in two stores rather than one at a time.
template <class DW>
HWY_INLINE void depthSumsOf(DW dw, const hn::Vec<DW> (&x)[kDepthSums], PressureSums& out) {
  static_assert(offsetof(PressureSums, depthForce) == 3 * sizeof(double) &&
                    offsetof(PressureSums, moment) == 6 * sizeof(double) &&
                    offsetof(PressureSums, buoyancyMoment) == 9 * sizeof(double) &&
                    offsetof(PressureSums, area) == 12 * sizeof(double) &&
                    offsetof(PressureSums, depthIntegral) == 13 * sizeof(double),
                "PressureSums: fourteen doubles in a row");
  hn::Vec<DW> v[16];
  laneHalvingVectors(dw, x, v);
  // v[0]'s lanes hold sums 0, 2, 1, 3, 4, 6, 5, 7, v[1]'s 8, 10, 9
  // (laneHalvingSums); out's first eight doubles are sums 0, 1, 2, 0, 1,
  // 2, 3, 4, its next six 5, ..., 10.
  alignas(64) static constexpr std::int64_t kFirst[8] = {0, 2, 1, 0, 2, 1, 3, 4};
  alignas(64) static constexpr std::int64_t kSecond[8] = {6, 5, 7, 0, 2, 1, 0, 0};
  auto* const o = reinterpret_cast<double*>(&out);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
  hn::StoreU(hn::TableLookupLanes(v[0], hn::SetTableIndices(dw, kFirst)), dw, o);
  const auto second = hn::SetTableIndices(dw, kSecond);
  hn::BlendedStore(
      hn::IfThenElse(hn::FirstN(dw, 3), hn::TableLookupLanes(v[0], second), hn::TableLookupLanes(v[1], second)),
      hn::FirstN(dw, 6), dw, o + 8);
}
#endif

/// Stream s's sums when it fits in one block (addBlock), into `out`: +0
/// in every slot when it is dry.
template <bool kHeads, std::size_t kSums>
HWY_NOINLINE void keepBlock(const PieceStream* stream, V3 upv, SumBlock<kSums>& out) {
  const D d;
  const PieceStream s = *stream;
  SumBlock<kSums> block;
  static_cast<void>(addBlock<kHeads>(d, s, 0, s.count, upv, block.sum));
  eachIndex<kSums>([&](auto j) { out.sum[j] = block.sum[j]; });
}

/// The totals of two blocks' sums, slot by slot in double, then by
/// halves, into `out`. With kSecondInFirst, the second block's sums only
/// in their first slot vector (the others +0: not added); with
/// kFirstInFirst too, the first block's.
template <bool kHeads, std::size_t kSums, bool kSecondInFirst = false, bool kFirstInFirst = false>
HWY_INLINE void twoBlockTotals(const SumBlock<kSums>& first, const SumBlock<kSums>& second, PressureSums& out) {
  // A dry stream's block sums are the +0 they started at, whose addition
  // changes no bit (a sum started at +0 is never -0): added without a test.
  static_assert(kSecondInFirst || !kFirstInFirst, "the first block in its first slot vector: the second too");
#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
  hn::Vec<WideSum::DW> folded[kSums];
  eachIndex<kSums>([&](auto j) {
    if constexpr (kFirstInFirst) {
      folded[j] = WideSum::firstFolded(first.sum[j], second.sum[j]);
    } else {
      WideSum t(first.sum[j]);
      if constexpr (kSecondInFirst)
        t.add(second.sum[j], 1);
      else
        t.add(second.sum[j]);
      folded[j] = t.folded();
    }
  });
  if constexpr (!kHeads && kSums == kDepthSums && hn::MaxLanes(WideSum::DW()) == 8) {
    depthSumsOf(WideSum::DW(), folded, out);
  } else {
    double total[kSums];
    laneHalvingSums(WideSum::DW(), folded, total);
    sumsOf<kHeads>([&](auto j) { return total[j]; }, out);
  }
#else
  sumsOf<kHeads>(
      [&](auto j) {
        WideSum t(first.sum[j]);
        t.add(second.sum[j]);
        return t.total();
      },
      out);
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#endif  // KEEL_KERNELS_PRESSURE_SUMS_INL_H_
