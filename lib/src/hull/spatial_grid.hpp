#pragma once
// Internal to Keel: the geometry nesting.cpp tests parts with, in double
// [m]: boxes, triangles' corners, a grid that finds the triangles near a
// box, and winding numbers by rays along the axes.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace keel::KEEL_ABI::detail::hull_build {

/// An axis-aligned box in double [m].
struct Box {
  Vec3d lo, hi;
};
/// A triangle's three corners [m].
struct Corners {
  Vec3d p[3];
};

[[nodiscard]] inline Corners cornersOf(const Mesh& mesh, std::uint32_t t) {
  const Hull::Triangle& tri = mesh.triangles[t];
  return {{toD(mesh.vertices[tri[0]]), toD(mesh.vertices[tri[1]]), toD(mesh.vertices[tri[2]])}};
}
[[nodiscard]] inline Vec3d centroidOf(const Corners& c) {
  return {(c.p[0].x + c.p[1].x + c.p[2].x) / 3, (c.p[0].y + c.p[1].y + c.p[2].y) / 3,
          (c.p[0].z + c.p[1].z + c.p[2].z) / 3};
}
/// Coordinate `axis` (0, 1, 2) of `v`.
[[nodiscard]] inline double at(const Vec3d& v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

/// The box around `c`, grown by `grow_m` on every side.
[[nodiscard]] inline Box boxOf(const Corners& c, double grow_m) {
  const auto lo = [&](double a, double b, double d) { return std::min({a, b, d}) - grow_m; };
  const auto hi = [&](double a, double b, double d) { return std::max({a, b, d}) + grow_m; };
  return {{lo(c.p[0].x, c.p[1].x, c.p[2].x), lo(c.p[0].y, c.p[1].y, c.p[2].y), lo(c.p[0].z, c.p[1].z, c.p[2].z)},
          {hi(c.p[0].x, c.p[1].x, c.p[2].x), hi(c.p[0].y, c.p[1].y, c.p[2].y), hi(c.p[0].z, c.p[1].z, c.p[2].z)}};
}
[[nodiscard]] inline Box boxOf(const Bounds& b, double grow_m) {
  const Vec3d lo = toD(b.min), hi = toD(b.max);
  return {{lo.x - grow_m, lo.y - grow_m, lo.z - grow_m}, {hi.x + grow_m, hi.y + grow_m, hi.z + grow_m}};
}
[[nodiscard]] inline bool overlap(const Box& a, const Box& b) {
  return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
         b.lo.z <= a.hi.z;
}
[[nodiscard]] inline Box intersection(const Box& a, const Box& b) {
  return {{std::max(a.lo.x, b.lo.x), std::max(a.lo.y, b.lo.y), std::max(a.lo.z, b.lo.z)},
          {std::min(a.hi.x, b.hi.x), std::min(a.hi.y, b.hi.y), std::min(a.hi.z, b.hi.z)}};
}
[[nodiscard]] inline bool contains(const Box& b, const Vec3d& p) { return overlap(b, Box{p, p}); }

/// Some triangles of a mesh binned in a uniform grid of cells over a box,
/// each in every cell its box (grown by `grow_m`) meets; one cell across
/// `wholeAxis` (0, 1, 2) when given, making columns along it.
class CellGrid {
 public:
  CellGrid(const Mesh& mesh, std::span<const std::uint32_t> triangles, const Box& box, double grow_m,
           int wholeAxis = -1);
  /// Calls `found(k)` for the position k in `triangles` of each triangle
  /// binned in a cell `box` meets (some more than once).
  template <class Found>
  void forEachNear(const Box& box, Found found) const {
    int first[3], last[3];
    for (int axis = 0; axis < 3; ++axis) {
      first[axis] = cellOf(at(box.lo, axis), axis);
      last[axis] = cellOf(at(box.hi, axis), axis);
    }
    for (int i = first[0]; i <= last[0]; ++i)
      for (int j = first[1]; j <= last[1]; ++j)
        for (int k = first[2]; k <= last[2]; ++k) {
          const std::size_t cell = (std::size_t(i) * cells_[1] + std::size_t(j)) * cells_[2] + std::size_t(k);
          for (std::uint32_t n = start_[cell]; n < start_[cell + 1]; ++n) found(items_[n]);
        }
  }

 private:
  [[nodiscard]] int cellOf(double x, int axis) const {
    const double cell = std::floor((x - at(box_.lo, axis)) / size_[axis]);
    return int(std::clamp(cell, 0.0, double(cells_[axis] - 1)));
  }
  Box box_;
  int cells_[3];
  double size_[3];  // [m]
  std::vector<std::uint32_t> start_, items_;
};

/// A part's winding number at a point.
struct PartWinding {
  std::size_t part;
  int winding;
};

/// Winding numbers of closed parts by rays along +x, +y or +z: each face
/// the ray crosses counts +1 when it faces along the ray (the ray leaves the
/// part), -1 when against it. A ray that passes within the tolerance of an
/// edge is tried along the next axis.
class WindingRays {
 public:
  /// Over `triangles` (whole parts of `mesh`); surfaces closer than `tol_m` [m] touch.
  WindingRays(const Mesh& mesh, std::span<const Part> parts, std::vector<std::uint32_t> triangles, double tol_m);
  /// Each part's non-zero winding number at `p` into `out`; false when `p`
  /// is on a surface or every axis's ray grazes an edge.
  bool windingAt(const Vec3d& p, std::vector<PartWinding>& out) const;

 private:
  const Mesh& mesh_;
  std::span<const Part> parts_;
  std::vector<std::uint32_t> triangles_;
  std::vector<std::uint32_t> partOf_;  // per mesh triangle
  double tol_m_;
  std::vector<CellGrid> columns_;  // one per axis
};

}  // namespace keel::KEEL_ABI::detail::hull_build
