#pragma once
// What keel::WakeField's point queries (wake_query.cpp) and grid queries
// (wake_grid.cpp) share: the blend of the update's two tiles in time, the
// check of a query's time, and each band's decay with depth.

#include "wake/wake_data.hpp"

namespace keel::KEEL_ABI::detail {

/// The weight of the update's end tiles at time t: linear in time, clamped
/// to [from, to] (1 for a still picture).
[[nodiscard]] double endWeight(const WakeFieldData& d, double t_s);

/// Throws std::invalid_argument for a time that is not finite.
void requireFiniteTime(double t_s);

/// Each band's decay `e^{k_b z}` at z [m] below the surface (1 above it).
void bandDecays(const WakeFieldData& d, double z_m, double* out);

}  // namespace keel::KEEL_ABI::detail
