// The pressure integral's terms of a vector of pieces, added to a block of
// slot sums: what the pressure kernel (pressure.cpp) adds for the pieces
// it loads, and the cut kernel (cut.cpp) for the pieces it has just cut
// when it sums them in place of storing them (CutOutput::PressureSums).
// One function for both, so both give the same bits. Included once per
// instruction set, after simd-inl.hpp (its include guard toggles as
// simd-inl.hpp's does).

#include "kernels/simd-inl.hpp"

#if defined(KEEL_KERNELS_PRESSURE_TERMS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_KERNELS_PRESSURE_TERMS_INL_H_
#undef KEEL_KERNELS_PRESSURE_TERMS_INL_H_
#else
#define KEEL_KERNELS_PRESSURE_TERMS_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
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
/// registers.
template <std::size_t kCount, class F>
HWY_INLINE void eachIndex(const F& f) {
  [&]<std::size_t... J>(std::index_sequence<J...>) HWY_ATTR { (f(std::integral_constant<std::size_t, J>()), ...); }
  (std::make_index_sequence<kCount>());
}

enum { kForce = 0, kMoment = 3, kBuoyancy = 6, kArea = 9, kDepth = 10, kDepthForce = 11 };

/// The sums of the depths' pressure (eleven); with the corners' pressure
/// heads, fourteen (the depths' force for the volume kept apart).
inline constexpr std::size_t kDepthSums = kPieceSumCount, kHeadSums = 14;
static_assert(kPieceSumSlots == kSlots, "PieceBuffer::sums holds a Sum's slots");

/// A vector of pieces, as a PieceStream holds them: corners, centroids,
/// area vectors [m, m^2], the corners' depths and pressure heads [m] (heads
/// only with kHeads), and weight times area [m^2].
struct PieceTerms {
  V3 a, b, c, g, s;
  V d0, d1, d2, e0, e1, e2;
  V weightedArea;
};

/// Adds the pressure terms of pieces i... (stream order: each goes to its
/// slot, SlotSum) to `block`.
template <bool kHeads>
HWY_INLINE void addTerms(D d, const PieceTerms& p, V3 upv, std::size_t i, Sum* block) {
  const V three = hn::Set(d, T(3));
  const V sumD = hn::Add(hn::Add(p.d0, p.d1), p.d2);
  const V3 m = fieldMoment(p.a, p.b, p.c, p.g, p.d0, p.d1, p.d2, hn::Mul(sumD, three));
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
  const V sumD2 = mulAdd(p.d0, p.d0, mulAdd(p.d1, p.d1, mulAdd(p.d2, p.d2, hn::Mul(sumD, sumD))));
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

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#endif  // KEEL_KERNELS_PRESSURE_TERMS_INL_H_
