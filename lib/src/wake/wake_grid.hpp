#pragma once
// Internal to Keel: the vector part of keel::WakeField's grid queries
// (wake_grid_simd.cpp), laid out by wake_grid.cpp: each node's velocities
// at every depth from its bands'.

#include "math/round_up.hpp"

#include <LinearMath/btScalar.h>
#include <keel/config.hpp>
#include <keel/water_surface.hpp>

#include <cstddef>
#include <optional>

namespace keel::KEEL_ABI::detail {

/// The depth tables are padded to whole vectors of this many btScalars (the
/// widest the kernel uses).
inline constexpr std::size_t kWakeGridLanes = 8;

/// `n` rounded up to whole vectors of kWakeGridLanes.
[[nodiscard]] constexpr std::size_t wakeGridPadded(std::size_t n) { return roundUp(n, kWakeGridLanes); }

/// The field's velocities at a window of a grid's nodes and depths, added
/// to a grid query's answer: at node n and depth m, along each axis, the
/// sum over the bands b of `decay[b][m]` times band b's velocity at the
/// node.
struct WakeDepthJob {
  std::size_t nodesU, nodesV;  ///< the window's columns and rows of nodes
  std::size_t depths, bands;
  const btScalar* band;   ///< [bands][3][nodesV nodesU]: each band's east, north, up at each node [m/s]
  const btScalar* decay;  ///< [bands][wakeGridPadded(depths)]: e^{-k_b depth_m}, the padding 0
  btScalar* scratch;      ///< 3 (nodesU nodesV depths + kWakeGridLanes) btScalars
  /// The window's first node's [depths][3] (WaterVelocity) [m/s], each
  /// row's `outRow` btScalars after the row before's: added to, or with
  /// `uniform` (east, north, up) [m/s], set to it plus the field.
  btScalar* out;
  std::size_t outRow;
  const btScalar* uniform;
};

/// Runs the job on the CPU's best instruction set.
void addWakeDepths(const WakeDepthJob& job);

/// The ambient surface's grid with velocities (wake_ambient.cpp); or, when
/// it has none, its heights at the nodes and its velocities at their
/// depths at the window's nodes, asked as it answers them best. When its
/// velocity is the same everywhere, returns it instead of writing it at
/// every node and depth (the field's velocities are added to it).
[[nodiscard]] std::optional<WaterVelocity> ambientGrid(const WaterSurface& ambient, const WaterGrid& grid,
                                                       const GridVelocities& velocities, double t_s,
                                                       btScalar* heights_out_m);

}  // namespace keel::KEEL_ABI::detail
