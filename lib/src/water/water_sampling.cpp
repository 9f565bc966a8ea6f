// What a user reads of a boat's water patch: its heights and velocities
// interpolated on the cells' triangles (docs/model.md §1, "Water sampling").

#include <keel/water_sampling.hpp>

#include "kernels/heights.hpp"

#include "water/cell_interpolation.hpp"

#include <algorithm>
#include <cassert>

namespace keel::KEEL_ABI {
namespace {

/// A point's place along one axis of a patch [cells from its node 0],
/// clamped to the patch's nodes.
double gridPlace(double x_m, double inverseCell_pm, std::int64_t origin, int side) {
  return std::clamp(x_m * inverseCell_pm - double(origin), 0.0, double(side - 1));
}

}  // namespace

WaterVelocity WaterPatch::surfaceVelocity(double u_m, double v_m) const {
  assert(hasSurfaceVelocities_);
  // The fractions across the surface velocities' cell (the point the
  // sample was placed around lies in it), clamped to it.
  const double a = std::clamp(gridPlace(u_m, inverseCell_pm_, i0_, side_) - surfaceCellU_, 0.0, 1.0);
  const double b = std::clamp(gridPlace(v_m, inverseCell_pm_, j0_, side_) - surfaceCellV_, 0.0, 1.0);
  const std::size_t side = std::size_t(side_);
  const std::size_t k = std::size_t(surfaceCellV_) * side + std::size_t(surfaceCellU_);
  const WaterVelocity* n = surfaceVelocity_.data();
  // Each component as the heights are interpolated (one home for the weights).
  const auto at = [&](btScalar WaterVelocity::*component) {
    return btScalar(detail::cellHeight(n[k].*component, n[k + 1].*component, n[k + side].*component,
                                       n[k + side + 1].*component, a, b));
  };
  return {at(&WaterVelocity::east_mps), at(&WaterVelocity::north_mps), at(&WaterVelocity::up_mps)};
}

WaterPatch::Cell WaterPatch::locate(double u_m, double v_m) const {
  assert(side_ > 1);
  const double fu = gridPlace(u_m, inverseCell_pm_, i0_, side_), fv = gridPlace(v_m, inverseCell_pm_, j0_, side_);
  const int i = std::min(int(fu), side_ - 2), j = std::min(int(fv), side_ - 2);
  return {std::size_t(j) * std::size_t(side_) + std::size_t(i), fu - i, fv - j, i, j};
}

WaterVelocity WaterPatch::velocity(double u_m, double v_m, btScalar w_m, btScalar surface_m) const {
  assert(hasVelocities_);
  const Cell c = locate(u_m, v_m);
  // The rest in btScalar (the velocities' precision; in float, the SIMD
  // kernel then holds twice the points a vector).
  using T = btScalar;
  const T a = T(c.a), b = T(c.b), one = 1;
  // The triangle of the cell holding (a, b) and the weights of its corners,
  // as detail::cellHeight interpolates the heights.
  const std::size_t side = std::size_t(side_);
  const bool lower = a + b <= one;
  const std::size_t corner[3] = {lower ? c.k00 : c.k00 + side + 1, c.k00 + 1, c.k00 + side};
  const T weight[3] = {lower ? one - a - b : a + b - one, lower ? a : one - b, lower ? b : one - a};
  // The depth's level and the fraction towards the next (Wheeler: at the
  // surface above it; held below the deepest level).
  const T depth = std::max(T(0), surface_m - w_m);
  std::size_t m = 0;
  const std::size_t levels = levels_;
  while (m + 2 < levels && depth > T(depths_m_[m + 1])) ++m;
  const T top = T(depths_m_[m]), span_m = T(depths_m_[m + 1]) - top;
  const T f = span_m > 0 ? std::clamp((depth - top) / span_m, T(0), one) : T(0);
  T east = 0, north = 0, up = 0;
  for (int k = 0; k < 3; ++k) {
    const WaterVelocity& upper = velocity_[corner[k] * levels + m];
    const WaterVelocity& lowerLevel = velocity_[corner[k] * levels + m + 1];
    const T w0 = weight[k] * (one - f), w1 = weight[k] * f;
    east += w0 * upper.east_mps + w1 * lowerLevel.east_mps;
    north += w0 * upper.north_mps + w1 * lowerLevel.north_mps;
    up += w0 * upper.up_mps + w1 * lowerLevel.up_mps;
  }
  return {east, north, up};
}

void WaterPatch::velocities(const btScalar* u_m, const btScalar* v_m, const btScalar* w_m, const btScalar* surface_m,
                            std::size_t count, WaterVelocity* out) const {
  assert(hasVelocities_);
  detail::patchVelocities(*this, u_m, v_m, w_m, surface_m, count, out);
}

btScalar WaterPatch::height(double u_m, double v_m) const {
  const Cell c = locate(u_m, v_m);
  const std::size_t k = c.k00, side = std::size_t(side_);
  return btScalar(detail::cellHeight(h_[k], h_[k + 1], h_[k + side], h_[k + side + 1], c.a, c.b));
}

}  // namespace keel::KEEL_ABI
