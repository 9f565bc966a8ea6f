// WaterPatch::velocity at many points (heights.hpp, patchVelocities), one
// copy per instruction set (simd-inl.hpp): the scalar function's operations
// lane by lane in double, in its order and without fused multiply-adds, so
// the very same bits.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/patch_velocity.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/heights.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <array>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {
namespace {

using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;
using DT = hn::Rebind<T, DD>;            // btScalar lanes, as many as the doubles
using DK = hn::Rebind<ScalarIndex, DD>;  // their gather indices

HWY_INLINE VD toDouble(hn::Vec<DT> x) {
#if defined(BT_USE_DOUBLE_PRECISION)
  return x;
#else
  return hn::PromoteTo(DD(), x);
#endif
}

HWY_INLINE hn::Vec<DK> toIndex(VD x) {
#if defined(BT_USE_DOUBLE_PRECISION)
  return hn::ConvertTo(DK(), x);
#else
  return hn::DemoteTo(DK(), x);
#endif
}

/// The velocities at one vector of points, into e, n, u (lanes) [m/s].
void velocityLanes(const PatchVelocityView& p, VD u, VD v, VD w, VD surface, VD& e, VD& n, VD& up) {
  const DD dd;
  const DT dt;
  const VD zero = hn::Zero(dd), one = hn::Set(dd, 1.0);
  const PatchCellLanes cell = locatePatchCell(u, v, p.inverseCell_pm, p.originI, p.originJ, int(p.side));
  const VD a = cell.a, b = cell.b, k00 = cell.k00;
  // The cell's triangle and its corners' weights.
  const auto lower = hn::Le(hn::Add(a, b), one);
  const VD corner[3] = {hn::IfThenElse(lower, k00, hn::Add(k00, hn::Set(dd, p.side + 1))), hn::Add(k00, one),
                        hn::Add(k00, hn::Set(dd, p.side))};
  const VD weight[3] = {hn::IfThenElse(lower, hn::Sub(hn::Sub(one, a), b), hn::Sub(hn::Add(a, b), one)),
                        hn::IfThenElse(lower, a, hn::Sub(one, b)), hn::IfThenElse(lower, b, hn::Sub(one, a))};
  // The depth's level m: how many of the inner levels lie above it (the
  // depths increase), and the fraction towards the next.
  const VD depth = hn::Max(zero, hn::Sub(surface, w));
  VD m = zero, top = hn::Set(dd, p.depths_m[0]), bottom = hn::Set(dd, p.depths_m[1]);
  for (std::size_t j = 1; j + 1 < p.levels; ++j) {
    const auto deeper = hn::Gt(depth, hn::Set(dd, p.depths_m[j]));
    m = hn::IfThenElse(deeper, hn::Add(m, one), m);
    top = hn::IfThenElse(deeper, hn::Set(dd, p.depths_m[j]), top);
    bottom = hn::IfThenElse(deeper, hn::Set(dd, p.depths_m[j + 1]), bottom);
  }
  const VD span = hn::Sub(bottom, top);
  const auto positive = hn::Gt(span, zero);
  const VD f = hn::IfThenElseZero(
      positive, hn::Min(hn::Max(hn::Div(hn::Sub(depth, top), hn::IfThenElse(positive, span, one)), zero), one));
  e = zero, n = zero, up = zero;
  const VD levels = hn::Set(dd, double(p.levels)), three = hn::Set(dd, 3.0);
  for (int c = 0; c < 3; ++c) {
    const VD w0 = hn::Mul(weight[c], hn::Sub(one, f)), w1 = hn::Mul(weight[c], f);
    const VD at = hn::Mul(hn::Add(hn::Mul(corner[c], levels), m), three);  // [node][level] of the upper level
    const auto i0 = toIndex(at), i1 = toIndex(hn::Add(at, three));
    VD* sums[3] = {&e, &n, &up};
    for (int axis = 0; axis < 3; ++axis) {
      const auto offset = hn::Set(DK(), ScalarIndex(axis));
      const VD upper = toDouble(hn::GatherIndex(dt, p.velocity, hn::Add(i0, offset)));
      const VD below = toDouble(hn::GatherIndex(dt, p.velocity, hn::Add(i1, offset)));
      *sums[axis] = hn::Add(*sums[axis], hn::Add(hn::Mul(w0, upper), hn::Mul(w1, below)));
    }
  }
}

}  // namespace

void PatchVelocitiesKernel(const PatchVelocityView& p, const T* u_m, const T* v_m, const T* w_m, const T* surface_m,
                           std::size_t count, WaterVelocity* out) {
  const DD dd;
  const DT dt;
  constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(double);
  const std::size_t lanes = hn::Lanes(dd);
  for (std::size_t i = 0; i < count; i += lanes) {
    // The last, partial vector from copies (the arrays end at count).
    std::array<T, kMaxLanes> tail[4];
    const T* in[4] = {u_m + i, v_m + i, w_m + i, surface_m + i};
    const std::size_t here = std::min(lanes, count - i);
    if (here < lanes)
      for (int k = 0; k < 4; ++k) {
        std::fill(tail[k].begin(), tail[k].end(), in[k][0]);
        std::copy_n(in[k], here, tail[k].begin());
        in[k] = tail[k].data();
      }
    VD e, n, up;
    velocityLanes(p, toDouble(hn::LoadU(dt, in[0])), toDouble(hn::LoadU(dt, in[1])), toDouble(hn::LoadU(dt, in[2])),
                  toDouble(hn::LoadU(dt, in[3])), e, n, up);
    std::array<double, kMaxLanes> east, north, upward;
    hn::StoreU(e, dd, east.data()), hn::StoreU(n, dd, north.data()), hn::StoreU(up, dd, upward.data());
    for (std::size_t j = 0; j < here; ++j) out[i + j] = {btScalar(east[j]), btScalar(north[j]), btScalar(upward[j])};
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(PatchVelocitiesKernel);

void patchVelocities(const WaterPatch& patch, const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                     const btScalar* surface_m, std::size_t count, WaterVelocity* out) {
  const std::span<const double> depths = patch.velocityDepths_m();
  // A WaterVelocity is three btScalars (east, north, up): the kernel gathers them.
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(btScalar));
  const PatchVelocityView view{reinterpret_cast<const btScalar*>(patch.nodeVelocities().data()),
                               depths.data(),
                               depths.size(),
                               double(patch.samplesPerSide()),
                               1.0 / double(patch.cellSize_m()),
                               double(patch.originI()),
                               double(patch.originJ())};
  HWY_DYNAMIC_DISPATCH(PatchVelocitiesKernel)(view, u_m, v_m, w_m, surface_m, count, out);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
