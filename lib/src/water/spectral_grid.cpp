// keel::SpectralOcean's grid queries: a world-snapped patch read from the
// fixed-point tiles with separable stencils, each computed once per patch
// column and row, and the tile nodes under the patch blended in time once.
// Here the stencils and the bands' decays; the sums in the vector kernel
// (spectral_grid_simd.cpp). docs/waves.md, "Spectral ocean".

#include <keel/spectral_ocean.hpp>

#include "grow.hpp"
#include "math/det_math.hpp"
#include "water/blended_tile.hpp"
#include "water/grid_check.hpp"
#include "water/query_costs.hpp"
#include "water/spectral_grid.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::KEEL_ABI {
namespace {

using detail::SpectralAxis;

/// The per-thread tables of one grid query: they grow to the largest grid
/// asked, then never allocate again (surfaces are shared by every thread).
struct GridScratch {
  std::vector<SpectralAxis> columns, rows;
  std::vector<btScalar> columnWeight, decay, runDecay, work;  // the kernel's precision
  /// A wanted window's velocities, before they go to their rows of the output.
  std::vector<btScalar> blockVelocities;
  /// What `decay` was computed for: the depths, then the bands' wavenumbers.
  std::vector<double> decayKey;
  std::size_t decayDepths = 0;  ///< of decayKey, the depths
  std::size_t runDepths = 0;    ///< the depths runDecay was laid out for (0: none)
  detail::BlendedTile tile;     ///< the blended planes it reads
  /// The last query's snapshot (detail::snapshotAt), a function of the
  /// ocean's state, its publication and the time alone: a fleet's grids on
  /// one thread ask the same time of the same tiles one after another.
  /// Publication 0: none.
  std::uint64_t snapshotPublication = 0;
  std::uint64_t snapshotTime = 0;  ///< the time's bits (a -0 s weighs the tiles apart from a +0 s)
  detail::Snapshot snapshot{};
};

/// The calling thread's tables.
thread_local GridScratch gScratch;

/// Grid cells of at least this many fixed-point tile cells are read node
/// by node. From 4 cells on, the block under a grid holds tile nodes no
/// 4-tap stencil reads; blending a node's 16 alone costs about a cache miss
/// a row and level, which the block's growing share of unread nodes
/// outweighs from about 8 cells (keel_bench_waves spectralCoarseGrid).
constexpr double kSparseGridCells = 8;

/// Each node's columns as dense weights (zero off its 4 taps), so that a
/// vector of nodes sums the same columns.
void layColumnWeights(GridScratch& scratch, detail::SpectralGridJob& job) {
  const std::size_t nu = job.nodesU, padded = detail::spectralGridPadded(nu);
  // A vector past the last column's weights: the velocities' columns are
  // loaded from their first node on.
  detail::growTo(scratch.columnWeight, job.width * padded + detail::kSpectralGridLanes);
  std::fill_n(scratch.columnWeight.begin(), job.width * padded, btScalar(0));
  for (std::size_t i = 0; i < nu; ++i) {
    const auto first = std::size_t(job.columns[i].first - job.x0);
    for (std::size_t k = 0; k < 4; ++k) scratch.columnWeight[(first + k) * padded + i] = btScalar(job.columns[i].w[k]);
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
    detail::growTo(scratch.decay, bands_radpm.size() * padded);
    std::fill_n(scratch.decay.begin(), bands_radpm.size() * padded, btScalar(0));
    for (std::size_t b = 0; b < bands_radpm.size(); ++b)
      for (std::size_t m = 0; m < depths_m.size(); ++m)
        scratch.decay[b * padded + m] = btScalar(detail::det::exp(-bands_radpm[b] * depths_m[m]));
  }
  job.decay = scratch.decay.data();
  // The same decays as a run of nodes' velocities holds them
  // (SpectralGridJob::runDecay): laid out again when they or the number of
  // depths change.
  const std::size_t depths = depths_m.size(), run = detail::kSpectralGridLanes * (depths + 1);
  if (depths > detail::kSpectralGridLanes) return;
  if (!same || scratch.runDepths != depths) {
    detail::growTo(scratch.runDecay, bands_radpm.size() * run);
    for (std::size_t b = 0; b < bands_radpm.size(); ++b)
      for (std::size_t p = 0, m = 0; p < run; ++p, m = m + 1 == depths ? 0 : m + 1)
        scratch.runDecay[b * run + p] = scratch.decay[b * padded + m];
    scratch.runDepths = depths;
  }
  job.runDecay = scratch.runDecay.data();
}

/// Part of a grid for one job: `nodesU` columns' stencils from `columns`,
/// `nodesV` rows' from `rows`, written row-major from `heights_m` and (with
/// velocities) `velocities_mps`, those of the window `velocity` alone.
struct SubGrid {
  const SpectralAxis* columns;
  std::size_t nodesU;
  const SpectralAxis* rows;
  std::size_t nodesV;
  btScalar* heights_m;
  btScalar* velocities_mps;
  GridWindow velocity;
};

/// One job: the block of tile nodes under `grid` blended in time, then the
/// vector kernel's sums.
void runJob(GridScratch& scratch, const detail::Snapshot& snapshot, const GridVelocities* velocities,
            const SubGrid& grid) {
  const detail::SpectralOceanState& state = *snapshot.state;
  const std::size_t depths = velocities != nullptr ? velocities->depths_m.size() : 0, nu = grid.nodesU,
                    nv = grid.nodesV;
  detail::SpectralGridJob job{.snapshot = snapshot,
                              .x0 = grid.columns[0].first,
                              .y0 = grid.rows[0].first,
                              .width = std::size_t(grid.columns[nu - 1].first - grid.columns[0].first + 4),
                              .height = std::size_t(grid.rows[nv - 1].first - grid.rows[0].first + 4),
                              .nodesU = nu,
                              .nodesV = nv,
                              .bands = depths > 0 ? state.waves.bandWavenumber_radpm.size() : 0,
                              .columns = grid.columns,
                              .columnWeight = nullptr,
                              .rows = grid.rows,
                              .meanLevel_m = state.settings.meanLevel_m,
                              .depths = depths,
                              .decay = nullptr,
                              .runDecay = nullptr,
                              .scratch = nullptr,
                              .heights_m = grid.heights_m,
                              .velocities_mps = grid.velocities_mps,
                              .velocityRow0 = std::size_t(grid.velocity.firstV),
                              .velocityRows = std::size_t(grid.velocity.nodesV),
                              .velocityColumn0 = std::size_t(grid.velocity.firstU),
                              .velocityColumns = std::size_t(grid.velocity.nodesU),
                              .blendedE = nullptr,
                              .blendedV = nullptr,
                              .blendedStrideE = 0,
                              .blendedStrideV = 0};
  scratch.tile.use(job);
  if (nu > detail::kSpectralSmallRow) layColumnWeights(scratch, job);
  if (depths > 0) layDecays(scratch, velocities->depths_m, state.waves.bandWavenumber_radpm, job);
  detail::growTo(scratch.work, detail::spectralGridScratch(job));
  job.scratch = scratch.work.data();
  detail::spectralGrid(job);
}

/// The velocities of the nodes of `block` alone (no heights: the whole
/// grid's job has them), into their places in `velocities_mps` (the whole
/// grid's, `nodesU` a row): one job over the block's nodes, into scratch,
/// then row by row. Each node's sums are those of a job over the whole
/// grid (its columns and rows the same stencils; the other nodes' columns
/// add zeros), so the same bits.
void runBlockJob(GridScratch& scratch, const detail::Snapshot& snapshot, const GridVelocities& velocities,
                 const GridWindow& block, std::size_t nodesU, btScalar* velocities_mps) {
  const auto bu = std::size_t(block.nodesU), bv = std::size_t(block.nodesV);
  const std::size_t row = 3 * velocities.depths_m.size() * bu;
  detail::growTo(scratch.blockVelocities, row * bv);
  runJob(scratch, snapshot, &velocities,
         {&scratch.columns[std::size_t(block.firstU)],
          bu,
          &scratch.rows[std::size_t(block.firstV)],
          bv,
          nullptr,
          scratch.blockVelocities.data(),
          {0, 0, block.nodesU, block.nodesV}});
  const std::size_t perNode = 3 * velocities.depths_m.size();
  for (std::size_t j = 0; j < bv; ++j)
    std::copy_n(scratch.blockVelocities.begin() + std::ptrdiff_t(j * row), row,
                velocities_mps + ((std::size_t(block.firstV) + j) * nodesU + std::size_t(block.firstU)) * perNode);
}

/// Heights, and with `velocities` the velocities at its depths, of every
/// node of `grid` (the velocities of its GridVelocities::window's nodes
/// alone, when that is not every node: the heights' job, then the
/// window's): the stencils and the bands' decays here, the sums in the
/// vector kernel. Where the grid's cell spans kSparseGridCells tile cells
/// or more each node is its own job, so that the work and the scratch
/// follow the grid's nodes, not the tile nodes under the grid.
void gridQuery(const detail::SpectralOceanState& state, const WaterGrid& grid, const GridVelocities* velocities,
               double t_s, btScalar* heights_out_m) {
  GridScratch& scratch = gScratch;
  const bool cubic = state.settings.interpolation == SpectralInterpolation::Bicubic;
  const auto nu = std::size_t(grid.nodesU), nv = std::size_t(grid.nodesV);
  detail::growTo(scratch.columns, nu);
  detail::growTo(scratch.rows, nv);
  const double scale = grid.cellSize_m * state.inverseFixedCell_pm;
  detail::spectralStencils(grid, scale, cubic, scratch.columns.data(), scratch.rows.data());
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(btScalar), "the kernel writes east, north, up per depth");
  if (scratch.snapshotPublication != state.publication || scratch.snapshot.state != &state ||
      scratch.snapshotTime != std::bit_cast<std::uint64_t>(t_s)) {
    scratch.snapshot = detail::snapshotAt(state, t_s);  // throws for a time that is not finite
    scratch.snapshotPublication = state.publication;
    scratch.snapshotTime = std::bit_cast<std::uint64_t>(t_s);
  }
  const detail::Snapshot& snapshot = scratch.snapshot;
  btScalar* velocities_mps = velocities != nullptr && !velocities->depths_m.empty() ? &velocities->out[0].east_mps
                                                                                    : nullptr;
  // The nodes whose velocities are computed: the wanted window (all by
  // default), or none.
  const GridWindow block = velocities_mps != nullptr ? detail::wantedWindow(*velocities, grid) : GridWindow{0, 0, 0, 0};
  const bool everyNode = std::size_t(block.nodesU) == nu && std::size_t(block.nodesV) == nv;
  const bool someNodes = !everyNode && block.nodesU > 0 && block.nodesV > 0;
  if (scale < kSparseGridCells && someNodes && nu <= 2 * detail::kSpectralGridLanes) {
    // A grid row's nodes in a vector or two (a far boat's grid, or a
    // full-detail boat's patch): the window's nodes in the heights' job
    // cost less than a second job over the window, which lays its own
    // column weights, blends its block again and copies its velocities
    // into place.
    runJob(scratch, snapshot, velocities,
           {scratch.columns.data(), nu, scratch.rows.data(), nv, heights_out_m, velocities_mps, block});
    return;
  }
  if (scale < kSparseGridCells) {
    runJob(scratch, snapshot, everyNode ? velocities : nullptr,
           {scratch.columns.data(),
            nu,
            scratch.rows.data(),
            nv,
            heights_out_m,
            everyNode ? velocities_mps : nullptr,
            {0, 0, grid.nodesU, grid.nodesV}});
    if (someNodes) runBlockJob(scratch, snapshot, *velocities, block, nu, velocities_mps);
    return;
  }
  const std::size_t depths = velocities_mps != nullptr ? velocities->depths_m.size() : 0;
  const auto inBlock = [&](std::size_t i, std::size_t j) {
    return i - std::size_t(block.firstU) < std::size_t(block.nodesU) &&
           j - std::size_t(block.firstV) < std::size_t(block.nodesV);
  };
  for (std::size_t j = 0; j < nv; ++j)
    for (std::size_t i = 0; i < nu; ++i) {
      const std::size_t node = j * nu + i;
      const bool withVelocities = velocities_mps != nullptr && inBlock(i, j);
      runJob(scratch, snapshot, withVelocities ? velocities : nullptr,
             {&scratch.columns[i],
              1,
              &scratch.rows[j],
              1,
              heights_out_m + node,
              withVelocities ? velocities_mps + 3 * node * depths : nullptr,
              {0, 0, 1, 1}});
    }
}

/// checkGrid's refusal, apart from its test: the test, run at every grid
/// query, then keeps no stream's setup of its own.
[[noreturn, gnu::cold, gnu::noinline]] void refuseGridReach(const detail::SpectralOceanState& state,
                                                            const WaterGrid& grid, const char* where, double farthest) {
  const double scale = grid.cellSize_m * state.inverseFixedCell_pm;
  std::ostringstream m;
  m << where << ": WaterGrid::cellSize_m is " << grid.cellSize_m << " m and its nodes reach "
    << farthest * grid.cellSize_m << " m, " << farthest * scale << " of the tile's fixed-point cells of "
    << 1 / state.inverseFixedCell_pm << " m, beyond the 2^52 cells "
    << "a query can count";
  throw std::invalid_argument(m.str());
}

/// The shared checks of a grid (detail::checkWaterGrid), and its nodes
/// within 2^52 fixed-point tile cells of the origin, where a double still
/// counts whole cells and their stencils' indices fit 64 bits.
void checkGrid(const detail::SpectralOceanState& state, const WaterGrid& grid, const char* where) {
  const double farthest = detail::checkWaterGrid(grid, where);
  const double scale = grid.cellSize_m * state.inverseFixedCell_pm, limit = 0x1p52;
  if (!(farthest * scale <= limit)) refuseGridReach(state, grid, where, farthest);
}

}  // namespace

bool SpectralOcean::gridHeights(const WaterGrid& grid, double t_s, btScalar* out_m) const {
  const detail::SpectralOceanState& state = detail::oceanState(*this, "gridHeights");
  if (!state.fixedPoints()) return false;
  checkGrid(state, grid, "keel::SpectralOcean::gridHeights");
  if (grid.nodesU == 0 || grid.nodesV == 0) return true;
  gridQuery(state, grid, nullptr, t_s, out_m);
  return true;
}

bool SpectralOcean::gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                             btScalar* heights_out_m) const {
  const detail::SpectralOceanState& state = detail::oceanState(*this, "gridHeightsAndVelocities");
  if (!state.fixedPoints()) return false;
  checkGrid(state, grid, "keel::SpectralOcean::gridHeightsAndVelocities");
  detail::checkGridVelocities(velocities, "keel::SpectralOcean::gridHeightsAndVelocities");
  if (grid.nodesU == 0 || grid.nodesV == 0) return true;
  gridQuery(state, grid, &velocities, t_s, heights_out_m);
  return true;
}

QueryCost SpectralOcean::queryCost() const {
  return detail::oceanState(*this, "queryCost").fixedPoints() ? detail::kSpectralFixedPoints
                                                              : detail::kSpectralParticleSolve;
}

std::size_t detail::spectralGridScratch_bytes() {
  const GridScratch& s = gScratch;
  return s.columns.capacity() * sizeof(SpectralAxis) + s.rows.capacity() * sizeof(SpectralAxis) +
         (s.columnWeight.capacity() + s.decay.capacity() + s.runDecay.capacity() + s.work.capacity() +
          s.blockVelocities.capacity()) *
             sizeof(btScalar) +
         s.tile.bytes() + s.decayKey.capacity() * sizeof(double);
}

}  // namespace keel::KEEL_ABI
