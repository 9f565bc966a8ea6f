#pragma once
// Building a ColumnHull (column_build.cpp): the grid, and each column's
// exact volume and centroid from the hull's triangles.

#include <keel/columns.hpp>

#include <cstdint>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// The square grid in the plane across the hull's up axis.
struct ColumnGrid {
  btVector3 up, forward, side;  ///< unit, body frame: (forward, side, up) is right-handed
  double cell_m = 0;            ///< square cell's side [m]
  double originA_m = 0;         ///< forward coordinate of cell (0, 0)'s low corner [m]
  double originB_m = 0;         ///< side coordinate of it [m]
  std::int64_t cellsA = 0, cellsB = 0;
};

/// The grid over `hull`'s footprint for these axes and settings. Throws
/// std::invalid_argument beyond 4,194,304 cells.
[[nodiscard]] ColumnGrid columnGrid(const Hull& hull, const btVector3& up, const btVector3& forward,
                                    const btVector3& side, const ColumnSettings& settings);

/// The columns of `hull` on `grid`, ordered by cell then part; each column's
/// volume and centroid exact (the integrals in double).
[[nodiscard]] std::vector<Column> cutColumns(const Hull& hull, const ColumnGrid& grid);

}  // namespace keel::KEEL_ABI::detail
