// A boat's water patch configured for its hull and sampled on the
// world-snapped grid (docs/model.md §1, "Water sampling").

#include "water/patch_sampler.hpp"

#include "kernels/heights.hpp"
#include "water/grid_points.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

/// (1 - s) x + s y over `count` floats, weights `wa` and `wb`; `copy` (s =
/// 0) takes x's bits whatever y holds (a NaN times 0 is NaN). In vectors
/// (patchMix), the same bits as a node's few floats in mixNodes.
inline void mix(const btScalar* x, const btScalar* y, std::size_t count, btScalar wa, btScalar wb, bool copy,
                btScalar* out) {
  if (copy)
    std::copy_n(x, count, out);
  else
    patchMix(x, y, count, wa, wb, out);
}

/// mix() of `nodes` nodes' velocities at `Levels` depths, from samples
/// holding `strideX` and `strideY` floats a node (a sample may hold deeper
/// levels than those asked). `Levels` fixed, a node's floats are a loop the
/// compiler unrolls.
template <std::size_t Levels>
void mixNodes(const btScalar* x, std::size_t strideX, const btScalar* y, std::size_t strideY, std::size_t nodes,
              btScalar wa, btScalar wb, bool copy, btScalar* out) {
  for (std::size_t node = 0; node < nodes; ++node, x += strideX, y += strideY, out += 3 * Levels) {
    if (copy)
      std::copy_n(x, 3 * Levels, out);
    else
      for (std::size_t i = 0; i < 3 * Levels; ++i) out[i] = wa * x[i] + wb * y[i];
  }
}

using MixNodes = void (*)(const btScalar*, std::size_t, const btScalar*, std::size_t, std::size_t, btScalar, btScalar,
                          bool, btScalar*);
template <std::size_t... Levels>
constexpr std::array<MixNodes, sizeof...(Levels)> mixNodesTable(std::index_sequence<Levels...> /*levels*/) {
  return {&mixNodes<Levels>...};
}
constexpr auto kMixNodes = mixNodesTable(std::make_index_sequence<WaterPatch::kVelocityLevels + 1>{});

/// place()'s refusal, out of line: the message's strings would otherwise
/// make place() keep a frame of its own at every sample.
[[noreturn, gnu::cold, gnu::noinline]] void refuseReach(double centreU_m, double centreV_m, double reach_m) {
  throw std::out_of_range("keel::WaterPatch: the point (" + std::to_string(centreU_m) + ", " +
                          std::to_string(centreV_m) + ") m is beyond the patch grid's reach of " +
                          std::to_string(reach_m) + " m from the origin");
}

/// A sample's allocation, at the first sample only: out of line, as
/// place()'s refusal is, so that the samples after it keep no frame for it.
template <typename T>
[[gnu::cold, gnu::noinline]] void resizeSamples(std::vector<T>& values, std::size_t count) {
  values.resize(count);
}

}  // namespace

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

double patchTimePeriod_s(btScalar dt_s, int substeps) {
  const double span = double(dt_s) * double(substeps);
  if (substeps <= 1 || !(span > 0) || !std::isfinite(span)) return 0;
  int exponent = 0;
  (void)std::frexp(span, &exponent);  // span = m 2^exponent, m in [0.5, 1)
  return std::ldexp(1.0, exponent - 1);
}

void PatchSampler::configure(btScalar cellSize_m, btScalar hullRadius_m) {
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
  kept_.forget();  // samples of another grid
  levelsAsked_ = levelsAskedBefore_ = 0;
}

GridWindow PatchSampler::nodesUnder(const Footprint& under, double slack) const {
  const auto nodes = [&](double lo_m, double hi_m, std::int64_t origin) {
    const double first = std::floor(lo_m * inverseCell_pm_ - slack) - double(origin);
    const double last = std::floor(hi_m * inverseCell_pm_ + slack) - double(origin) + 1;  // the last cell's far node
    if (!(first <= last)) return std::pair{0, side_};                                     // NaN: every node
    const double from = std::clamp(first, 0.0, double(side_)), to = std::clamp(last + 1, 0.0, double(side_));
    return std::pair{int(from), int(to) - int(from)};
  };
  const auto [firstU, nodesU] = nodes(under.uLo_m, under.uHi_m, i0_);
  const auto [firstV, nodesV] = nodes(under.vLo_m, under.vHi_m, j0_);
  return {.firstU = firstU, .firstV = firstV, .nodesU = nodesU, .nodesV = nodesV};
}

std::size_t PatchSampler::sampleWithVelocities(const WaterSurface& surface, double centreU_m, double centreV_m,
                                               double t_s, btScalar deepest_m, const Footprint* under,
                                               double period_s) {
  place(centreU_m, centreV_m);
  // A point's cell is found in btScalar relative to the patch
  // (detail::patchHeights), which errs by far less than a hundredth of a
  // cell: a bound that close to a node line takes the cell beyond it too.
  velocityNodes_ = under != nullptr ? nodesUnder(*under, 0.01) : GridWindow{.nodesU = side_, .nodesV = side_};
  // A sample kept in time serves the next substeps too, whose hull has
  // moved on: its nodes reach a quarter of a cell farther, so that a hull
  // whose edge lies near a node line does not ask for its nodes afresh.
  keptNodes_ = under != nullptr ? nodesUnder(*under, 0.25) : velocityNodes_;
  hasSurfaceVelocities_ = false;
  // The depths down to the first at or below deepest_m (all when it is NaN):
  // each level is a sum of its own, so the kept ones are the same bits.
  levels_ = 2;
  while (levels_ < depths_m_.size() && !(double(deepest_m) <= depths_m_[levels_ - 1])) ++levels_;
  levelsAsked_ = std::max(levelsAsked_, levels_);
  std::size_t nonFinite = 0;
  if (inTime(surface, t_s, period_s, true, nonFinite)) return nonFinite;
  return query(surface, t_s, true, velocityNodes_, levels_);
}

std::size_t PatchSampler::query(const WaterSurface& surface, double t_s, bool velocities, const GridWindow& nodes,
                                std::size_t levels) {
  h_.resize(std::size_t(side_) * std::size_t(side_));  // after a kept sample took the buffer (keep)
  if (!velocities) {
    hasVelocities_ = false;
    return sampleHeights(surface, t_s);
  }
  // Allocates at the first call only, for every depth, and one velocity
  // more: the SIMD interpolation loads eight floats from a node's level,
  // two past the next level's three.
  velocity_.resize(h_.size() * depths_m_.size() + 1);
  hasVelocities_ = surface.gridHeightsAndVelocities(
      placedGrid(),
      {.depths_m = {depths_m_.data(), levels}, .out = velocity_.data(), .history = &history_, .window = nodes}, t_s,
      h_.data());
  if (hasVelocities_) return replaceNonFinite(h_);
  return sampleHeights(surface, t_s);
}

bool PatchSampler::inTime(const WaterSurface& surface, double t_s, double period_s, bool velocities,
                          std::size_t& nonFinite) {
  if (!(period_s > 0)) return false;
  // The lattice times around t_s, k T <= t_s < (k + 1) T, each the same
  // double whatever asks for it (k T is exact for a power of two T).
  double k = std::floor(t_s / period_s);
  if (k * period_s > t_s) k -= 1;           // the division rounded up
  if (!(t_s < (k + 1) * period_s)) k += 1;  // or down
  const double t0 = k * period_s, t1 = (k + 1) * period_s;
  if (!(t0 <= t_s && t_s < t1)) return false;  // NaN, or a clock past the lattice's resolution in double
  const bool onLattice = t_s == t0;
  if (!surface.settledBetween(t0, onLattice ? t0 : t1)) return false;
  // Each lattice sample is queried once while it serves: a substep between
  // two needs at most the later one, after the first.
  const TimeSample* kept1 = nullptr;
  if (!onLattice)
    for (const TimeSample& slot : kept_.slots())
      if (serves(slot, surface, t1, velocities)) kept1 = &slot;
  const TimeSample& a = keep(surface, t0, velocities, kept1);
  const TimeSample& b = onLattice ? a : keep(surface, t1, velocities, &a);
  blend(a, b, onLattice ? 0.0 : (t_s - t0) / period_s);
  nonFinite = std::max(a.nonFinite, b.nonFinite);
  return true;
}

bool PatchSampler::serves(const TimeSample& kept, const WaterSurface& surface, double t_s, bool velocities) const {
  if (kept.surface != &surface || kept.t_s != t_s || kept.i0 != i0_ || kept.j0 != j0_ ||
      kept.velocitiesAsked != velocities)
    return false;
  if (!velocities || !kept.hasVelocities) return true;  // the heights are every node's
  // Its depths and nodes hold those asked for: each is the same bits
  // whatever else was asked with it (sampleWithVelocities).
  const GridWindow& w = kept.window;
  const GridWindow& n = velocityNodes_;
  const auto within = [](std::int64_t first, std::int64_t count, std::int64_t keptFirst, std::int64_t keptCount) {
    return count <= 0 || (first >= keptFirst && first + count <= keptFirst + keptCount);
  };
  return kept.levels >= levels_ && within(n.firstU, n.nodesU, w.firstU, w.nodesU) &&
         within(n.firstV, n.nodesV, w.firstV, w.nodesV);
}

PatchSampler::TimeSample& PatchSampler::keep(const WaterSurface& surface, double t_s, bool velocities,
                                             const TimeSample* other) {
  std::array<TimeSample, 2>& slots = kept_.slots();
  for (TimeSample& slot : slots)
    if (serves(slot, surface, t_s, velocities)) return slot;
  TimeSample& slot = &slots[0] == other ? slots[1] : slots[0];
  slot.surface = nullptr;  // holds nothing should the surface throw
  // The nodes a little beyond the hull's (sampleWithVelocities), and the
  // most depths asked over the last two samples' lives: a hull's depth
  // asks for a level more or fewer now and then, and a sample that holds
  // them serves the substeps of its own life with no query afresh. Each
  // level is the same bits whatever else is asked with it.
  const std::size_t levels = velocities ? std::max({levels_, levelsAsked_, levelsAskedBefore_}) : levels_;
  const std::size_t nonFinite = query(surface, t_s, velocities, keptNodes_, levels);
  slot.levels = levels;
  levelsAskedBefore_ = levelsAsked_;
  levelsAsked_ = levels_;
  // The query's buffers become the slot's, and the slot's the next query's:
  // no copy, and no allocation once each has been sized.
  std::swap(slot.h, h_);
  std::swap(slot.velocity, velocity_);
  slot.t_s = t_s;
  slot.i0 = i0_;
  slot.j0 = j0_;
  slot.velocitiesAsked = velocities;
  slot.hasVelocities = hasVelocities_;
  slot.window = keptNodes_;
  slot.nonFinite = nonFinite;
  slot.surface = &surface;
  return slot;
}

void PatchSampler::blend(const TimeSample& a, const TimeSample& b, double fraction) {
  // (1 - s) a + s b: a's bits at s = 0, b's at 1. Linear interpolation errs
  // by at most T^2 / 8 max |f''|, (omega T)^2 / 8 of a wave's amplitude
  // (docs/model.md, "Water sampling"). At s = 0, a's bits whatever b holds
  // (a NaN velocity times 0 is NaN).
  const auto wa = btScalar(1.0 - fraction), wb = btScalar(fraction);
  const bool copy = fraction == 0;
  h_.resize(a.h.size());  // allocates at the first blend only
  mix(a.h.data(), b.h.data(), h_.size(), wa, wb, copy, h_.data());
  hasVelocities_ = a.hasVelocities && b.hasVelocities;
  if (!hasVelocities_) return;
  velocity_.resize(h_.size() * depths_m_.size() + 1);
  // A node's velocities are its levels' three components in a row, and the
  // nodes follow one another: one run of floats from the window's first
  // node to its last when both samples hold the depths asked for alone
  // (the nodes between its rows mixed too, each node's floats a mix of
  // their own: the window's the same bits), else a node's levels asked for
  // from each (a sample kept deeper holds more a node).
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(btScalar));
  const auto floats = [](const std::vector<WaterVelocity>& v) { return reinterpret_cast<const btScalar*>(v.data()); };
  btScalar* out = reinterpret_cast<btScalar*>(velocity_.data());
  const GridWindow& w = velocityNodes_;
  if (w.nodesU <= 0 || w.nodesV <= 0) return;
  const std::size_t perNode = 3 * levels_, strideA = 3 * a.levels, strideB = 3 * b.levels;
  const auto nodeAt = [&](int i, int j) { return std::size_t(j) * std::size_t(side_) + std::size_t(i); };
  if (strideA == perNode && strideB == perNode) {
    const std::size_t first = nodeAt(w.firstU, w.firstV), end = nodeAt(w.firstU + w.nodesU, w.firstV + w.nodesV - 1);
    mix(floats(a.velocity) + first * perNode, floats(b.velocity) + first * perNode, (end - first) * perNode, wa, wb,
        copy, out + first * perNode);
    return;
  }
  for (int j = w.firstV; j < w.firstV + w.nodesV; ++j) {
    const std::size_t first = nodeAt(w.firstU, j);
    kMixNodes[levels_](floats(a.velocity) + first * strideA, strideA, floats(b.velocity) + first * strideB, strideB,
                       std::size_t(w.nodesU), wa, wb, copy, out + first * perNode);
  }
}

std::size_t PatchSampler::sampleWithSurfaceVelocities(const WaterSurface& surface, double centreU_m, double centreV_m,
                                                      double t_s) {
  place(centreU_m, centreV_m);
  hasVelocities_ = false;
  if (surfaceVelocity_.size() != h_.size()) resizeSamples(surfaceVelocity_, h_.size());
  // The velocities of the cell under the centre alone: a boat's one water
  // velocity is interpolated there (WaterPatch::surfaceVelocity), and a
  // surface that computes each node's velocity on its own (the spectral
  // ocean blends the tile nodes under the nodes it is asked for) then does
  // a quarter of a far boat's 4 x 4 nodes.
  const Cell cell = locate(centreU_m, centreV_m);
  surfaceCellU_ = cell.i;
  surfaceCellV_ = cell.j;
  static constexpr double kSurface_m[1] = {0};
  hasSurfaceVelocities_ = surface.gridHeightsAndVelocities(placedGrid(),
                                                           {.depths_m = kSurface_m,
                                                            .out = surfaceVelocity_.data(),
                                                            .history = &history_,
                                                            .window = {surfaceCellU_, surfaceCellV_, 2, 2}},
                                                           t_s, h_.data());
  if (hasSurfaceVelocities_) return replaceNonFinite(h_);
  return sampleHeights(surface, t_s);
}

void PatchSampler::place(double centreU_m, double centreV_m) {
  assert(side_ > 0);
  const double reach = reach_m() - double(radius_m_);
  if (!(std::abs(centreU_m) < reach && std::abs(centreV_m) < reach)) refuseReach(centreU_m, centreV_m, reach);
  const double cell = double(cell_m_);
  i0_ = std::int64_t(std::floor((centreU_m - double(radius_m_)) / cell));
  j0_ = std::int64_t(std::floor((centreV_m - double(radius_m_)) / cell));
  const std::size_t samples = std::size_t(side_) * std::size_t(side_);
  if (h_.size() != samples) resizeSamples(h_, samples);
}

std::size_t PatchSampler::sample(const WaterSurface& surface, double centreU_m, double centreV_m, double t_s,
                                 double period_s) {
  place(centreU_m, centreV_m);
  hasVelocities_ = false;
  hasSurfaceVelocities_ = false;
  std::size_t nonFinite = 0;
  if (inTime(surface, t_s, period_s, false, nonFinite)) return nonFinite;
  return sampleHeights(surface, t_s);
}

std::size_t PatchSampler::sampleHeights(const WaterSurface& surface, double t_s) {
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
  // The nodes are world multiples of the cell size: the same world point
  // is sampled whatever the boat's position, so the water does not swim.
  if (queried_.size() != h_.size()) {  // the first such sample
    u_.resize(h_.size());
    v_.resize(h_.size());
    queried_.resize(h_.size());
  }
  gridNodePoints(grid, NodeOrder::Serpentine, u_.data(), v_.data());
  surface.heights(u_.data(), v_.data(), queried_.size(), t_s, queried_.data());
  for (int j = 0; j < side_; ++j)
    for (int i = 0; i < side_; ++i)
      h_[std::size_t(j) * std::size_t(side_) + std::size_t(i)] = queried_[nodePlace(grid, i, j, NodeOrder::Serpentine)];
  return replaceNonFinite(h_);
}

}  // namespace keel::KEEL_ABI::detail
