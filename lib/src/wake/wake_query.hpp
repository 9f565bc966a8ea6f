#pragma once
// What keel::WakeField's point queries (wake_query.cpp) and grid queries
// (wake_grid.cpp) share: the blend of the update's two tiles in time, the
// check of a query's time, and each band's decay with depth.

#include "wake/wake_data.hpp"

#include <array>
#include <span>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// The weight of the update's end tiles at time t: linear in time, clamped
/// to [from, to] (1 for a still picture).
[[nodiscard]] double endWeight(const WakeFieldData& d, double t_s);

/// Throws std::invalid_argument for a time that is not finite.
void requireFiniteTime(double t_s);

/// Each band's decay `e^{k_b z}` at z [m] below the surface (1 above it).
void bandDecays(const WakeFieldData& d, double z_m, double* out);

/// Each band's decay at each of a grid query's depths below the local
/// surface: every node's are the same, so once for the whole grid, and
/// again only when the depths or the bands change (a boat's patch asks the
/// same depths substep after substep).
struct DepthDecays {
  std::vector<btScalar> table;  ///< [bands][padded]: band b's decay at depth m, the padding 0
  std::vector<double> depths_m;
  std::array<double, kMaxDepthBands> k_radpm{};
  std::size_t bands = 0;
  /// The table for `depths_m` [m] and the field's first `bands` bands, each
  /// band's row `padded` (>= the depths) long, unless it holds it already.
  void update(const WakeFieldData& d, std::span<const double> depths_m, std::size_t bands, std::size_t padded);
};

}  // namespace keel::KEEL_ABI::detail
