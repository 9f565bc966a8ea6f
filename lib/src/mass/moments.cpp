// Volume and area moments of triangle meshes (keel/volume_moments.hpp,
// docs/mass.md): signed tetrahedra from a reference point for the volume,
// triangles for the area, a plane clip for the part below a height.

#include <keel/volume_moments.hpp>

#include "hull/build_steps.hpp"
#include "hull/refuse_overlaps.hpp"
#include "mass/mass_detail.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace keel::KEEL_ABI {

using detail::hull_build::cross;
using detail::hull_build::dot;
using detail::hull_build::norm;
using detail::hull_build::sub;
using detail::hull_build::toD;
using detail::hull_build::Vec3d;

Moments& Moments::operator+=(const Moments& other) {
  zeroth += other.zeroth;
  for (int i = 0; i < 3; ++i) first[i] += other.first[i];
  for (int i = 0; i < 6; ++i) second[i] += other.second[i];
  return *this;
}

Moments Moments::scaled(double w) const {
  Moments m;
  m.zeroth = w * zeroth;
  for (int i = 0; i < 3; ++i) m.first[i] = w * first[i];
  for (int i = 0; i < 6; ++i) m.second[i] = w * second[i];
  return m;
}

namespace {

Vec3d add(const Vec3d& a, const Vec3d& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3d scale(const Vec3d& a, double s) { return {a.x * s, a.y * s, a.z * s}; }

/// Adds `w (sum over a, b, c of v v^T + s s^T)`, s = a + b + c, in the
/// order xx, yy, zz, xy, yz, zx. The second moment of the tetrahedron
/// (0, a, b, c) is this with w = its volume / 20 (Tonon 2005); of the
/// triangle (a, b, c) with w = its area / 12 (the same integral over the
/// 2-simplex).
void addSecond(std::array<double, 6>& out, double w, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
  const Vec3d s = add(add(a, b), c);
  out[0] += w * (a.x * a.x + b.x * b.x + c.x * c.x + s.x * s.x);
  out[1] += w * (a.y * a.y + b.y * b.y + c.y * c.y + s.y * s.y);
  out[2] += w * (a.z * a.z + b.z * b.z + c.z * c.z + s.z * s.z);
  out[3] += w * (a.x * a.y + b.x * b.y + c.x * c.y + s.x * s.y);
  out[4] += w * (a.y * a.z + b.y * b.z + c.y * c.z + s.y * s.z);
  out[5] += w * (a.z * a.x + b.z * b.x + c.z * c.x + s.z * s.x);
}

void addFirst(std::array<double, 3>& out, double w, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
  out[0] += w * (a.x + b.x + c.x);
  out[1] += w * (a.y + b.y + c.y);
  out[2] += w * (a.z + b.z + c.z);
}

/// The signed tetrahedron (0, a, b, c), corners relative to the reference
/// point: summed over a closed outward surface, the solid's moments about
/// that point (the divergence theorem with the field x/3).
void addTetrahedron(Moments& m, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
  const double volume_m3 = dot(a, cross(b, c)) / 6;
  m.zeroth += volume_m3;
  addFirst(m.first, volume_m3 / 4, a, b, c);
  addSecond(m.second, volume_m3 / 20, a, b, c);
}

/// Moments about `p` moved to the origin: x = p + r.
Moments aboutOrigin(const Moments& m, const Vec3d& p) {
  const double q[3] = {p.x, p.y, p.z};
  Moments out = m;
  for (int i = 0; i < 3; ++i) out.first[i] += m.zeroth * q[i];
  static constexpr int kPairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {2, 0}};
  for (int k = 0; k < 6; ++k) {
    const int i = kPairs[k][0], j = kPairs[k][1];
    out.second[k] += q[i] * m.first[j] + q[j] * m.first[i] + m.zeroth * q[i] * q[j];
  }
  return out;
}

/// Checks the mesh and returns the centre of its bounds, the reference
/// point that keeps the tetrahedra small (less cancellation than the origin).
Vec3d checkedCentre(std::span<const btVector3> vertices, std::span<const Hull::Triangle> triangles) {
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (std::uint32_t index : triangles[t])
      if (index >= vertices.size()) {
        std::ostringstream s;
        s << "keel::volumeMoments: triangle " << t << " refers to vertex " << index << " of " << vertices.size();
        throw std::invalid_argument(s.str());
      }
  Vec3d lo{0, 0, 0}, hi{0, 0, 0};
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    const Vec3d v = toD(vertices[k]);
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
      std::ostringstream s;
      s << "keel::volumeMoments: vertex " << k << " is not finite";
      throw std::invalid_argument(s.str());
    }
    lo = k == 0 ? v : Vec3d{std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
    hi = k == 0 ? v : Vec3d{std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
  }
  return scale(add(lo, hi), 0.5);
}

}  // namespace

Moments volumeMoments(std::span<const btVector3> vertices, std::span<const Hull::Triangle> triangles) {
  const Vec3d p = checkedCentre(vertices, triangles);
  Moments m;
  for (const auto& tri : triangles)
    addTetrahedron(m, sub(toD(vertices[tri[0]]), p), sub(toD(vertices[tri[1]]), p), sub(toD(vertices[tri[2]]), p));
  return aboutOrigin(m, p);
}

Moments volumeMoments(const Hull& hull) {
  detail::refuseOverlappingParts(hull, "keel::volumeMoments");
  return volumeMoments(hull.vertices(), hull.triangles());
}

Moments volumeMomentsBelow(std::span<const btVector3> vertices, std::span<const Hull::Triangle> triangles,
                           const btVector3& up, double height_m) {
  const Vec3d n = detail::unitDirection(up, "keel::volumeMomentsBelow: up");
  if (!std::isfinite(height_m)) throw std::invalid_argument("keel::volumeMomentsBelow: the height is not finite");
  const Vec3d centre = checkedCentre(vertices, triangles);
  // A plane clear of the mesh keeps all of it or none, exactly: clipping
  // from a reference point far away would cancel catastrophically.
  double lowest_m = std::numeric_limits<double>::infinity(), highest_m = -lowest_m;
  for (const btVector3& v : vertices) {
    lowest_m = std::min(lowest_m, dot(n, toD(v)));
    highest_m = std::max(highest_m, dot(n, toD(v)));
  }
  if (height_m >= highest_m) return volumeMoments(vertices, triangles);
  if (height_m < lowest_m) return {};
  // The reference point lies in the plane, so every tetrahedron on the cap
  // polygon is flat: the cap closes the clipped solid at no cost.
  const Vec3d p = add(centre, scale(n, height_m - dot(n, centre)));
  Moments m;
  for (const auto& tri : triangles) {
    Vec3d corner[3];
    double distance[3];
    for (int k = 0; k < 3; ++k) {
      corner[k] = sub(toD(vertices[tri[k]]), p);
      distance[k] = dot(n, corner[k]);
    }
    // Sutherland-Hodgman: the triangle's part with distance <= 0 (at most 4 corners).
    Vec3d kept[4];
    int count = 0;
    for (int k = 0; k < 3; ++k) {
      const int next = (k + 1) % 3;
      if (distance[k] <= 0) kept[count++] = corner[k];
      if ((distance[k] <= 0) != (distance[next] <= 0))
        kept[count++] = detail::edgeCrossing(corner[k], distance[k], corner[next], distance[next]);
    }
    for (int k = 1; k + 1 < count; ++k) addTetrahedron(m, kept[0], kept[k], kept[k + 1]);
  }
  return aboutOrigin(m, p);
}

Moments volumeMomentsBelow(const Hull& hull, const btVector3& up, double height_m) {
  detail::refuseOverlappingParts(hull, "keel::volumeMomentsBelow");
  return volumeMomentsBelow(hull.vertices(), hull.triangles(), up, height_m);
}

Moments areaMoments(const Hull& hull) {
  detail::refuseOverlappingParts(hull, "keel::areaMoments");
  const Vec3d p = checkedCentre(hull.vertices(), hull.triangles());
  Moments m;
  for (const auto& tri : hull.triangles()) {
    const Vec3d a = sub(toD(hull.vertices()[tri[0]]), p), b = sub(toD(hull.vertices()[tri[1]]), p),
                c = sub(toD(hull.vertices()[tri[2]]), p);
    const double area_m2 = 0.5 * norm(cross(sub(b, a), sub(c, a)));
    m.zeroth += area_m2;
    addFirst(m.first, area_m2 / 3, a, b, c);
    addSecond(m.second, area_m2 / 12, a, b, c);
  }
  return aboutOrigin(m, p);
}

namespace detail {

Vec3d edgeCrossing(Vec3d a, double da, Vec3d b, double db) {
  if (std::tie(b.x, b.y, b.z) < std::tie(a.x, a.y, a.z)) {
    std::swap(a, b);
    std::swap(da, db);
  }
  return add(a, scale(sub(b, a), da / (da - db)));
}

}  // namespace detail

}  // namespace keel::KEEL_ABI
