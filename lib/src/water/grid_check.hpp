#pragma once
// Internal to Keel: the arguments of the grid queries
// (WaterSurface::gridHeights, gridHeightsAndVelocities) checked before a
// surface sizes its tables by them. docs/waves.md, "Grids".

#include <keel/surface_authoring.hpp>

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
/// >= 0, there is somewhere to write their velocities and the wanted block
/// lies within `grid`.
void checkGridVelocities(const GridVelocities& velocities, const WaterGrid& grid, const char* caller);

/// The nodes of `grid` whose velocities `velocities` wants: its block, or
/// the whole grid when the block is empty.
[[nodiscard]] inline GridBlock wantedBlock(const GridVelocities& velocities, const WaterGrid& grid) {
  return velocities.wanted.empty() ? GridBlock{0, 0, grid.nodesU, grid.nodesV} : velocities.wanted;
}

}  // namespace keel::KEEL_ABI::detail
