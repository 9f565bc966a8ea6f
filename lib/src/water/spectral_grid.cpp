// keel::SpectralOcean's grid queries: a world-snapped patch read from the
// fixed-point tiles with separable stencils, each computed once per patch
// column and row, and the tile nodes under the patch blended in time once.
// docs/waves.md, "Spectral ocean".

#include <keel/spectral_ocean.hpp>

#include "water/spectral_detail.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace keel::KEEL_ABI {
namespace {

using detail::Snapshot;

/// One axis of a grid node's stencil: the (unwrapped) tile index of its
/// first tap and the 4 taps' weights, as SpectralOceanState::fixedStencilAt
/// (bilinear: taps 1 and 2).
struct Axis {
  std::int64_t first;
  std::array<double, 4> w;
};

Axis axisAt(double f, bool cubic) {
  const double floor = std::floor(f);
  const double a = f - floor;
  if (!cubic) return {std::int64_t(floor) - 1, {0, 1 - a, a, 0}};
  const double a2 = a * a, a3 = a2 * a;
  return {std::int64_t(floor) - 1,
          {0.5 * (-a3 + 2 * a2 - a), 0.5 * (3 * a3 - 5 * a2 + 2), 0.5 * (-3 * a3 + 4 * a2 + a), 0.5 * (a3 - a2)}};
}

/// The per-thread tables of one grid query: they grow to the largest grid
/// asked, then never allocate again (surfaces are shared by every thread).
struct GridScratch {
  std::vector<Axis> columns, rows;
  std::vector<double> block;  ///< tile nodes under the grid, blended in time: field fastest
  std::vector<double> row;    ///< one grid row's values at the block's columns
};

/// Fields per tile node: the elevation, then with velocities each band's
/// east, north, up.
void blendBlock(const Snapshot& s, std::int64_t x0, std::int64_t y0, std::size_t width, std::size_t height,
                std::size_t fields, std::vector<double>& block) {
  const auto n = std::int64_t(s.state->fixedNodes);
  const detail::TimeWeights& t = s.weights;
  const std::size_t bands = s.bands;
  for (std::size_t r = 0; r < height; ++r) {
    const std::int64_t row = ((y0 + std::int64_t(r)) % n + n) % n;
    for (std::size_t c = 0; c < width; ++c) {
      const std::int64_t column = ((x0 + std::int64_t(c)) % n + n) % n;
      const auto k = std::size_t(row * n + column);
      double* out = &block[(r * width + c) * fields];
      const detail::FixedNode& p = s.level0->fixed[k];
      const detail::FixedNode& q = s.level1->fixed[k];
      out[0] = double(t.hermite(p.elevation_m, q.elevation_m, p.elevation_mps, q.elevation_mps));
      for (std::size_t f = 1; f < fields; ++f) {
        const std::size_t i = k * bands * 3 + (f - 1);
        out[f] = double(t.hermite(s.level0->fixedVelocity_mps[i], s.level1->fixedVelocity_mps[i],
                                  s.level0->fixedAcceleration_mps2[i], s.level1->fixedAcceleration_mps2[i]));
      }
    }
  }
}

/// Heights, and with `velocities` the velocities at its depths, of every
/// node of `grid`.
void gridQuery(const detail::SpectralOceanState& state, const WaterGrid& grid, const GridVelocities* velocities,
               btScalar t_s, btScalar* heights_out_m) {
  thread_local GridScratch scratch;
  const Snapshot s = detail::snapshotAt(state, double(t_s));
  const bool cubic = state.settings.interpolation == SpectralInterpolation::Bicubic;
  const auto nu = std::size_t(grid.nodesU), nv = std::size_t(grid.nodesV);
  scratch.columns.resize(nu);
  scratch.rows.resize(nv);
  const double scale = grid.cellSize_m * state.inverseFixedCell_pm;
  for (std::size_t i = 0; i < nu; ++i)
    scratch.columns[i] = axisAt(double(grid.originI + std::int64_t(i)) * scale, cubic);
  for (std::size_t j = 0; j < nv; ++j) scratch.rows[j] = axisAt(double(grid.originJ + std::int64_t(j)) * scale, cubic);
  const std::int64_t x0 = scratch.columns.front().first, y0 = scratch.rows.front().first;
  const auto width = std::size_t(scratch.columns.back().first - x0 + 4);
  const auto height = std::size_t(scratch.rows.back().first - y0 + 4);
  const std::size_t fields = velocities != nullptr ? 1 + 3 * s.bands : 1;
  if (scratch.block.size() < width * height * fields) scratch.block.resize(width * height * fields);
  if (scratch.row.size() < width * fields) scratch.row.resize(width * fields);
  blendBlock(s, x0, y0, width, height, fields, scratch.block);
  // Each depth's decay per band, e^{-k_b depth}, once per query.
  const std::size_t depths = velocities != nullptr ? velocities->depths_m.size() : 0;
  std::array<double, std::size_t{64}> decay{};  // 8 depths (WaterPatch asks 6) x 8 bands at most
  const std::size_t tabled = std::min<std::size_t>(depths, 8);
  for (std::size_t m = 0; m < tabled; ++m)
    for (std::size_t b = 0; b < s.bands; ++b)
      decay[m * 8 + b] = std::exp(-state.waves.bandWavenumber_radpm[b] * velocities->depths_m[m]);
  double value[1 + 3 * 8];
  for (std::size_t j = 0; j < nv; ++j) {
    const Axis& ry = scratch.rows[j];
    const std::size_t r0 = std::size_t(ry.first - y0);
    for (std::size_t e = 0; e < width * fields; ++e) {
      double sum = 0;
      for (std::size_t k = 0; k < 4; ++k) sum += ry.w[k] * scratch.block[(r0 + k) * width * fields + e];
      scratch.row[e] = sum;
    }
    for (std::size_t i = 0; i < nu; ++i) {
      const Axis& cx = scratch.columns[i];
      const double* taps = &scratch.row[std::size_t(cx.first - x0) * fields];
      for (std::size_t f = 0; f < fields; ++f)
        value[f] = cx.w[0] * taps[f] + cx.w[1] * taps[fields + f] + cx.w[2] * taps[2 * fields + f] +
                   cx.w[3] * taps[3 * fields + f];
      const std::size_t node = j * nu + i;
      heights_out_m[node] = btScalar(state.settings.meanLevel_m + value[0]);
      for (std::size_t m = 0; m < depths; ++m) {
        double v[3] = {0, 0, 0};
        for (std::size_t b = 0; b < s.bands; ++b) {
          const double d = m < tabled ? decay[m * 8 + b]
                                      : std::exp(-state.waves.bandWavenumber_radpm[b] * velocities->depths_m[m]);
          for (std::size_t axis = 0; axis < 3; ++axis) v[axis] += d * value[1 + 3 * b + axis];
        }
        velocities->out[node * depths + m] = {btScalar(v[0]), btScalar(v[1]), btScalar(v[2])};
      }
    }
  }
}

}  // namespace

bool SpectralOcean::gridHeights(const WaterGrid& grid, btScalar t_s, btScalar* out_m) const {
  if (!state_->fixedPoints()) return false;
  if (grid.nodesU <= 0 || grid.nodesV <= 0) return true;
  gridQuery(*state_, grid, nullptr, t_s, out_m);
  return true;
}

bool SpectralOcean::gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, btScalar t_s,
                                             btScalar* heights_out_m) const {
  if (!state_->fixedPoints()) return false;
  if (grid.nodesU <= 0 || grid.nodesV <= 0) return true;
  gridQuery(*state_, grid, &velocities, t_s, heights_out_m);
  return true;
}

QueryCost SpectralOcean::queryCost() const {
  // Measured on the benchmarks' machine (keel_bench_waves' spectral rows,
  // docs/waves.md, "Cost"; bicubic): independent of the number of waves.
  // The particle solve: a Newton solve per point, no grid query.
  if (!state_->fixedPoints())
    return {.height_ns = 320, .gridNode_ns = 320, .velocity_ns = 210, .heightAndVelocity_ns = 530};
  // A node's velocity at its first depth costs about 27 ns (its tiles'
  // interpolation), each further depth about 6: 10 is the mean over a
  // patch's six (the substep benchmark's 1 m patch: one velocity per boat
  // from its 49 nodes cost 1.1 us more than a query of one point).
  return {
      .height_ns = 50, .gridNode_ns = 6.5, .velocity_ns = 140, .heightAndVelocity_ns = 165, .gridNodeVelocity_ns = 10};
}

}  // namespace keel::KEEL_ABI
