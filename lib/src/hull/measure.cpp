// Hull construction, last stage: the integrals (volume, centroid, area) and
// the extent (bounds, radius) of the finished hull.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace keel::KEEL_ABI::detail::hull_build {

Bounds boundsOf(std::span<const btVector3> points) {
  Bounds bounds{btVector3(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT),
                -btVector3(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT)};
  for (const auto& p : points) {
    bounds.min.setMin(p);
    bounds.max.setMax(p);
  }
  return bounds;
}

double largestCoordinate_m(const Bounds& bounds) {
  double largest = 0;
  for (int axis = 0; axis < 3; ++axis)
    largest = std::max({largest, std::abs(double(bounds.min[axis])), std::abs(double(bounds.max[axis]))});
  return largest;
}

double coordinateSpacing_m(double magnitude_m) {
  const auto at = btScalar(magnitude_m);
  return double(std::nextafter(at, std::numeric_limits<btScalar>::infinity())) - double(at);
}

Measures measure(const Mesh& mesh) {
  Measures m;
  // Volume and centroid from the tetrahedra from the origin (each's centroid
  // is the mean of its four corners, the origin one of them).
  double volume_m3 = 0, area_m2 = 0;
  Vec3d moment_m4{0, 0, 0};
  for (const auto& tri : mesh.triangles) {
    const Vec3d a = toD(mesh.vertices[tri[0]]), b = toD(mesh.vertices[tri[1]]), c = toD(mesh.vertices[tri[2]]);
    const double v = originTetrahedronVolume_m3(a, b, c);
    volume_m3 += v;
    moment_m4 = {moment_m4.x + v * (a.x + b.x + c.x) / 4, moment_m4.y + v * (a.y + b.y + c.y) / 4,
                 moment_m4.z + v * (a.z + b.z + c.z) / 4};
    const double triangleArea_m2 = 0.5 * norm(cross(sub(b, a), sub(c, a)));
    m.triangleArea_m2.push_back(btScalar(triangleArea_m2));
    area_m2 += triangleArea_m2;
  }
  m.volume_m3 = btScalar(volume_m3);
  m.area_m2 = btScalar(area_m2);
  m.centroid = btVector3(btScalar(moment_m4.x / volume_m3), btScalar(moment_m4.y / volume_m3),
                         btScalar(moment_m4.z / volume_m3));
  const Bounds bounds = boundsOf(mesh.vertices);
  m.boundsMin = bounds.min;
  m.boundsMax = bounds.max;
  double radius_m = 0;
  for (const auto& p : mesh.vertices) radius_m = std::max(radius_m, norm(toD(p)));
  m.radius_m = btScalar(radius_m);
  return m;
}

}  // namespace keel::KEEL_ABI::detail::hull_build
