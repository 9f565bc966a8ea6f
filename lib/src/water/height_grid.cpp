// keel::HeightGridSurface: heights on a regular grid, interpolated in space
// as keel::WaterPatch does and linearly in time between two snapshots
// (docs/integration.md, "An ocean that changes every frame").

#include <keel/height_grid.hpp>

#include "water/cell_interpolation.hpp"
#include "water/query_costs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

/// Memory [GiB] of the grid's three buffers of `nodes` heights.
double bufferGiB(std::int64_t nodes) { return 3.0 * double(nodes) * double(sizeof(btScalar)) / double(1u << 30); }

std::string figure(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

const HeightGridLayout& checked(const HeightGridLayout& layout) {
  const auto fail = [](const std::string& what) { throw std::invalid_argument("keel::HeightGridSurface: " + what); };
  if (!std::isfinite(layout.originEast_m) || !std::isfinite(layout.originNorth_m)) fail("the origin is not finite");
  if (!(layout.cellSize_m > 0) || !std::isfinite(layout.cellSize_m))
    fail("cell size must be positive and finite, got " + std::to_string(layout.cellSize_m) + " m");
  if (layout.edges != GridEdges::Clamp && layout.edges != GridEdges::Periodic)
    fail("edges is GridEdges(" + std::to_string(static_cast<int>(layout.edges)) +
         "): it must be GridEdges::Clamp or GridEdges::Periodic");
  for (const auto& [name, nodes] :
       {std::pair{"nodesEast", layout.nodesEast}, std::pair{"nodesNorth", layout.nodesNorth}})
    if (nodes < 2 || nodes > kMaxGridNodesPerSide)
      fail(std::string(name) + " is " + std::to_string(nodes) + ": nodes per axis must be 2 to " +
           std::to_string(kMaxGridNodesPerSide));
  const std::int64_t nodes = std::int64_t(layout.nodesEast) * std::int64_t(layout.nodesNorth);
  if (nodes > kMaxGridNodes)
    fail("nodesEast x nodesNorth is " + std::to_string(layout.nodesEast) + " x " + std::to_string(layout.nodesNorth) +
         " = " + std::to_string(nodes) + " nodes, whose three buffers would take " + figure(bufferGiB(nodes)) +
         " GiB; at most " + std::to_string(kMaxGridNodes) + " nodes (" + figure(bufferGiB(kMaxGridNodes)) + " GiB)");
  return layout;
}

void checkTime(double time_s) {
  if (!std::isfinite(time_s))
    throw std::invalid_argument("keel::HeightGridSurface: snapshot time_s is " + std::to_string(time_s) +
                                ": a snapshot's time must be finite [s on the water clock]");
}

/// The largest |newest - older| over the nodes [m], NaN and infinite
/// differences left out (the boats report non-finite heights themselves).
/// Kept per lane of kLanes nodes, so that the compiler vectorises the pass
/// (keel_bench_waves, heightGridPublish).
double largestChange_m(std::span<const btScalar> older, std::span<const btScalar> newest) {
  constexpr std::size_t kLanes = 16;
  constexpr btScalar kInfinity = std::numeric_limits<btScalar>::infinity();
  btScalar lane[kLanes] = {};
  const auto keep = [&](std::size_t l, std::size_t k) {
    const btScalar d = std::abs(newest[k] - older[k]);
    lane[l] = d > lane[l] && d < kInfinity ? d : lane[l];
  };
  const std::size_t n = newest.size(), whole = n - n % kLanes;
  for (std::size_t k = 0; k < whole; k += kLanes)
    for (std::size_t l = 0; l < kLanes; ++l) keep(l, k + l);
  for (std::size_t k = whole; k < n; ++k) keep(0, k);
  return double(*std::max_element(lane, lane + kLanes));
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
  checkTime(time_s);
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
  // What the pair implies for the velocity: a rise faster than any sea's
  // (kMaxSurfaceRiseRate_mps) means the stamps, not the water, are wrong.
  // Written so that an interval too short for its inverse (infinite) or a
  // change of 0 over it (NaN) counts as implausible, never as a rate.
  riseRate_mps_ = haveOlder_ ? largestChange_m(buffers_[older_], buffers_[newest_]) * inverseSpan_ps_ : 0.0;
  implausibleRise_ = haveOlder_ && !(riseRate_mps_ <= kMaxSurfaceRiseRate_mps);
  if (implausibleRise_) ++implausibleRises_;
  inverseRateSpan_ps_ = implausibleRise_ ? 0.0 : inverseSpan_ps_;
}

void HeightGridSurface::setHeights(std::span<const btScalar> heights_m, double time_s) {
  std::vector<btScalar>& back = buffers_[back_];
  if (heights_m.size() != back.size())
    throw std::invalid_argument("keel::HeightGridSurface: " + std::to_string(heights_m.size()) +
                                " heights given for a grid of " + std::to_string(back.size()) + " nodes");
  checkTime(time_s);
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
  if (inverseRateSpan_ps_ == 0) return 0.0;
  const Cell c = cellAt(u_m, v_m);
  const std::vector<btScalar>& older = buffers_[older_];
  const std::vector<btScalar>& newest = buffers_[newest_];
  const auto rate = [&](std::size_t k) { return (double(newest[k]) - double(older[k])) * inverseRateSpan_ps_; };
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
