#pragma once
// Internal to Keel: a grid's nodes as points, for a grid query answered
// with point queries (a boat's patch on a surface with no grid query, the
// wake field's ambient surface, the Gerstner sea's grid).

#include <keel/surface_authoring.hpp>

#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// The order gridNodePoints lists a grid's nodes in.
enum class NodeOrder {
  Rows,        ///< row after row, each from its first column: node (i, j) at `j nodesU + i`
  Serpentine,  ///< row after row in alternating directions: each node next to the one before
};

/// The place of node (i, j) of `grid` in `order`.
[[nodiscard]] inline std::size_t nodePlace(const WaterGrid& grid, int i, int j, NodeOrder order) {
  const int step = order == NodeOrder::Serpentine && j % 2 != 0 ? grid.nodesU - 1 - i : i;
  return std::size_t(j) * std::size_t(grid.nodesU) + std::size_t(step);
}

/// The nodes' coordinates [m] into `u_m` and `v_m` (`nodesU nodesV` each),
/// in `order`: WaterGrid::u_m and v_m, world multiples of the cell, so that
/// the same world point is sampled wherever the grid lies.
inline void gridNodePoints(const WaterGrid& grid, NodeOrder order, btScalar* u_m, btScalar* v_m) {
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) {
      const std::size_t at = nodePlace(grid, i, j, order);
      u_m[at] = grid.u_m(i);
      v_m[at] = grid.v_m(j);
    }
}

}  // namespace keel::KEEL_ABI::detail
