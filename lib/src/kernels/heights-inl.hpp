// The vertices' heights above the water (heights.hpp's vertexHeights):
// what the heights kernel (heights.cpp) and the small hull's kernel
// (small_hull.cpp) share, so that both give the same bits. Included once
// per instruction set (its include guard toggles as simd-inl.hpp's does).

#include "kernels/heights.hpp"
#include "kernels/simd-inl.hpp"

#if defined(KEEL_KERNELS_HEIGHTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_KERNELS_HEIGHTS_INL_H_
#undef KEEL_KERNELS_HEIGHTS_INL_H_
#else
#define KEEL_KERNELS_HEIGHTS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// The vertices' heights above the water into h_m (and along up into
/// above_m unless null) and what they show (vertexHeights), for the
/// vertices [0, end): all of them and their padding, or as many vectors as
/// hold the real ones (past those, only padding, which no triangle names).
HWY_INLINE VertexHeights heightsAbove(const HullSoA& hull, const T* up, T centreUp_m, const T* waterHeight_m, T* h_m,
                                      T* above_m, std::size_t end) {
  const D d;
  const V ux = hn::Set(d, up[0]), uy = hn::Set(d, up[1]), uz = hn::Set(d, up[2]), c = hn::Set(d, centreUp_m);
  const V largest = hn::Set(d, std::numeric_limits<T>::max());
  V bottom = hn::Set(d, BT_LARGE_FLOAT), top = hn::Set(d, -BT_LARGE_FLOAT), nonFinite = hn::Zero(d);
  V lowest = hn::Set(d, BT_LARGE_FLOAT);
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see simd-inl.hpp
  // Vertices i...; `masked`: the vector holds padding, which counts for
  // nothing (a vector of vertices alone needs no mask).
  const auto heights = [&](auto masked, std::size_t i) {
    const V3 p = load3(d, px, py, pz, i);
    const V above = mulAdd(p.x, ux, mulAdd(p.y, uy, mulAdd(p.z, uz, c)));
    const V water = hn::LoadU(d, waterHeight_m + i);
    const V h = hn::Sub(above, water);
    hn::StoreU(h, d, h_m + i);
    if (above_m) hn::StoreU(above, d, above_m + i);
    // Not |x| <= max: NaN or infinite (counted, as patch_sampler.cpp's replaceNonFinite does).
    const M finite = hn::Le(hn::Abs(water), largest);
    if constexpr (decltype(masked)::value) {
      const M real = hn::FirstN(d, hull.vertexCount - std::min(i, hull.vertexCount));
      lowest = hn::Min(lowest, hn::IfThenElse(real, h, lowest));
      bottom = hn::Min(bottom, hn::IfThenElse(real, water, bottom));
      top = hn::Max(top, hn::IfThenElse(real, water, top));
      nonFinite = hn::Add(nonFinite, hn::IfThenElseZero(hn::AndNot(finite, real), hn::Set(d, T(1))));
    } else {
      lowest = hn::Min(lowest, h);
      bottom = hn::Min(bottom, water);
      top = hn::Max(top, water);
      nonFinite = hn::Add(nonFinite, hn::IfThenZeroElse(finite, hn::Set(d, T(1))));
    }
  };
  const std::size_t lanes = hn::Lanes(d), vertices = std::min(end, hull.vertexCount / lanes * lanes);
  std::size_t i = 0;
  for (; i < vertices; i += lanes) heights(std::false_type{}, i);
  for (; i < end; i += lanes) heights(std::true_type{}, i);
  // (One vector's lanes count 0 or 1: their count of ones, not their sum.)
  const std::size_t nonFiniteCount = end <= lanes ? hn::CountTrue(d, hn::Gt(nonFinite, hn::Zero(d)))
                                                  : std::size_t(hn::GetLane(hn::SumOfLanes(d, nonFinite)));
  return VertexHeights{Extent{leastLane(d, bottom), greatestLane(d, top)}, nonFiniteCount, leastLane(d, lowest)};
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#endif  // KEEL_KERNELS_HEIGHTS_INL_H_
