// keel::sliceHull and keel::bulkheadCompartments: a hull's triangles clipped
// to a slab between two planes (Sutherland and Hodgman, "Reentrant polygon
// clipping", CACM 17(1), 1974), and the sections capped by fans from each
// section loop's centre (docs/flooding.md, "The model", "Compartments").
#include <keel/hull_slice.hpp>

#include "hull/refuse_overlaps.hpp"
#include "mass/mass_detail.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace keel::KEEL_ABI {
namespace {

using detail::hull_build::toD;

btVector3 toBullet(const detail::hull_build::Vec3d& v) {
  return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z));
}

/// A polygon vertex, and which plane (0, 1) made it, -1 for a hull vertex.
struct Corner {
  btVector3 p;
  int plane;
};

/// A vertex this close to a plane [m] is moved onto it: cut there, it would
/// leave slivers thinner than the hull's weld tolerance (HullOptions), which
/// the weld collapses into open edges. The same vertex moves the same way
/// in every triangle that shares it.
constexpr double kOnPlane_m = 1e-6;

/// `c` and its signed distance to the plane, moved onto it when within kOnPlane_m.
Corner placed(const Corner& c, const btVector3& n, double offset, double side, double& distance) {
  distance = side * (double(n.dot(c.p)) - offset);
  if (distance == 0 || std::abs(distance) > kOnPlane_m) return c;
  const Corner on{c.p - n * btScalar(side * distance), c.plane};
  distance = 0;
  return on;
}

/// Keeps the part of `in` where `side * (n . p - offset) >= 0`; the new
/// vertices are marked with `plane`.
std::vector<Corner> clip(const std::vector<Corner>& in, const btVector3& n, double offset, double side, int plane) {
  std::vector<Corner> out;
  const std::size_t count = in.size();
  for (std::size_t i = 0; i < count; ++i) {
    double da = 0, db = 0;
    const Corner a = placed(in[i], n, offset, side, da);
    const Corner b = placed(in[(i + 1) % count], n, offset, side, db);
    if (da >= 0) out.push_back(a);
    if ((da >= 0) != (db >= 0))
      out.push_back(Corner{toBullet(detail::edgeCrossing(toD(a.p), da, toD(b.p), db)), plane});
  }
  return out;
}

using Key = std::array<std::uint32_t, 3>;
Key keyOf(const btVector3& p) {
  Key k{};
  for (int i = 0; i < 3; ++i) {
    const float f = float(p[i]);  // welding is the hull's job; loops join by exact points
    std::memcpy(&k[std::size_t(i)], &f, sizeof f);
  }
  return k;
}

/// Caps one plane's section: each edge (p, q) the clipped triangles left on
/// it gets the triangle (centre, q, p), the centre that of its loop's points
/// (the loops found by shared end points), so every edge is used twice.
void cap(const std::vector<std::pair<btVector3, btVector3>>& edges, std::vector<btVector3>& soup) {
  std::map<Key, std::size_t> id;
  std::vector<std::size_t> parent;
  auto find = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  auto node = [&](const btVector3& p) {
    auto [it, added] = id.try_emplace(keyOf(p), parent.size());
    if (added) parent.push_back(parent.size());
    return it->second;
  };
  std::vector<std::pair<std::size_t, std::size_t>> ends;
  for (const auto& [p, q] : edges) {
    const std::size_t a = node(p), b = node(q);
    parent[find(a)] = find(b);
    ends.emplace_back(a, b);
  }
  std::vector<btVector3> sum(parent.size(), btVector3(0, 0, 0));
  std::vector<int> count(parent.size(), 0);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::size_t root = find(ends[e].first);
    sum[root] += edges[e].first + edges[e].second;
    count[root] += 2;
  }
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::size_t root = find(ends[e].first);
    const btVector3 centre = sum[root] / btScalar(count[root]);
    soup.insert(soup.end(), {centre, edges[e].second, edges[e].first});
  }
}

}  // namespace

std::shared_ptr<const Hull> sliceHull(const Hull& hull, const btVector3& normal, btScalar from_m, btScalar to_m) {
  detail::refuseOverlappingParts(hull, "keel::sliceHull");
  const btScalar length = normal.length();
  if (!(length > 0) || !std::isfinite(length))
    throw std::invalid_argument("keel::sliceHull: the planes' normal must be non-zero and finite");
  if (std::isnan(from_m) || std::isnan(to_m) || !(from_m < to_m))
    throw std::invalid_argument("keel::sliceHull: the slab [" + std::to_string(from_m) + ", " + std::to_string(to_m) +
                                "] m must have from < to");
  const btVector3 n = normal / length;
  std::vector<btVector3> soup;
  std::vector<std::pair<btVector3, btVector3>> onPlane[2];
  const auto vertices = hull.vertices();
  for (const Hull::Triangle& t : hull.triangles()) {
    std::vector<Corner> polygon{{vertices[t[0]], -1}, {vertices[t[1]], -1}, {vertices[t[2]], -1}};
    if (std::isfinite(from_m)) polygon = clip(polygon, n, double(from_m), 1, 0);
    if (std::isfinite(to_m) && !polygon.empty()) polygon = clip(polygon, n, double(to_m), -1, 1);
    if (polygon.size() < 3) continue;
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i)
      soup.insert(soup.end(), {polygon[0].p, polygon[i].p, polygon[i + 1].p});
    // An edge between two points a plane made lies on that plane.
    for (std::size_t i = 0; i < polygon.size(); ++i) {
      const Corner& a = polygon[i];
      const Corner& b = polygon[(i + 1) % polygon.size()];
      if (a.plane >= 0 && a.plane == b.plane) onPlane[a.plane].emplace_back(a.p, b.p);
    }
  }
  if (soup.empty())
    throw std::invalid_argument("keel::sliceHull: nothing of the hull lies between " + std::to_string(from_m) +
                                " and " + std::to_string(to_m) + " m along the normal");
  cap(onPlane[0], soup);
  cap(onPlane[1], soup);
  std::vector<Hull::Triangle> triangles(soup.size() / 3);
  for (std::size_t i = 0; i < triangles.size(); ++i)
    triangles[i] = {std::uint32_t(3 * i), std::uint32_t(3 * i + 1), std::uint32_t(3 * i + 2)};
  return std::make_shared<const Hull>(soup, triangles);
}

std::vector<Compartment> bulkheadCompartments(const Hull& hull, const btVector3& normal,
                                              std::span<const btScalar> positions_m, btScalar simplify_m) {
  if (!(simplify_m >= 0) || !std::isfinite(simplify_m))
    throw std::invalid_argument("keel::bulkheadCompartments: the simplification tolerance " +
                                std::to_string(simplify_m) + " m must be finite and >= 0");
  for (std::size_t i = 0; i < positions_m.size(); ++i)
    if (!std::isfinite(positions_m[i]) || (i > 0 && !(positions_m[i] > positions_m[i - 1])))
      throw std::invalid_argument("keel::bulkheadCompartments: bulkhead " + std::to_string(i) + " at " +
                                  std::to_string(positions_m[i]) + " m is not finite or not above the one before");
  std::vector<Compartment> out;
  const btScalar inf = std::numeric_limits<btScalar>::infinity();
  for (std::size_t i = 0; i <= positions_m.size(); ++i) {
    const btScalar from = i == 0 ? -inf : positions_m[i - 1];
    const btScalar to = i == positions_m.size() ? inf : positions_m[i];
    out.push_back(Compartment{"compartment " + std::to_string(i),
                              simplifiedHull(sliceHull(hull, normal, from, to), simplify_m),
                              {},
                              0,
                              0,
                              1});
  }
  return out;
}

std::vector<Compartment> sideCompartments(const Hull& hull, const btVector3& normal,
                                          std::span<const btScalar> positions_m, const btVector3& starboard,
                                          btScalar centre_m, btScalar simplify_m) {
  if (!std::isfinite(centre_m))
    throw std::invalid_argument("keel::sideCompartments: the centreline bulkhead's position is not finite");
  if (!(simplify_m >= 0) || !std::isfinite(simplify_m))
    throw std::invalid_argument("keel::sideCompartments: the simplification tolerance " + std::to_string(simplify_m) +
                                " m must be finite and >= 0");
  // Sections first, unsimplified, each halved and the halves simplified.
  const btScalar inf = std::numeric_limits<btScalar>::infinity();
  std::vector<Compartment> out;
  for (const Compartment& section : bulkheadCompartments(hull, normal, positions_m))
    for (const bool port : {true, false})
      out.push_back(Compartment{
          section.name + (port ? " port" : " starboard"),
          simplifiedHull(sliceHull(*section.space, starboard, port ? -inf : centre_m, port ? centre_m : inf),
                         simplify_m),
          {},
          0,
          0,
          1});
  return out;
}

}  // namespace keel::KEEL_ABI
