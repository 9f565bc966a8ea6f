#pragma once
// Internal to Keel: whether a vector or a transform holds only finite
// values, the one test every input check and the substep's guards share.

#include <keel/config.hpp>

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <cmath>

namespace keel::KEEL_ABI::detail {

/// Whether every component of `v` is finite.
[[nodiscard]] inline bool isFinite(const btVector3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

/// Whether a transform's origin and every row of its basis are finite.
[[nodiscard]] inline bool isFinite(const btTransform& t) {
  const btMatrix3x3& b = t.getBasis();
  return isFinite(t.getOrigin()) && isFinite(b[0]) && isFinite(b[1]) && isFinite(b[2]);
}

}  // namespace keel::KEEL_ABI::detail
