// The pressure kernel (pressure.hpp), one copy per instruction set
// (simd-inl.hpp), and the hydrostatic result of its sums.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/pressure.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/pressure.hpp"
#include "kernels/simd-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// A sum kept in double lanes: the pressure sums cancel heavily over a closed
/// hull (docs/model.md, "The pressure integral").
struct WideSum {
#if defined(BT_USE_DOUBLE_PRECISION)
  V v;
  HWY_INLINE WideSum() : v(hn::Zero(D())) {}
  HWY_INLINE void add(V x) { v = hn::Add(v, x); }
  [[nodiscard]] HWY_INLINE double total() const { return hn::GetLane(hn::SumOfLanes(D(), v)); }
#elif HWY_TARGET == HWY_SCALAR
  double v = 0;  // one float lane, promoted as it is added
  HWY_INLINE void add(V x) { v += double(hn::GetLane(x)); }
  [[nodiscard]] HWY_INLINE double total() const { return v; }
#else
  using DW = hn::RepartitionToWide<D>;
  hn::Vec<DW> lo, hi;
  HWY_INLINE WideSum() : lo(hn::Zero(DW())), hi(hn::Zero(DW())) {}
  HWY_INLINE void add(V x) {
    const hn::Half<D> dh;
    lo = hn::Add(lo, hn::PromoteTo(DW(), hn::LowerHalf(dh, x)));
    hi = hn::Add(hi, hn::PromoteTo(DW(), hn::UpperHalf(dh, x)));
  }
  [[nodiscard]] HWY_INLINE double total() const { return hn::GetLane(hn::SumOfLanes(DW(), hn::Add(lo, hi))); }
#endif
};

PressureSums PressureKernel(const PieceStream* streams, std::size_t streamCount, const T* up) {
  // (The streams are read through local copies: see simd-inl.hpp.)
  const D d;
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  // Eleven sums, each kept per lane in btScalar over a block of 8 vectors
  // and then added into double lanes: only 8-term sums round in float, the
  // cancelling sum over the whole hull is double, at an eighth of the
  // conversions (float sums fail the submerged-hull tests; docs/performance.md,
  // "Instruction counts").
  enum { kForce = 0, kMoment = 3, kBuoyancy = 6, kArea = 9, kDepth = 10, kSums = 11 };
  constexpr int kBlock = 8;
  WideSum total[kSums];
  V block[kSums];
  for (V& b : block) b = hn::Zero(d);
  int inBlock = 0;
  auto flush = [&] {
    for (int k = 0; k < kSums; ++k) total[k].add(block[k]), block[k] = hn::Zero(d);
    inBlock = 0;
  };
  for (std::size_t k = 0; k < streamCount; ++k) {
    const PieceStream s = streams[k];
    for (std::size_t i = 0; i < s.count; i += hn::Lanes(d)) {
      if (hn::AllFalse(d, hn::Gt(hn::LoadU(d, s.weight + i), hn::Zero(d)))) continue;  // dry: adds nothing
      const V3 a = load3(d, s.ax, s.ay, s.az, i), b = load3(d, s.bx, s.by, s.bz, i), c = load3(d, s.cx, s.cy, s.cz, i);
      const V d0 = hn::LoadU(d, s.d0 + i), d1 = hn::LoadU(d, s.d1 + i), d2 = hn::LoadU(d, s.d2 + i);
      const V3 sv = load3(d, s.sx, s.sy, s.sz, i);
      // m = sum d_i r_i + (sum d_i)(sum r_i); torque m x S (docs/model.md, "The pressure integral").
      // sum r_i is 3 G, the stored centroid's.
      const V sumD = hn::Add(hn::Add(d0, d1), d2);
      const V3 g = centroid(d, s, i);
      const V sumD3 = hn::Mul(sumD, hn::Set(d, T(3)));
      const V3 m = {hn::MulAdd(a.x, d0, hn::MulAdd(b.x, d1, hn::MulAdd(c.x, d2, hn::Mul(g.x, sumD3)))),
                    hn::MulAdd(a.y, d0, hn::MulAdd(b.y, d1, hn::MulAdd(c.y, d2, hn::Mul(g.y, sumD3)))),
                    hn::MulAdd(a.z, d0, hn::MulAdd(b.z, d1, hn::MulAdd(c.z, d2, hn::Mul(g.z, sumD3))))};
      const V3 torque = cross(m, sv);
      const V sUp = dot(sv, upv);
      const V sumD2 = hn::MulAdd(d0, d0, hn::MulAdd(d1, d1, hn::MulAdd(d2, d2, hn::Mul(sumD, sumD))));
      const V terms[kSums] = {hn::Mul(sv.x, sumD),
                              hn::Mul(sv.y, sumD),
                              hn::Mul(sv.z, sumD),
                              torque.x,
                              torque.y,
                              torque.z,
                              hn::Mul(m.x, sUp),
                              hn::Mul(m.y, sUp),
                              hn::Mul(m.z, sUp),
                              hn::Mul(hn::LoadU(d, s.weight + i), hn::LoadU(d, s.area + i)),
                              hn::Mul(sUp, sumD2)};
      for (int j = 0; j < kSums; ++j) block[j] = hn::Add(block[j], terms[j]);
      if (++inBlock == kBlock) flush();
    }
  }
  flush();
  PressureSums out;
  for (int k = 0; k < 3; ++k) {
    out.force[k] = total[kForce + k].total();
    out.moment[k] = total[kMoment + k].total();
    out.buoyancyMoment[k] = total[kBuoyancy + k].total();
  }
  out.area = total[kArea].total();
  out.depthIntegral = total[kDepth].total();
  return out;
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(PressureKernel);

PressureSums pressureSums(const PieceStream* streams, std::size_t count, const btScalar up[3]) {
  return HWY_DYNAMIC_DISPATCH(PressureKernel)(streams, count, up);
}

HydrostaticResult pressureResult(const PressureSums& sums, btScalar density_kgpm3, btScalar gravity_mps2,
                                 const btVector3& up) {
  const double rhoG = double(density_kgpm3) * double(gravity_mps2);
  HydrostaticResult result;
  result.force_N = btVector3(btScalar(-rhoG * sums.force[0] / 3), btScalar(-rhoG * sums.force[1] / 3),
                             btScalar(-rhoG * sums.force[2] / 3));
  result.torque_Nm = btVector3(btScalar(-rhoG * sums.moment[0] / 12), btScalar(-rhoG * sums.moment[1] / 12),
                               btScalar(-rhoG * sums.moment[2] / 12));
  // V = F . up / (rho g) = -sum (S . up)(sum d) / 3.
  const double volume = -(sums.force[0] * up.x() + sums.force[1] * up.y() + sums.force[2] * up.z()) / 3;
  result.submergedVolume_m3 = btScalar(volume);
  result.wettedArea_m2 = btScalar(sums.area);
  // Divergence theorem with grad d = -up (flat water), the waterplane
  // contributing nothing because d = 0 there:
  //   V B = up int_V d dV - sum (S . up) int d r dA / A,
  //   int_V d dV = -sum (S . up) int d^2 dA / (2 A).
  const double depthVolume = -sums.depthIntegral / 24;
  result.depthIntegral_m4 = btScalar(depthVolume);
  if (volume > 0) {
    for (int k = 0; k < 3; ++k)
      result.centreOfBuoyancy_m[k] = btScalar((double(up[k]) * depthVolume - sums.buoyancyMoment[k] / 12) / volume);
  }
  return result;
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
