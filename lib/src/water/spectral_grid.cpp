// keel::SpectralOcean's grid queries: a world-snapped patch read from the
// fixed-point tiles with separable stencils, each computed once per patch
// column and row, and the tile nodes under the patch blended in time once.
// Here the stencils and the bands' decays; the sums in the vector kernel
// (spectral_grid_simd.cpp). docs/waves.md, "Spectral ocean".

#include <keel/spectral_ocean.hpp>

#include "water/query_costs.hpp"
#include "water/spectral_grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace keel::KEEL_ABI {
namespace {

using detail::SpectralAxis;

/// The stencil along one axis at `f` [fixed-point tile cells].
SpectralAxis axisAt(double f, bool cubic) {
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
  std::vector<SpectralAxis> columns, rows;
  std::vector<btScalar> columnWeight, decay, work;  // the kernel's precision
  /// What `decay` was computed for: the depths, then the bands' wavenumbers.
  std::vector<double> decayKey;
  std::size_t decayDepths = 0;  ///< of decayKey, the depths
};

template <typename Value>
void atLeast(std::vector<Value>& v, std::size_t size) {
  if (v.size() < size) v.resize(size);
}

/// Each node's columns as dense weights (zero off its 4 taps), so that a
/// vector of nodes sums the same columns.
void layColumnWeights(GridScratch& scratch, detail::SpectralGridJob& job) {
  const std::size_t nu = job.nodesU, padded = detail::spectralGridPadded(nu);
  atLeast(scratch.columnWeight, job.width * padded);
  std::fill_n(scratch.columnWeight.begin(), job.width * padded, btScalar(0));
  for (std::size_t i = 0; i < nu; ++i) {
    const auto first = std::size_t(scratch.columns[i].first - job.x0);
    for (std::size_t k = 0; k < 4; ++k)
      scratch.columnWeight[(first + k) * padded + i] = btScalar(scratch.columns[i].w[k]);
  }
  job.columnWeight = scratch.columnWeight.data();
}

/// Each depth's decay per band, e^{-k_b depth}: computed again only when
/// the bands change or the depths are not the first of those it was
/// computed for (with the same padding, so the same layout). A patch asks
/// the same depths every substep, or the first few of them
/// (WaterPatch::sampleWithVelocities keeps those its hull reaches), and the
/// boats of a fleet on one thread ask different numbers of them.
void layDecays(GridScratch& scratch, std::span<const double> depths_m, std::span<const double> bands_radpm,
               detail::SpectralGridJob& job) {
  const std::size_t padded = detail::spectralGridPadded(depths_m.size()), cached = scratch.decayDepths;
  const bool same = depths_m.size() <= cached && detail::spectralGridPadded(cached) == padded &&
                    scratch.decayKey.size() == cached + bands_radpm.size() &&
                    std::equal(depths_m.begin(), depths_m.end(), scratch.decayKey.begin()) &&
                    std::equal(bands_radpm.begin(), bands_radpm.end(),
                               scratch.decayKey.begin() + std::ptrdiff_t(cached));
  if (!same) {
    scratch.decayDepths = depths_m.size();
    scratch.decayKey.assign(depths_m.begin(), depths_m.end());
    scratch.decayKey.insert(scratch.decayKey.end(), bands_radpm.begin(), bands_radpm.end());
    atLeast(scratch.decay, bands_radpm.size() * padded);
    std::fill_n(scratch.decay.begin(), bands_radpm.size() * padded, btScalar(0));
    for (std::size_t b = 0; b < bands_radpm.size(); ++b)
      for (std::size_t m = 0; m < depths_m.size(); ++m)
        scratch.decay[b * padded + m] = btScalar(std::exp(-bands_radpm[b] * depths_m[m]));
  }
  job.decay = scratch.decay.data();
}

/// Heights, and with `velocities` the velocities at its depths, of every
/// node of `grid`: the stencils and the bands' decays here, the sums in
/// the vector kernel.
void gridQuery(const detail::SpectralOceanState& state, const WaterGrid& grid, const GridVelocities* velocities,
               double t_s, btScalar* heights_out_m) {
  thread_local GridScratch scratch;
  const bool cubic = state.settings.interpolation == SpectralInterpolation::Bicubic;
  const auto nu = std::size_t(grid.nodesU), nv = std::size_t(grid.nodesV);
  atLeast(scratch.columns, nu);
  atLeast(scratch.rows, nv);
  const double scale = grid.cellSize_m * state.inverseFixedCell_pm;
  for (std::size_t i = 0; i < nu; ++i)
    scratch.columns[i] = axisAt(double(grid.originI + std::int64_t(i)) * scale, cubic);
  for (std::size_t j = 0; j < nv; ++j) scratch.rows[j] = axisAt(double(grid.originJ + std::int64_t(j)) * scale, cubic);
  const std::size_t depths = velocities != nullptr ? velocities->depths_m.size() : 0;
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(btScalar), "the kernel writes east, north, up per depth");
  detail::SpectralGridJob job{.snapshot = detail::snapshotAt(state, t_s),
                              .x0 = scratch.columns.front().first,
                              .y0 = scratch.rows.front().first,
                              .width = std::size_t(scratch.columns[nu - 1].first - scratch.columns.front().first + 4),
                              .height = std::size_t(scratch.rows[nv - 1].first - scratch.rows.front().first + 4),
                              .nodesU = nu,
                              .nodesV = nv,
                              .bands = depths > 0 ? state.waves.bandWavenumber_radpm.size() : 0,
                              .columns = scratch.columns.data(),
                              .columnWeight = nullptr,
                              .rows = scratch.rows.data(),
                              .meanLevel_m = state.settings.meanLevel_m,
                              .depths = depths,
                              .decay = nullptr,
                              .scratch = nullptr,
                              .heights_m = heights_out_m,
                              .velocities_mps = depths > 0 ? &velocities->out[0].east_mps : nullptr};
  layColumnWeights(scratch, job);
  if (depths > 0) layDecays(scratch, velocities->depths_m, state.waves.bandWavenumber_radpm, job);
  atLeast(scratch.work, detail::spectralGridScratch(job));
  job.scratch = scratch.work.data();
  detail::spectralGrid(job);
}

}  // namespace

bool SpectralOcean::gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const {
  if (!state_->fixedPoints()) return false;
  if (grid.nodesU <= 0 || grid.nodesV <= 0) return true;
  gridQuery(*state_, grid, nullptr, t_s, out_m);
  return true;
}

bool SpectralOcean::gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                             btScalar* heights_out_m) const {
  if (!state_->fixedPoints()) return false;
  if (grid.nodesU <= 0 || grid.nodesV <= 0) return true;
  gridQuery(*state_, grid, &velocities, t_s, heights_out_m);
  return true;
}

QueryCost SpectralOcean::queryCost() const {
  return state_->fixedPoints() ? detail::kSpectralFixedPoints : detail::kSpectralParticleSolve;
}

}  // namespace keel::KEEL_ABI
