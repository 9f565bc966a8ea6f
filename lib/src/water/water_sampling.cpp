// Water heights under a hull: the world-snapped patch and direct sampling
// (docs/model.md §1, "Water sampling").

#include <keel/water_sampling.hpp>

#include "kernels/heights.hpp"

#include "water/cell_interpolation.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {

std::size_t replaceNonFinite(std::span<btScalar> values) {
  // The common case, every value finite, costs one branch-free pass (a
  // vectorised |x| <= max compare and count).
  unsigned notFinite = 0;
  for (btScalar v : values) notFinite += std::abs(v) <= std::numeric_limits<btScalar>::max() ? 0u : 1u;
  if (notFinite == 0) return 0;
  double sum = 0;
  std::size_t finite = 0;
  for (btScalar v : values)
    if (std::isfinite(v)) {
      sum += double(v);
      ++finite;
    }
  const btScalar mean = finite > 0 ? btScalar(sum / double(finite)) : btScalar(0);
  for (btScalar& v : values)
    if (!std::isfinite(v)) v = mean;
  return values.size() - finite;
}

void WaterPatch::configure(btScalar cellSize_m, btScalar hullRadius_m) {
  if (!(cellSize_m > 0) || !std::isfinite(cellSize_m))
    throw std::invalid_argument("keel::WaterPatch: cell size must be positive and finite, got " +
                                std::to_string(cellSize_m));
  if (!(hullRadius_m >= 0) || !std::isfinite(hullRadius_m))
    throw std::invalid_argument("keel::WaterPatch: hull radius must be >= 0 and finite, got " +
                                std::to_string(hullRadius_m));
  // The footprint [c - R, c + R] starts anywhere inside a cell, so it spans at
  // most floor(2R / cell) + 2 cells, i.e. that + 1 nodes per side.
  const double nodes = std::floor(2.0 * double(hullRadius_m) / double(cellSize_m)) + 3.0;
  if (nodes * nodes > 4194304.0)
    throw std::invalid_argument("keel::WaterPatch: " + std::to_string(nodes) + " samples per side for cell " +
                                std::to_string(cellSize_m) + " m and hull radius " + std::to_string(hullRadius_m) +
                                " m; use larger cells");
  cell_m_ = cellSize_m;
  inverseCell_pm_ = 1.0 / double(cellSize_m);  // a multiplication per vertex, not a division
  radius_m_ = hullRadius_m;
  side_ = int(nodes);
  // The samples are sized at the first sample (place), the query order's
  // coordinates at the first that needs them (sampleHeights): a patch
  // configured and then replaced (a boat given another level of detail)
  // never allocates them.
  u_.clear();
  v_.clear();
  queried_.clear();
  h_.clear();
  depths_m_[0] = 0;
  for (std::size_t m = 1; m < depths_m_.size(); ++m)
    depths_m_[m] = 2.0 * double(hullRadius_m) / double(1 << (depths_m_.size() - 1 - m));
  velocity_.clear();  // sized at the first sampleWithVelocities()
  hasVelocities_ = false;
  hasSurfaceVelocities_ = false;
}

std::size_t WaterPatch::sampleWithVelocities(const WaterSurface& surface, double centreU_m, double centreV_m,
                                             double t_s, btScalar deepest_m) {
  place(centreU_m, centreV_m);
  hasSurfaceVelocities_ = false;
  // The depths down to the first at or below deepest_m (all when it is NaN):
  // each level is a sum of its own, so the kept ones are the same bits.
  levels_ = 2;
  while (levels_ < depths_m_.size() && !(double(deepest_m) <= depths_m_[levels_ - 1])) ++levels_;
  // Allocates at the first call only, for every depth, and one velocity
  // more: the SIMD interpolation loads eight floats from a node's level,
  // two past the next level's three.
  velocity_.resize(h_.size() * depths_m_.size() + 1);
  hasVelocities_ = surface.gridHeightsAndVelocities(
      placedGrid(), {.depths_m = velocityDepths_m(), .out = velocity_.data(), .history = &history_}, t_s, h_.data());
  if (hasVelocities_) return replaceNonFinite(h_);
  return sampleHeights(surface, t_s);
}

std::size_t WaterPatch::sampleWithSurfaceVelocities(const WaterSurface& surface, double centreU_m, double centreV_m,
                                                    double t_s) {
  place(centreU_m, centreV_m);
  hasVelocities_ = false;
  surfaceVelocity_.resize(h_.size());  // allocates at the first call only
  static constexpr double kSurface_m[1] = {0};
  hasSurfaceVelocities_ = surface.gridHeightsAndVelocities(
      placedGrid(), {.depths_m = kSurface_m, .out = surfaceVelocity_.data(), .history = &history_}, t_s, h_.data());
  if (hasSurfaceVelocities_) return replaceNonFinite(h_);
  return sampleHeights(surface, t_s);
}

WaterGrid WaterPatch::placedGrid() const {
  return {.cellSize_m = double(cell_m_), .originI = i0_, .originJ = j0_, .nodesU = side_, .nodesV = side_};
}

WaterVelocity WaterPatch::surfaceVelocity(double u_m, double v_m) const {
  assert(hasSurfaceVelocities_);
  const Cell c = locate(u_m, v_m);
  const std::size_t k = c.k00, side = std::size_t(side_);
  const WaterVelocity* n = surfaceVelocity_.data();
  // Each component as the heights are interpolated (one home for the weights).
  const auto at = [&](btScalar WaterVelocity::*component) {
    return btScalar(detail::cellHeight(n[k].*component, n[k + 1].*component, n[k + side].*component,
                                       n[k + side + 1].*component, c.a, c.b));
  };
  return {at(&WaterVelocity::east_mps), at(&WaterVelocity::north_mps), at(&WaterVelocity::up_mps)};
}

WaterPatch::Cell WaterPatch::locate(double u_m, double v_m) const {
  assert(side_ > 1);
  const double fu = std::clamp(u_m * inverseCell_pm_ - double(i0_), 0.0, double(side_ - 1));
  const double fv = std::clamp(v_m * inverseCell_pm_ - double(j0_), 0.0, double(side_ - 1));
  const int i = std::min(int(fu), side_ - 2), j = std::min(int(fv), side_ - 2);
  return {std::size_t(j) * std::size_t(side_) + std::size_t(i), fu - i, fv - j};
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

void WaterPatch::place(double centreU_m, double centreV_m) {
  assert(side_ > 0);
  const double reach = reach_m() - double(radius_m_);
  if (!(std::abs(centreU_m) < reach && std::abs(centreV_m) < reach))
    throw std::out_of_range("keel::WaterPatch: the point (" + std::to_string(centreU_m) + ", " +
                            std::to_string(centreV_m) + ") m is beyond the patch grid's reach of " +
                            std::to_string(reach) + " m from the origin");
  const double cell = double(cell_m_);
  i0_ = std::int64_t(std::floor((centreU_m - double(radius_m_)) / cell));
  j0_ = std::int64_t(std::floor((centreV_m - double(radius_m_)) / cell));
  h_.resize(std::size_t(side_) * std::size_t(side_));  // allocates at the first sample only
}

std::size_t WaterPatch::sample(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s) {
  place(centreU_m, centreV_m);
  hasVelocities_ = false;
  hasSurfaceVelocities_ = false;
  return sampleHeights(surface, t_s);
}

std::size_t WaterPatch::sampleHeights(const WaterSurface& surface, double t_s) {
  // A surface that answers a world-snapped grid faster than its points
  // (a sum of waves: docs/waves.md, "Grids") is asked for the grid.
  const WaterGrid grid = placedGrid();
  if (surface.gridHeights(grid, t_s, h_.data())) return replaceNonFinite(h_);
  // Or for the grid with no velocities, where it keeps a history (a
  // Gerstner sea's solves start from the last sample's).
  if (surface.gridHeightsAndVelocities(grid, {.depths_m = {}, .out = nullptr, .history = &history_}, t_s, h_.data()))
    return replaceNonFinite(h_);
  // Otherwise nodes are queried row by row in alternating directions, so
  // each one neighbours the one before: a user's surface that starts from
  // the previous point's solution converges faster. (Keel's own surfaces
  // solve every point alone: docs/waves.md, "Batches: SIMD across points".)
  if (queried_.size() != h_.size()) {  // the first such sample
    u_.resize(h_.size());
    v_.resize(h_.size());
    queried_.resize(h_.size());
  }
  std::size_t q = 0;
  for (int j = 0; j < side_; ++j)
    for (int step = 0; step < side_; ++step, ++q) {
      const int i = j % 2 == 0 ? step : side_ - 1 - step;
      // World multiples of the cell size: the same world point is sampled
      // whatever the boat's position, so the water does not swim.
      u_[q] = grid.u_m(i);
      v_[q] = grid.v_m(j);
    }
  surface.heights(u_.data(), v_.data(), queried_.size(), t_s, queried_.data());
  q = 0;
  for (int j = 0; j < side_; ++j)
    for (int step = 0; step < side_; ++step, ++q) {
      const int i = j % 2 == 0 ? step : side_ - 1 - step;
      h_[std::size_t(j) * std::size_t(side_) + std::size_t(i)] = queried_[q];
    }
  return replaceNonFinite(h_);
}

btScalar WaterPatch::height(double u_m, double v_m) const {
  const Cell c = locate(u_m, v_m);
  const std::size_t k = c.k00, side = std::size_t(side_);
  return btScalar(detail::cellHeight(h_[k], h_[k + 1], h_[k + side], h_[k + side + 1], c.a, c.b));
}

}  // namespace keel::KEEL_ABI
