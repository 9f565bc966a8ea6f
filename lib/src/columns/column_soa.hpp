#pragma once
// The columns as the column kernels read them (column_kernel.cpp): structure
// of arrays in the body frame, padded to kPad with columns of no area.

#include <keel/columns.hpp>

#include "kernels/hull_soa.hpp"

#include <cstddef>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// A ColumnHull in structure-of-arrays form, body frame [m].
struct ColumnSoA {
  /// Each column's centroid as a point set (vertex arrays only): the water
  /// is sampled there, with the same kernels that sample a hull's vertices.
  HullSoA points;
  /// Offsets along the column axis from the centroid to the column's bottom
  /// and top [m] (lo < 0 < hi), and its area [m^2] (0 for padding).
  std::vector<btScalar> lo, hi, area;
  std::vector<btScalar> inverseLength;  ///< 1 / (hi - lo) [1/m]
  /// The bottom's and the top's ramp half-widths [m] (Column::bottomRamp_m)
  /// and 1 / (4 ramp) [1/m] (0 for no ramp).
  std::vector<btScalar> loRamp, hiRamp, loRampInverse, hiRampInverse;
  bool ramps = false;               ///< some column has a ramp (else the kernel skips them)
  btScalar axis[3] = {0, 1, 0};     ///< the columns' direction (the hull's up), body frame
  btScalar forward[3] = {1, 0, 0};  ///< the grid's first axis, body frame
  btScalar side[3] = {0, 0, -1};    ///< its second (axis x forward), body frame
  btScalar cell_m = 0;              ///< the cells' side [m]
};

/// The column kernel's per-substep factors.
struct ColumnParameters {
  btScalar axisUp = 1;  ///< the column axis's component along the water's up
  /// 1 / the most a column's wet length varies across its footprint when
  /// the hull is tilted, (|up . forward| + |up . side|) / |up . axis| cell / 2
  /// [1/m] (0 upright).
  btScalar inverseExcursion_pm = 0;
};

/// What the column kernel sums (body frame, before rho g).
struct ColumnSums {
  double volume_m3 = 0;             ///< immersed volume
  double moment_m4[3] = {0, 0, 0};  ///< immersed volume times its centre (centroid part), body axes
  double along_m4 = 0;              ///< immersed volume times its centre's offset along the axis (flip applied)
  double volumeDepth_m4 = 0;        ///< sum of each column's immersed volume times its immersed length
  /// Sum of each column's footprint second moment (area cell^2 / 12) times
  /// its weight in the tilt terms (1 while the water crosses only its
  /// sides, falling to 0 as it reaches the bottom or top) [m^4].
  double tiltMoment_m4 = 0;
  btScalar lowestAbove_m = 0;  ///< the least height of a column's bottom above the water [m]
  double waterHeight_m = 0;    ///< sum of the water heights at the columns [m]
  btScalar leastFraction = 0;  ///< the least immersed fraction of a column (1: wholly under the water)
};

/// Each column's immersion from `h_m` (each centroid's height above the
/// water [m]): the sums above and each column's immersed fraction into
/// `fraction` (padded length; a vector of padding alone is left as it
/// was); `water_m` are the water heights there.
[[nodiscard]] ColumnSums columnSums(const ColumnSoA& c, const btScalar* h_m, const btScalar* water_m,
                                    const ColumnParameters& p, btScalar* fraction);

}  // namespace keel::KEEL_ABI::detail

namespace keel::KEEL_ABI {

/// ColumnHull's opaque kernel form (lib/src/internals.hpp): the ColumnSoA itself.
struct ColumnHull::Kernels final : detail::ColumnSoA {};

}  // namespace keel::KEEL_ABI
