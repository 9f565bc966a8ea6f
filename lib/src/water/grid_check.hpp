#pragma once
// Internal to Keel: the arguments of the grid queries
// (WaterSurface::gridHeights, gridHeightsAndVelocities) checked before a
// surface sizes its tables by them. docs/waves.md, "Grids".

#include <keel/surface_authoring.hpp>

#include <algorithm>

namespace keel::KEEL_ABI::detail {

/// Grid indices at most this far from 0: a double holds every index to
/// there and past it by any node count, and 64 bits hold their sums.
inline constexpr double kMaxGridIndex = 0x1p52;

/// Node coordinates at most this far from 0 [m]: finite as a float
/// btScalar, with room for the surface's sums.
inline constexpr double kMaxGridCoordinate_m = 1e30;

/// std::invalid_argument naming `caller` and the bad field unless the cell
/// is positive and finite, the node counts are not negative, the origin's
/// indices lie within kMaxGridIndex and every node's coordinates within
/// kMaxGridCoordinate_m. Returns the farthest node's index from 0 along
/// either axis [cells], for a surface's own bounds.
double checkWaterGrid(const WaterGrid& grid, const char* caller);

/// std::invalid_argument naming `caller` unless every depth is finite and
/// >= 0, there is somewhere to write their velocities and the window's
/// fields are >= 0.
void checkGridVelocities(const GridVelocities& velocities, const char* caller);

/// The nodes of `grid` whose velocities `velocities` wants: its window
/// clipped to the grid (checked: its fields are >= 0), possibly empty.
[[nodiscard]] inline GridWindow wantedWindow(const GridVelocities& velocities, const WaterGrid& grid) {
  const GridWindow& w = velocities.window;
  const int firstU = std::min(w.firstU, grid.nodesU), firstV = std::min(w.firstV, grid.nodesV);
  return {firstU, firstV, std::min(w.nodesU, grid.nodesU - firstU), std::min(w.nodesV, grid.nodesV - firstV)};
}

}  // namespace keel::KEEL_ABI::detail
