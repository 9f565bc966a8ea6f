#pragma once
// Building a ColumnHull (column_build.cpp): the grid, and each column's
// exact volume and centroid from the hull's triangles.

#include <keel/columns.hpp>

#include "columns/column_cells.hpp"

#include <cstdint>
#include <map>
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
/// volume and centroid exact (the integrals in double). Where the hull's
/// parts overlap (Hull::partsOverlap), one column of their union.
[[nodiscard]] std::vector<Column> cutColumns(const Hull& hull, const ColumnGrid& grid);

/// One face of one part clipped to one cell: `key` is cell * parts + part.
struct CellPiece {
  std::uint64_t key;
  Polygon polygon;  ///< wound as the face's projection
  Plane plane;      ///< the face's height over it
  bool up;          ///< the face points up (its projection winds counter-clockwise)
};

/// Replaces, in each cell, the sums of parts whose faces overlap there (in
/// footprint and in height) by one sum of their union, exact, kept under
/// the lowest of their part numbers. `pieces` are every part's clipped
/// faces; `cells` is keyed as CellPiece::key (column_union.cpp).
void mergeOverlappingParts(const ColumnGrid& grid, std::uint64_t partCount, std::vector<CellPiece> pieces,
                           std::map<std::uint64_t, CellSums>& cells);

/// The volume [m^3] and its centroid (body frame [m]) of the union of
/// `hull`'s parts, from its columns on the default grid.
void unionVolume(const Hull& hull, double& volume_m3, btVector3& centroid_m);

}  // namespace keel::KEEL_ABI::detail
