#pragma once
// Internal to Keel: whether a vector or a transform holds only finite
// values, the one test every input check and the substep's guards share;
// and the substep's products of a vector and a basis in a form the
// compiler vectorises.

#include <keel/config.hpp>

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <cmath>

namespace keel::KEEL_ABI::detail {

/// Whether every component of `v` is finite.
[[nodiscard]] inline bool isFinite(const btVector3& v) {
  return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

/// x - x for each component of `v...`, summed: +0 when every one is finite,
/// NaN when one is infinite or NaN (IEEE 754: inf - inf is NaN). Summed lane
/// by lane over the vectors (a few vector operations), then across x, y
/// and z (the fourth lane, padding, is summed with them and left out).
template <class... Vectors>
[[nodiscard]] inline btScalar finiteZero(const Vectors&... v) {
  btScalar lane[4];
  for (int i = 0; i < 4; ++i) lane[i] = (... + (v[i] - v[i]));
  return (lane[0] + lane[1]) + lane[2];
}

/// Whether a transform's origin and every row of its basis are finite: its
/// twelve components tested by one comparison (finiteZero's), not one
/// branch each.
[[nodiscard]] inline bool isFinite(const btTransform& t) {
  const btMatrix3x3& b = t.getBasis();
  return finiteZero(t.getOrigin(), b[0], b[1], b[2]) == btScalar(0);
}

/// a + b, as btVector3's + makes it on x, y and z (the same bits), taken
/// lane by lane: a vector addition, whose whole result a wide store keeps.
/// The fourth lane is the padding's sum.
[[nodiscard]] inline btVector3 plusLanes(const btVector3& a, const btVector3& b) {
  btVector3 r;
  btScalar* out = r;
  for (int i = 0; i < 4; ++i) out[i] = a[i] + b[i];
  return r;
}

/// v M, as Bullet's operator*(btVector3, btMatrix3x3) makes it (each
/// component M's column dotted with v: (m0 v.x + m1 v.y) + m2 v.z, rows
/// m0, m1, m2, in that order, so the same bits), taken as the rows scaled
/// and added lane by lane: a few vector operations where Bullet's three
/// dot products down the columns compile to scalar ones. The fourth lane is
/// the rows' (zero) scaled and added.
[[nodiscard]] inline btVector3 timesRows(const btVector3& v, const btMatrix3x3& m) {
  const btScalar *m0 = m[0], *m1 = m[1], *m2 = m[2];
  btVector3 r;
  btScalar* out = r;
  for (int i = 0; i < 4; ++i) out[i] = m0[i] * v.x() + m1[i] * v.y() + m2[i] * v.z();
  return r;
}

}  // namespace keel::KEEL_ABI::detail
