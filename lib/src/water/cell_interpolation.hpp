#pragma once
// The water's height inside one square cell of sampled heights, shared by
// keel::WaterPatch and keel::HeightGridSurface so that both interpolate the
// same way (docs/model.md §1, "Water sampling").

#include <keel/config.hpp>

namespace keel::KEEL_ABI::detail {

/// Height [m] at fractions (a, b) in [0, 1] along the cell's two axes, from
/// the corner heights h00 at (0, 0), h10 at (1, 0), h01 at (0, 1) and h11 at
/// (1, 1) [m]: the cell is split on its (1,0)-(0,1) diagonal into two
/// triangles, each a plane (Kerner's precomputed plane equations, part 1,
/// evaluated here in barycentric form). A plane is reproduced exactly; a
/// surface whose second derivatives are at most M errs by at most
/// `M cell^2 / 4`.
inline double cellHeight(double h00, double h10, double h01, double h11, double a, double b) {
  if (a + b <= 1.0) return h00 + a * (h10 - h00) + b * (h01 - h00);
  return h11 + (1.0 - a) * (h01 - h11) + (1.0 - b) * (h10 - h11);
}

}  // namespace keel::KEEL_ABI::detail
