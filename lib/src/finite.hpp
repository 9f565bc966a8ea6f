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

/// x - x for each component, summed: +0 when every one is finite, NaN when
/// one is infinite or NaN (IEEE 754: inf - inf is NaN).
[[nodiscard]] inline btScalar finiteZero(const btVector3& v) {
  return (v.x() - v.x()) + (v.y() - v.y()) + (v.z() - v.z());
}

/// Whether a transform's origin and every row of its basis are finite: its
/// twelve components tested by one comparison (finiteZero's), not one
/// branch each.
[[nodiscard]] inline bool isFinite(const btTransform& t) {
  const btMatrix3x3& b = t.getBasis();
  return (finiteZero(t.getOrigin()) + finiteZero(b[0])) + (finiteZero(b[1]) + finiteZero(b[2])) == btScalar(0);
}

}  // namespace keel::KEEL_ABI::detail
