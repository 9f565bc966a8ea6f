// Sampling::Auto's cost table: what the queries of each water surface Keel
// ships cost, as QueryCost defines them, in nanoseconds per point, node, or
// node and depth, on one core. Every surface's queryCost() reads its row
// here, and the substep's choice of sampling reads the patch's own costs.
//
// The rows are keel_bench_query_cost's output (tests/benchmark_query_cost.cpp),
// medians of 5 repetitions; docs/performance.md, "Choosing the sampling",
// names the machine and the command. When the kernels change, run it again
// and paste its rows in.
#pragma once

#include <keel/surface_authoring.hpp>

namespace keel::KEEL_ABI::detail {

/// SineSumSurface, per wave component: a cosine per component and point,
/// a complex multiplication per component and grid node.
inline constexpr QueryCost kSineSumPerComponent{.height_ns = 1.41,
                                                .gridNode_ns = 0.724,
                                                .velocity_ns = 4.42,
                                                .heightAndVelocity_ns = 4.34,
                                                .gridNodeVelocity_ns = 0.213,
                                                .gridNodeSurfaceVelocity_ns = 0.392};
/// GerstnerSurface, per wave component: a solve at each point, one at each
/// patch node (started from the last substep's), the velocity's
/// exponentials after a solve.
inline constexpr QueryCost kGerstnerPerComponent{.height_ns = 6.3,
                                                 .gridNode_ns = 2.93,
                                                 .velocity_ns = 8.02,
                                                 .heightAndVelocity_ns = 8.07,
                                                 .gridNodeVelocity_ns = 0.827,
                                                 .gridNodeSurfaceVelocity_ns = 2.17};
/// SpectralOcean with its fixed-point tiles (the default): interpolations
/// of the tiles, independent of the number of waves.
inline constexpr QueryCost kSpectralFixedPoints{.height_ns = 55.4,
                                                .gridNode_ns = 5.32,
                                                .velocity_ns = 167,
                                                .heightAndVelocity_ns = 170,
                                                .gridNodeVelocity_ns = 1.5,
                                                .gridNodeSurfaceVelocity_ns = 7.53};
/// SpectralOcean with SpectralQuery::ParticleSolve: a Newton solve per
/// point, no grid query.
inline constexpr QueryCost kSpectralParticleSolve{
    .height_ns = 362, .gridNode_ns = 337, .velocity_ns = 581, .heightAndVelocity_ns = 615, .gridNodeVelocity_ns = 0};
/// HeightGridSurface: an interpolation per point, no grid query.
inline constexpr QueryCost kHeightGrid{.height_ns = 7.56,
                                       .gridNode_ns = 7.89,
                                       .velocity_ns = 7.81,
                                       .heightAndVelocity_ns = 15.6,
                                       .gridNodeVelocity_ns = 0};
/// WakeField over flat water, two depth bands: the field's own share of
/// every query (bilinear reads of its tiles at two times; its grids a row
/// of nodes at a time, on the field's own nodes).
inline constexpr QueryCost kWakeFieldTwoBands{.height_ns = 7.84,
                                              .gridNode_ns = 3.31,
                                              .velocity_ns = 52.9,
                                              .heightAndVelocity_ns = 53.3,
                                              .gridNodeVelocity_ns = 2.24,
                                              .gridNodeSurfaceVelocity_ns = 9.92};

/// A sum of `components` waves: the row per component times their number,
/// asked `batchPoints` at a time.
[[nodiscard]] constexpr QueryCost perComponent(const QueryCost& row, double components, double batchPoints) {
  return {.height_ns = row.height_ns * components,
          .gridNode_ns = row.gridNode_ns * components,
          .velocity_ns = row.velocity_ns * components,
          .heightAndVelocity_ns = row.heightAndVelocity_ns * components,
          .gridNodeVelocity_ns = row.gridNodeVelocity_ns * components,
          .gridNodeSurfaceVelocity_ns = row.gridNodeSurfaceVelocity_ns * components,
          .batchPoints = batchPoints};
}

}  // namespace keel::KEEL_ABI::detail
