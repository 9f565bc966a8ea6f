// keel::simplifiedHull: fewer triangles where a closed mesh is flat or nearly
// (meshoptimizer's edge-collapse simplifier, with the quadric error metric
// of Garland and Heckbert, "Surface simplification using quadric error
// metrics", SIGGRAPH 1997). For compartments: their floodwater's level is
// found by cutting their mesh every substep, and a slice of a fine hull
// keeps the hull's triangles where a few would hold the same volume
// (docs/flooding.md, "Cost").
#include <keel/hull_slice.hpp>

#include <meshoptimizer.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::KEEL_ABI {

std::shared_ptr<const Hull> simplifiedHull(std::shared_ptr<const Hull> hull, btScalar tolerance_m) {
  if (!hull) throw std::invalid_argument("keel::simplifiedHull: no hull (null)");
  if (!(tolerance_m >= 0) || !std::isfinite(tolerance_m))
    throw std::invalid_argument("keel::simplifiedHull: the tolerance " + std::to_string(tolerance_m) +
                                " m must be finite and >= 0");
  if (tolerance_m == 0) return hull;
  const auto vertices = hull->vertices();
  std::vector<float> positions;
  positions.reserve(3 * vertices.size());
  for (const btVector3& v : vertices) positions.insert(positions.end(), {float(v.x()), float(v.y()), float(v.z())});
  std::vector<unsigned int> indices;
  indices.reserve(3 * hull->triangles().size());
  for (const Hull::Triangle& t : hull->triangles()) indices.insert(indices.end(), {t[0], t[1], t[2]});
  // The simplifier's error is relative to the mesh's extent; as few
  // triangles as the tolerance allows (target 0).
  const float scale = meshopt_simplifyScale(positions.data(), vertices.size(), 3 * sizeof(float));
  std::vector<unsigned int> kept(indices.size());
  const std::size_t count = meshopt_simplify(kept.data(), indices.data(), indices.size(), positions.data(),
                                             vertices.size(), 3 * sizeof(float), 0, float(tolerance_m) / scale, 0,
                                             nullptr);
  if (count >= indices.size()) return hull;
  std::vector<Hull::Triangle> triangles(count / 3);
  for (std::size_t i = 0; i < triangles.size(); ++i) triangles[i] = {kept[3 * i], kept[3 * i + 1], kept[3 * i + 2]};
  // The simplified mesh uses the hull's own vertices. It can leave slivers
  // of zero area whose removal opens the surface; then the hull as it was.
  try {
    return std::make_shared<const Hull>(std::vector<btVector3>(vertices.begin(), vertices.end()), triangles);
  } catch (const HullError&) {
    return hull;
  }
}

}  // namespace keel::KEEL_ABI
