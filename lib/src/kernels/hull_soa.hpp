#pragma once
// The hull as the SIMD kernels read it: structure of arrays in its own body
// frame, triangles in the kernels' order (docs/model.md, "The SIMD path").
//
// Why the body frame: a whole hull triangle's corners, area vector and
// centroid never change there, so nothing is rotated per vertex; only the up
// axis, the boat's velocities and the water's velocities are turned into it,
// and the sums are turned back to world axes once per boat.

#include "math/round_up.hpp"

#include <keel/hull.hpp>

#include <LinearMath/btScalar.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace keel::KEEL_ABI::detail {

/// Signed integer as wide as btScalar: the gather instructions index with it.
using ScalarIndex = std::conditional_t<sizeof(btScalar) == 4, std::int32_t, std::int64_t>;

/// Every kernel array is a multiple of this many entries long: the lanes of
/// the widest vector (16 floats or 8 doubles in 64 bytes).
inline constexpr std::size_t kPad = 16;
[[nodiscard]] inline std::size_t padded(std::size_t n) { return roundUp(n, kPad); }

/// A hull in structure-of-arrays form, body frame [m]. The triangles are in
/// the kernels' own order (`triangle` maps back to the hull's): sorted by the
/// height of their centroid along the hull's shortest axis, then padding
/// entries, which have zero area (the kernels skip them by that) and use
/// vertex 0.
struct HullSoA {
  std::size_t vertexCount = 0, vertexPadded = 0, triangleCount = 0;
  std::vector<std::uint32_t> triangle;  ///< each entry's index in Hull::triangles(), ~0 for padding
  std::size_t trianglePadded = 0;       ///< entries, padding included (a multiple of kPad)
  std::vector<btScalar> x, y, z;        ///< vertices, body frame [m]
  /// Each triangle's corners, its vertex indices packed i0 | i1 << 21 | i2 << 42: one load for three.
  std::vector<std::uint64_t> corners;
  static constexpr int kCornerBits = 21;
  static constexpr std::uint64_t kCornerMask = (std::uint64_t(1) << kCornerBits) - 1;
  static constexpr std::size_t kMaxVertices = std::size_t(1) << kCornerBits;  ///< Hull rejects more
  /// Three vertex indices (each < kMaxVertices) in one word.
  [[nodiscard]] static constexpr std::uint64_t pack(std::uint64_t i0, std::uint64_t i1, std::uint64_t i2) {
    return i0 | i1 << kCornerBits | i2 << (2 * kCornerBits);
  }
  /// Corner k (0, 1, 2) of a packed word.
  [[nodiscard]] static constexpr std::size_t corner(std::uint64_t packed, int k) {
    return std::size_t((packed >> (k * kCornerBits)) & kCornerMask);
  }
  /// Each triangle's corners' vertices, one array per corner (0 for
  /// padding), as lane indices: a hull of at most a vector of vertices looks
  /// its corners' heights up in that vector (classify.cpp).
  std::vector<ScalarIndex> vertexOf[3];
  std::vector<btScalar> ax, ay, az, bx, by, bz, cx, cy, cz;  ///< triangle corners' positions [m]
  std::vector<btScalar> gx, gy, gz;                          ///< triangle centroids [m]
  std::vector<btScalar> sx, sy, sz, area;                    ///< area vector S = n A, area A [m^2]
  std::vector<btScalar> csx, csy, csz;                       ///< centroid x area vector [m^3]
  std::vector<btScalar> inverseArea;                         ///< 1 / A [1/m^2] (0 for padding)
  /// What the waterline cut needs of a triangle, one record of four groups
  /// of four: (a, A), (b, 0), (c, 0), (S, 0) [m, m^2].
  static constexpr std::size_t kCutRecord = 16;
  std::vector<btScalar> cutRecord;
  /// A hull of one block of triangles (trianglePadded == kPad) in float also keeps
  /// the fields the small hull's kernel reads (cut.hpp's smallHullSums) in
  /// one array, field f's kPad entries from f kPad on, so that they are
  /// read from one pointer; empty for any other hull.
  enum SmallField { kSmallA, kSmallB = 3, kSmallC = 6, kSmallG = 9, kSmallS = 12, kSmallArea = 15, kSmallFields };
  std::vector<btScalar> smallFields;
  /// Per block of kPad entries: the box around its triangles' corners
  /// (x, y, z of the lowest, then of the highest corner) [m].
  std::vector<btScalar> blockLow, blockHigh;
  btScalar blockReach = 0;  ///< no corner is farther from the origin [m]
  explicit HullSoA(const Hull& hull);
  /// No hull: a point set, for the vertex arrays only (the column model's
  /// sampling points, columns/column_soa.hpp).
  HullSoA() = default;
};

}  // namespace keel::KEEL_ABI::detail

namespace keel::KEEL_ABI {

/// Hull's opaque kernel form (lib/src/internals.hpp): the HullSoA itself.
struct Hull::Kernels final : detail::HullSoA {
  using HullSoA::HullSoA;
};

}  // namespace keel::KEEL_ABI
