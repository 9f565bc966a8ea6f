#pragma once
// Internal to Keel: a HullAxes made an orthonormal frame, shared by the
// attitude (heel, trim) and the displacement at a heel and trim.

#include <keel/attitude.hpp>

namespace keel::KEEL_ABI::detail {

/// A hull's axes in its body frame, unit and orthogonal; starboard is
/// forward x up.
struct UnitHullAxes {
  btVector3 forward, up, starboard;
};

/// `axes` with up made perpendicular to forward (Gram-Schmidt) and both
/// unit. Throws std::invalid_argument when they are zero or parallel.
[[nodiscard]] UnitHullAxes unitHullAxes(const HullAxes& axes);

}  // namespace keel::KEEL_ABI::detail
