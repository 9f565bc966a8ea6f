// The surfaces of keel::appendShape's curved primitives (solids of
// revolution), of its convex shapes (convex hulls of their points), and of
// a box.

#include "hull/shape_solids.hpp"

#include "hull/build_steps.hpp"
#include "math/det_math.hpp"

#include <LinearMath/btConvexHullComputer.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI::detail::shape {
namespace {

struct CosSin {
  double cos, sin;
};

/// The n-th roots of unity, n a multiple of 4: the first quarter from
/// det::sinCos (the same bits on every machine, as the hull's vertices must
/// be for lockstep), the rest by exact quarter turns, so the polygon is
/// symmetric to the last bit and its centroid lies on the axis.
std::vector<CosSin> unitCircle(int n) {
  const std::size_t count = std::size_t(n), quarter = count / 4;
  std::vector<CosSin> ring(count, CosSin{0, 0});
  for (std::size_t k = 0; k < quarter; ++k) {
    const det::SinCos sc = det::sinCos(2 * det::kPiHigh * double(k) / double(n));
    const double c = k == 0 ? 1.0 : sc.cosine, s = k == 0 ? 0.0 : sc.sine;
    ring[k] = {c, s};
    ring[k + quarter] = {0.0 - s, c};
    ring[k + 2 * quarter] = {0.0 - c, 0.0 - s};
    ring[k + 3 * quarter] = {s, 0.0 - c};
  }
  return ring;
}

/// The point scaled by `s` (ProfilePoint).
ProfilePoint scaled(const ProfilePoint& p, double s) {
  return {s * p.radius_m, p.centre_m + s * (p.axial_m - p.centre_m), p.centre_m};
}

/// The exact volume [m^3] of the polyhedron `appendRevolution` makes of
/// `profile` scaled by `s`: each band between two rings is a frustum of a
/// regular n-gon pyramid, `h/3 (A1 + sqrt(A1 A2) + A2)`, the n-gon of radius
/// r having area `(n/2) sin(2 pi/n) r^2`.
double polyhedronVolume_m3(std::span<const ProfilePoint> profile, int n, double sinStep, double s) {
  double sum = 0;
  for (std::size_t i = 0; i + 1 < profile.size(); ++i) {
    const ProfilePoint p = scaled(profile[i], s), q = scaled(profile[i + 1], s);
    sum += (q.axial_m - p.axial_m) * (p.radius_m * p.radius_m + p.radius_m * q.radius_m + q.radius_m * q.radius_m);
  }
  return sum / 3 * (double(n) / 2 * sinStep);
}

/// The scale at which the polyhedron's volume is `exact_m3`, by bisection
/// (the volume grows with the scale; a cubic in it, at most).
double scaleToVolume(std::span<const ProfilePoint> profile, int n, double sinStep, double exact_m3) {
  double low = 0.5, high = 2;
  while (polyhedronVolume_m3(profile, n, sinStep, high) < exact_m3) high *= 2;
  for (int i = 0; i < 200 && low < high; ++i) {
    const double mid = 0.5 * (low + high);
    if (mid == low || mid == high) break;
    (polyhedronVolume_m3(profile, n, sinStep, mid) < exact_m3 ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

void addTriangle(const btVector3& a, const btVector3& b, const btVector3& c, Soup& out) {
  out.push_back(a);
  out.push_back(b);
  out.push_back(c);
}

}  // namespace

void appendBox(const btVector3& halfExtents_m, const btTransform& pose, Soup& out) {
  const btVector3& h = halfExtents_m;
  // Corner k has x sign from bit 0, y from bit 1, z from bit 2.
  btVector3 corner[8];
  for (int k = 0; k < 8; ++k)
    corner[k] = pose * btVector3((k & 1) ? h.x() : -h.x(), (k & 2) ? h.y() : -h.y(), (k & 4) ? h.z() : -h.z());
  // Each face as a quad wound counter-clockwise seen from outside.
  static constexpr int kFaces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5},   // -x, +x
                                       {0, 1, 5, 4}, {2, 6, 7, 3},   // -y, +y
                                       {0, 2, 3, 1}, {4, 5, 7, 6}};  // -z, +z
  for (const auto& f : kFaces) {
    addTriangle(corner[f[0]], corner[f[1]], corner[f[2]], out);
    addTriangle(corner[f[0]], corner[f[2]], corner[f[3]], out);
  }
}

int segmentsAround(double radius_m, const ShapeTessellation& tessellation) {
  const int fewest = std::max(4, (tessellation.minSegments + 3) / 4 * 4);
  const int most = std::max(fewest, tessellation.maxSegments / 4 * 4);
  int n = fewest;
  // The sagitta of one segment's arc, r (1 - cos(pi/n)), against the bound.
  while (n < most && radius_m * (1 - det::cos(det::kPiHigh / double(n))) > double(tessellation.maxChordError_m)) n += 4;
  return n;
}

std::vector<ProfilePoint> roundedProfile(double radius_m, double halfHeight_m, int segments) {
  // Meridians cut at the same angle as the circles: n/4 steps a hemisphere.
  const int quarter = segments / 4;
  const std::vector<CosSin> ring = unitCircle(segments);
  std::vector<ProfilePoint> profile;
  for (int j = 0; j <= quarter; ++j) {  // the lower hemisphere, pole to equator
    const CosSin& a = ring[std::size_t(j)];
    profile.push_back({radius_m * a.sin, -halfHeight_m - radius_m * a.cos, -halfHeight_m});
  }
  for (int j = halfHeight_m > 0 ? quarter : quarter + 1; j <= 2 * quarter; ++j) {  // the upper one
    const CosSin& a = ring[std::size_t(j)];
    profile.push_back({radius_m * a.sin, halfHeight_m - radius_m * a.cos, halfHeight_m});
  }
  profile.front().radius_m = profile.back().radius_m = 0;  // the poles lie on the axis exactly
  return profile;
}

void appendRevolution(std::span<const ProfilePoint> profile, int segments, int upAxis, double exact_m3,
                      bool scaleToExact, const btTransform& pose, Soup& out) {
  const std::vector<CosSin> ring = unitCircle(segments);
  const double s = scaleToExact ? scaleToVolume(profile, segments, ring[1].sin, exact_m3) : 1.0;
  // (u, v, axis) is right-handed, so that the angle grows counter-clockwise
  // seen from the axis' tip.
  const int u = (upAxis + 1) % 3, v = (upAxis + 2) % 3;
  const auto at = [&](const ProfilePoint& unscaled, int k) {
    const ProfilePoint p = scaled(unscaled, s);
    const CosSin& a = ring[std::size_t(k % segments)];
    btVector3 local(0, 0, 0);
    local[upAxis] = btScalar(p.axial_m);
    local[u] = p.radius_m == 0 ? btScalar(0) : btScalar(p.radius_m * a.cos);
    local[v] = p.radius_m == 0 ? btScalar(0) : btScalar(p.radius_m * a.sin);
    return pose * local;
  };
  for (std::size_t i = 0; i + 1 < profile.size(); ++i) {
    const ProfilePoint &p = profile[i], &q = profile[i + 1];
    if (p.radius_m == 0 && q.radius_m == 0) continue;
    for (int k = 0; k < segments; ++k) {
      if (p.radius_m == 0) {
        addTriangle(at(p, 0), at(q, k + 1), at(q, k), out);
      } else if (q.radius_m == 0) {
        addTriangle(at(p, k), at(p, k + 1), at(q, 0), out);
      } else {
        addTriangle(at(p, k), at(p, k + 1), at(q, k + 1), out);
        addTriangle(at(p, k), at(q, k + 1), at(q, k), out);
      }
    }
  }
}

void appendConvexHull(std::span<const btVector3> points, const btTransform& pose, Soup& out) {
  btConvexHullComputer hull;
  const btScalar* coordinates = points.empty() ? nullptr : &points[0].x();
  hull.compute(coordinates, int(sizeof(btVector3)), int(points.size()), 0, 0);
  // The corners are the given points themselves: the computer's own
  // vertices are rounded through its integer arithmetic.
  const auto corner = [&](int vertex) { return points[std::size_t(hull.original_vertex_index[vertex])]; };
  Soup faces;
  for (int f = 0; f < hull.faces.size(); ++f) {
    // Each face is a convex polygon, its edges counter-clockwise seen from
    // outside: a fan from its first corner.
    const btConvexHullComputer::Edge* first = &hull.edges[hull.faces[f]];
    const btVector3 apex = corner(first->getSourceVertex());
    for (const btConvexHullComputer::Edge* e = first->getNextEdgeOfFace();
         e->getTargetVertex() != first->getSourceVertex(); e = e->getNextEdgeOfFace())
      addTriangle(apex, corner(e->getSourceVertex()), corner(e->getTargetVertex()), faces);
  }
  namespace hb = hull_build;
  double volume_m3 = 0;
  for (std::size_t t = 0; t < faces.size(); t += 3)
    volume_m3 += hb::originTetrahedronVolume_m3(hb::toD(faces[t]), hb::toD(faces[t + 1]), hb::toD(faces[t + 2]));
  const double diagonal_m = faces.empty() ? 0.0 : hb::boundingDiagonal_m(faces);
  if (hull.faces.size() < 4 || !(volume_m3 > 1e-9 * diagonal_m * diagonal_m * diagonal_m))
    throw std::invalid_argument("its " + std::to_string(points.size()) +
                                " points span no volume (fewer than 4, or all on one plane or line)");
  for (const btVector3& p : faces) out.push_back(pose * p);
}

}  // namespace keel::KEEL_ABI::detail::shape
