// The air and extent kernels (air.hpp), one copy per instruction set
// (simd-inl.hpp).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/air.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/air.hpp"
#include "kernels/simd-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

BodyForce AirKernel(const HullSoA& hull, const T* emerged, const AirParameters& p) {
  const D d;
  const V zero = hn::Zero(d), half = hn::Set(d, p.half);
  const V3 air = set3(d, p.airVelocity_mps), angular = set3(d, p.angularVelocity_radps);
  ForceSum sum;
  for (std::size_t t = 0; t < hull.trianglePadded; t += hn::Lanes(d)) {
    const V fraction = hn::LoadU(d, emerged + t);
    if (hn::AllFalse(d, hn::Gt(fraction, zero))) continue;  // under the water: no air
    const V3 c = load3(d, hull.gx.data(), hull.gy.data(), hull.gz.data(), t);
    // Only faces meeting the air are pushed: F = -1/2 rho C fraction (S . v) v (airForce).
    const V3 v = add(air, cross(angular, c));
    const V facing = dot(v, load3(d, hull.sx.data(), hull.sy.data(), hull.sz.data(), t));
    const V k = hn::IfThenElseZero(hn::And(hn::Gt(facing, zero), hn::Gt(fraction, zero)),
                                   hn::Neg(hn::Mul(hn::Mul(half, fraction), facing)));
    sum.add(t, k, v, cross(c, v));
  }
  return sum.total();
}

/// The least and greatest p . direction over points[0..count) (arrays
/// readable up to a multiple of the lane count).
Extent ExtentKernel(const T* x, const T* y, const T* z, std::size_t count, const T* direction) {
  const D d;
  const V3 dir = set3(d, {direction[0], direction[1], direction[2]});
  V lo = hn::Set(d, BT_LARGE_FLOAT), hi = hn::Set(d, -BT_LARGE_FLOAT);
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    const M in = hn::FirstN(d, count - i);
    const V along = dot(load3(d, x, y, z, i), dir);
    lo = hn::Min(lo, hn::IfThenElse(in, along, lo));
    hi = hn::Max(hi, hn::IfThenElse(in, along, hi));
  }
  return Extent{leastLane(d, lo), greatestLane(d, hi)};
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(AirKernel);
HWY_EXPORT(ExtentKernel);

BodyForce airSums(const HullSoA& hull, const btScalar* emerged, const AirParameters& p) {
  return HWY_DYNAMIC_DISPATCH(AirKernel)(hull, emerged, p);
}

Extent extentAlong(const btScalar* x, const btScalar* y, const btScalar* z, std::size_t count,
                   const btScalar direction[3]) {
  return HWY_DYNAMIC_DISPATCH(ExtentKernel)(x, y, z, count, direction);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
