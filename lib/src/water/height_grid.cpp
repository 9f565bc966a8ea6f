// keel::HeightGridSurface: heights on a regular grid, interpolated in space
// as keel::WaterPatch does and linearly in time between two snapshots
// (docs/integration.md, "An ocean that changes every frame").

#include <keel/height_grid.hpp>

#include "water/cell_interpolation.hpp"
#include "water/query_costs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace {

constexpr int kMaxNodesPerSide = 65536;

const HeightGridLayout& checked(const HeightGridLayout& layout) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("keel::HeightGridSurface: " + what); };
  if (!std::isfinite(layout.originEast_m) || !std::isfinite(layout.originNorth_m)) fail("the origin is not finite");
  if (!(layout.cellSize_m > 0) || !std::isfinite(layout.cellSize_m))
    fail("cell size must be positive and finite, got " + std::to_string(layout.cellSize_m) + " m");
  for (int nodes : {layout.nodesEast, layout.nodesNorth})
    if (nodes < 2 || nodes > kMaxNodesPerSide)
      fail("nodes per axis must be 2 to " + std::to_string(kMaxNodesPerSide) + ", got " + std::to_string(nodes));
  return layout;
}

/// Node index and fraction along one axis for the grid coordinate `f`
/// (position over the cell size, 0 at node 0) on `nodes` nodes.
struct AxisCell {
  int i0, i1;  // the cell's two nodes
  double a;    // fraction from i0 towards i1, in [0, 1]
};

AxisCell axisCell(double f, int nodes, GridEdges edges) {
  const bool periodic = edges == GridEdges::Periodic;
  if (periodic) f -= double(nodes) * std::floor(f / double(nodes));  // into [0, nodes]; infinity gives NaN
  if (std::isnan(f)) return {0, 1, f};                               // a NaN position gives a NaN height
  if (periodic) {
    f = std::clamp(f, 0.0, double(nodes));  // rounding far from the origin may step just outside
    const int i = std::min(int(f), nodes - 1);
    return {i, i + 1 == nodes ? 0 : i + 1, std::min(f - double(i), 1.0)};
  }
  f = std::clamp(f, 0.0, double(nodes - 1));
  const int i = std::min(int(f), nodes - 2);
  return {i, i + 1, f - double(i)};
}

}  // namespace

HeightGridSurface::HeightGridSurface(const HeightGridLayout& layout, double height_m)
    : layout_(checked(layout)), inverseCell_pm_(1.0 / layout.cellSize_m) {
  if (!std::isfinite(height_m))
    throw std::invalid_argument("keel::HeightGridSurface: the initial height is not finite");
  const std::size_t count = std::size_t(layout_.nodesEast) * std::size_t(layout_.nodesNorth);
  for (auto& buffer : buffers_) buffer.assign(count, btScalar(height_m));
}

void HeightGridSurface::publish(double time_s) {
  if (!std::isfinite(time_s)) throw std::invalid_argument("keel::HeightGridSurface: snapshot time is not finite");
  // Rotate the three buffers: the newest becomes the older, the back buffer
  // the newest, and the old older one is free to be written next.
  haveOlder_ = published_ && time_s > newestTime_s_;
  const std::size_t freed = older_;
  older_ = newest_;
  newest_ = back_;
  back_ = freed;
  olderTime_s_ = newestTime_s_;
  newestTime_s_ = time_s;
  inverseSpan_ps_ = haveOlder_ ? 1.0 / (newestTime_s_ - olderTime_s_) : 0.0;
  published_ = true;
}

void HeightGridSurface::setHeights(std::span<const btScalar> heights_m, double time_s) {
  std::vector<btScalar>& back = buffers_[back_];
  if (heights_m.size() != back.size())
    throw std::invalid_argument("keel::HeightGridSurface: " + std::to_string(heights_m.size()) +
                                " heights given for a grid of " + std::to_string(back.size()) + " nodes");
  if (!std::isfinite(time_s)) throw std::invalid_argument("keel::HeightGridSurface: snapshot time is not finite");
  std::copy(heights_m.begin(), heights_m.end(), back.begin());
  publish(time_s);
}

HeightGridSurface::Cell HeightGridSurface::cellAt(double u_m, double v_m) const {
  const AxisCell x = axisCell((u_m - layout_.originEast_m) * inverseCell_pm_, layout_.nodesEast, layout_.edges);
  const AxisCell y = axisCell((v_m - layout_.originNorth_m) * inverseCell_pm_, layout_.nodesNorth, layout_.edges);
  const auto nx = std::size_t(layout_.nodesEast);
  const std::size_t row0 = std::size_t(y.i0) * nx, row1 = std::size_t(y.i1) * nx;
  return {
      row0 + std::size_t(x.i0), row0 + std::size_t(x.i1), row1 + std::size_t(x.i0), row1 + std::size_t(x.i1), x.a, y.a};
}

double HeightGridSurface::heightAt(double u_m, double v_m, double t_s) const {
  const Cell c = cellAt(u_m, v_m);
  const std::vector<btScalar>& newest = buffers_[newest_];
  // Exactly a snapshot at and beyond its time: no rounding of a blend.
  const double s = haveOlder_ ? (t_s - olderTime_s_) * inverseSpan_ps_ : 1.0;
  if (!(s < 1.0)) return detail::cellHeight(newest[c.k00], newest[c.k10], newest[c.k01], newest[c.k11], c.a, c.b);
  const std::vector<btScalar>& older = buffers_[older_];
  if (!(s > 0.0)) return detail::cellHeight(older[c.k00], older[c.k10], older[c.k01], older[c.k11], c.a, c.b);
  const auto blend = [&](std::size_t k) { return double(older[k]) + s * (double(newest[k]) - double(older[k])); };
  return detail::cellHeight(blend(c.k00), blend(c.k10), blend(c.k01), blend(c.k11), c.a, c.b);
}

double HeightGridSurface::riseRateAt(double u_m, double v_m) const {
  if (!haveOlder_) return 0.0;
  const Cell c = cellAt(u_m, v_m);
  const std::vector<btScalar>& older = buffers_[older_];
  const std::vector<btScalar>& newest = buffers_[newest_];
  const auto rate = [&](std::size_t k) { return (double(newest[k]) - double(older[k])) * inverseSpan_ps_; };
  return detail::cellHeight(rate(c.k00), rate(c.k10), rate(c.k01), rate(c.k11), c.a, c.b);
}

btScalar HeightGridSurface::height(btScalar u_m, btScalar v_m, double t_s) const {
  return btScalar(heightAt(double(u_m), double(v_m), t_s));
}

void HeightGridSurface::heights(const btScalar* u_m, const btScalar* v_m, std::size_t count, double t_s,
                                btScalar* out_m) const {
  for (std::size_t i = 0; i < count; ++i) out_m[i] = btScalar(heightAt(double(u_m[i]), double(v_m[i]), t_s));
}

WaterVelocity HeightGridSurface::velocity(btScalar u_m, btScalar v_m, btScalar, double) const {
  return {0, 0, btScalar(riseRateAt(double(u_m), double(v_m)))};
}

void HeightGridSurface::velocities(const btScalar* u_m, const btScalar* v_m, const btScalar*, std::size_t count, double,
                                   WaterVelocity* out) const {
  for (std::size_t i = 0; i < count; ++i) out[i] = {0, 0, btScalar(riseRateAt(double(u_m[i]), double(v_m[i])))};
}

QueryCost HeightGridSurface::queryCost() const { return detail::kHeightGrid; }

}  // namespace keel::KEEL_ABI
