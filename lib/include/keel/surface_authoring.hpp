#pragma once
/// @file surface_authoring.hpp
/// For those who write their own keel::WaterSurface and want it fast: the
/// types of its grid queries (WaterSurface::gridHeights,
/// WaterSurface::gridHeightsAndVelocities) and of the cost it states for
/// Sampling::Auto (WaterSurface::queryCost).
///
/// Most users never include this header: they pass a height callback
/// (HeightFunction) or one of Keel's surfaces (waves.hpp, spectral_ocean.hpp,
/// height_grid.hpp) to WaterAction, and a surface that implements height()
/// alone already works. docs/waves.md, "Writing a surface".

#include <keel/config.hpp>
#include <keel/water_surface.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace keel::KEEL_ABI {

/// A grid of points snapped to world multiples of its cell, as a boat's
/// water patch asks for: node (i, j) lies at `u = (originI + i) cellSize_m`,
/// `v = (originJ + j) cellSize_m` [m], for i < nodesU and j < nodesV.
struct WaterGrid {
  double cellSize_m = 1;     ///< spacing along east and north [m]
  std::int64_t originI = 0;  ///< world cell index of node (0, 0) along u
  std::int64_t originJ = 0;  ///< world cell index of node (0, 0) along v
  int nodesU = 0;            ///< nodes along u (east)
  int nodesV = 0;            ///< nodes along v (north)
  /// Node column i's u and node row j's v [m], as a point query takes them.
  [[nodiscard]] btScalar u_m(int i) const { return btScalar(double(originI + i) * cellSize_m); }
  [[nodiscard]] btScalar v_m(int j) const { return btScalar(double(originJ + j) * cellSize_m); }
};

/// What a surface may keep with one patch from one sample to the next, so
/// that each starts from the last: the water moves little in a substep
/// (GerstnerSurface starts each node's Newton solve from its last solution).
/// Owned by a boat's patch, handed to the surface with its grid queries,
/// opaque to everyone else; a surface that keeps nothing ignores
/// it. The results stay the surface's answers to its own tolerance.
struct GridHistory {
  const void* owner = nullptr;  ///< the surface that wrote it: another starts afresh
  WaterGrid grid{};             ///< the grid it was written for
  double t_s = 0;               ///< the time it was written for [s]
  std::uint32_t samples = 0;    ///< samples since the surface last started afresh
  std::vector<double> values;   ///< the surface's own numbers
};

/// Where WaterSurface::gridHeightsAndVelocities() writes the water's
/// velocity: at every node of `window` (a boat's patch asks for the nodes
/// under its hull), at each of `depths_m` below the surface there (none:
/// heights only, `out` unused). A surface may write the other nodes'
/// velocities too, or leave them as they were; the heights are every
/// node's.
struct GridVelocities {
  std::span<const double> depths_m;  ///< below the local surface [m], each >= 0
  WaterVelocity* out = nullptr;      ///< `out[(j nodesU + i) depths + m]` [m/s], sized for the whole grid
  GridHistory* history = nullptr;    ///< the patch's memory for the surface, or null
  GridWindow window{};               ///< the nodes whose velocities are wanted
};

/// What a surface's queries roughly cost, for Sampling::Auto: nanoseconds
/// per point on one core of a current x86 CPU. Zero means "about nothing":
/// flat water, or a surface that does not say (Auto then samples directly).
/// Keel's own surfaces take theirs from keel_bench_query_cost
/// (docs/performance.md, "Choosing the sampling").
struct QueryCost {
  double height_ns = 0;             ///< heights(), per point
  double gridNode_ns = 0;           ///< a patch's node (gridHeights(), or heights() when it has none)
  double velocity_ns = 0;           ///< velocities(), per point
  double heightAndVelocity_ns = 0;  ///< heightsAndVelocities(), per point
  /// gridHeightsAndVelocities() per node and depth beyond gridNode_ns; 0
  /// when the surface has no such query.
  double gridNodeVelocity_ns = 0;
  /// gridHeightsAndVelocities() per node at the surface alone (one depth
  /// of 0) beyond gridNode_ns, for a boat's one water velocity; 0: the
  /// same as gridNodeVelocity_ns. The first depth can cost more than the
  /// mean of several (the spectral ocean's does).
  double gridNodeSurfaceVelocity_ns = 0;
  /// Points the batch queries evaluate together (a SIMD vector of them):
  /// asking fewer costs as much. A boat's one water velocity then comes
  /// from its patch's nodes when those cost less than this many points.
  double batchPoints = 1;
};

}  // namespace keel::KEEL_ABI
