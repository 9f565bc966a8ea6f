#pragma once
// Internal to Keel: the vector part of keel::SpectralOcean's grid queries
// (spectral_grid_simd.cpp), laid out by spectral_grid.cpp. docs/waves.md,
// "Spectral ocean".

#include <keel/surface_authoring.hpp>

#include "math/round_up.hpp"
#include "water/spectral_detail.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace keel::KEEL_ABI::detail {

/// Every table is padded to whole vectors of this many btScalars (the
/// widest the kernel uses: it caps its vectors at 8 lanes).
inline constexpr std::size_t kSpectralGridLanes = 8;

/// Grids of at most this many nodes a row (a far boat's 4 x 4 patch) read
/// each node's 4 column taps in place: their jobs need no dense column
/// weights (SpectralGridJob::columnWeight).
inline constexpr std::size_t kSpectralSmallRow = 4;

/// `n` rounded up to whole vectors of kSpectralGridLanes.
[[nodiscard]] constexpr std::size_t spectralGridPadded(std::size_t n) { return roundUp(n, kSpectralGridLanes); }

/// x mod n in [0, n), for n > 2 and |x| <= 2^52 (the grid queries' reach:
/// spectral_grid.cpp, checkGrid), `inverse` 1 / n: a 64-bit division costs
/// tens of cycles, and a boat's grid query wraps its block's first column
/// and row. The quotient from the double product is within 2 of x / n
/// (its relative error, 2^-52, times |x / n| <= 2^52 / n), so x less it
/// times n lies within 2n of 0, brought into [0, n) exactly.
[[nodiscard]] inline std::int64_t wrapIndex(std::int64_t x, std::int64_t n, double inverse) {
  std::int64_t r = x - std::int64_t(double(x) * inverse) * n;
  r = r < 0 ? r + n : r;
  r = r < 0 ? r + n : r;
  return r >= n ? r - n : r;
}

/// One axis of a grid node's stencil: the (unwrapped) tile index of its
/// first tap and the 4 taps' weights, as SpectralOceanState::fixedStencilAt
/// (bilinear: taps 1 and 2).
struct SpectralAxis {
  std::int64_t first;
  std::array<double, 4> w;
};

/// The stencils of the nodes of `grid`, each column's into `columns`
/// ([nodesU]) and each row's into `rows` ([nodesV]), node k of an axis at
/// (origin + k) `scale` fixed-point tile cells, within 2^52 of them
/// (spectral_grid.cpp, checkGrid): bicubic (`cubic`) or bilinear, each
/// cell std::floor's, a vector of nodes at a time on the CPU's best
/// instruction set (the same bits on every one).
void spectralStencils(const WaterGrid& grid, double scale, bool cubic, SpectralAxis* columns, SpectralAxis* rows);

/// One grid query for the kernel. The block is the tile nodes under the
/// grid, `width` x `height` from tile column `x0`, row `y0` (unwrapped),
/// blended in time; each grid row j is a 4-tap sum of the block's rows
/// (`rows[j]`), each node i a sum of that row's columns with the dense
/// weights `columnWeight` (zero off the node's 4 taps, `columns[i]`).
struct SpectralGridJob {
  Snapshot snapshot;
  std::int64_t x0, y0;
  std::size_t width, height;
  std::size_t nodesU, nodesV;
  std::size_t bands;             ///< velocity bands; 0 for heights only
  const SpectralAxis* columns;   ///< [nodesU] each node's stencil along east
  const btScalar* columnWeight;  ///< [width][spectralGridPadded(nodesU)]; unused for kSpectralSmallRow nodes
  const SpectralAxis* rows;      ///< [nodesV] each node's stencil along north
  double meanLevel_m;            ///< added to every height
  std::size_t depths;            ///< velocity depths per node
  /// e^{-k_b depth_m}: [bands][spectralGridPadded(depths)]; the padding's
  /// lanes finite (zero, or further depths' decays), their sums discarded
  const btScalar* decay;
  /// The decays again as a run of nodes' velocities holds them (a node's
  /// depths in a row): [bands][kSpectralGridLanes (depths + 1)], band b's
  /// at position p its decay at depth `p % depths`; null for more than
  /// kSpectralGridLanes depths.
  const btScalar* runDecay;
  btScalar* scratch;         ///< spectralGridScratch(*this) btScalars
  btScalar* heights_m;       ///< [nodesV nodesU], or null for the velocities alone
  btScalar* velocities_mps;  ///< [(nodesV nodesU) depths][3] (WaterVelocity), or null
  /// The nodes whose velocities are computed: the rows from `velocityRow0`
  /// and the columns from `velocityColumn0` (the others' heights alone).
  /// The output's other nodes may be written too (GridVelocities).
  std::size_t velocityRow0, velocityRows, velocityColumn0, velocityColumns;
  /// The block already blended in time, read in place: its first node's
  /// elevation and (3 bands) velocities in planes of rows `blendedStrideE`
  /// and `blendedStrideV` btScalars apart (a blended tile's), readable a
  /// vector past the block's rows; null: the kernel blends the block.
  const btScalar* blendedE;
  const btScalar* blendedV;
  std::size_t blendedStrideE, blendedStrideV;
};

/// The btScalars of scratch a job needs.
[[nodiscard]] std::size_t spectralGridScratch(const SpectralGridJob& job);

/// The bytes of the calling thread's grid-query tables (spectral_grid.cpp):
/// they grow to the largest query the thread has run.
[[nodiscard]] std::size_t spectralGridScratch_bytes();

/// Runs the job on the CPU's best instruction set.
void spectralGrid(const SpectralGridJob& job);

/// The job's block blended in time alone, no sums: its elevations into
/// `elevation_m` (unless null) and its bands' velocities into
/// `velocity_mps` (unless null, or the job has no bands), in rows of
/// spectralGridPadded(width) and spectralGridPadded(3 bands width)
/// btScalars, each value the same bits as the kernel's own blend.
void spectralBlend(const SpectralGridJob& job, btScalar* elevation_m, btScalar* velocity_mps);

}  // namespace keel::KEEL_ABI::detail
