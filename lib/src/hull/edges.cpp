// Hull construction: the edge check (every edge used as often in one
// direction as in the other) and the message of a mesh that fails it.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>
#include <sstream>
#include <utility>

namespace keel::KEEL_ABI::detail::hull_build {

std::string formatPoint(const btVector3& p) {
  std::ostringstream s;
  s << '(' << p.x() << ", " << p.y() << ", " << p.z() << ')';
  return s.str();
}

namespace {

std::string describeEdge(std::uint64_t key, std::span<const btVector3> vertices) {
  return "between " + formatPoint(vertices[key >> 32]) + " and " + formatPoint(vertices[key & 0xffffffffu]);
}

}  // namespace

std::vector<EdgeUse> collectEdges(std::span<const Hull::Triangle> triangles) {
  std::vector<EdgeUse> edges;
  edges.reserve(triangles.size() * 3);
  for (std::uint32_t t = 0; t < triangles.size(); ++t)
    for (int e = 0; e < 3; ++e) {
      const std::uint32_t a = triangles[t][e], b = triangles[t][(e + 1) % 3];
      const std::uint32_t lo = std::min(a, b), hi = std::max(a, b);
      edges.push_back({(std::uint64_t(lo) << 32) | hi, a < b ? 1 : -1, t});
    }
  std::sort(edges.begin(), edges.end(), [](const EdgeUse& x, const EdgeUse& y) {
    return x.key != y.key ? x.key < y.key : x.triangle < y.triangle;
  });
  return edges;
}

void checkEdges(std::span<const EdgeUse> edges, std::span<const btVector3> vertices, SurfaceProblems& problems) {
  HullError::Counts& counts = problems.counts;
  forEachEdge(edges, [&](std::span<const EdgeUse> uses) {
    int direction = 0;
    for (const EdgeUse& use : uses) direction += use.direction;
    // Balanced: each use matched by one in the other direction, whatever
    // their number (a fin, parts touching along an edge).
    if (direction == 0) return;
    const std::uint64_t key = uses.front().key;
    if (uses.size() == 1) {
      if (counts.openEdges++ == 0) problems.firstOpen = describeEdge(key, vertices);
    } else if (uses.size() > 2) {
      if (counts.nonManifoldEdges++ == 0) problems.firstNonManifold = describeEdge(key, vertices);
    } else if (counts.flippedEdges++ == 0) {
      problems.firstFlipped = describeEdge(key, vertices);
    }
  });
}

namespace {

/// A triangle as its lowest corner first and the other two in order, with
/// +1 or -1 for the winding that makes.
struct TriangleKey {
  std::array<std::uint32_t, 3> corners;
  int winding;
};

TriangleKey keyOf(const Hull::Triangle& t) {
  const int lowest = t[0] < t[1] ? (t[0] < t[2] ? 0 : 2) : (t[1] < t[2] ? 1 : 2);
  const std::uint32_t a = t[lowest], b = t[(lowest + 1) % 3], c = t[(lowest + 2) % 3];
  return {{a, std::min(b, c), std::max(b, c)}, b < c ? 1 : -1};
}

}  // namespace

std::size_t dropRepeatedTriangles(Mesh& mesh) {
  std::set<std::pair<std::array<std::uint32_t, 3>, int>> seen;
  const std::size_t before = mesh.triangles.size();
  std::erase_if(mesh.triangles, [&](const Hull::Triangle& t) {
    const TriangleKey k = keyOf(t);
    return !seen.emplace(k.corners, k.winding).second;
  });
  return before - mesh.triangles.size();
}

void checkRepeatedTriangles(const Mesh& mesh, SurfaceProblems& problems) {
  std::vector<TriangleKey> keys;
  keys.reserve(mesh.triangles.size());
  for (const Hull::Triangle& t : mesh.triangles) keys.push_back(keyOf(t));
  std::sort(keys.begin(), keys.end(), [](const TriangleKey& x, const TriangleKey& y) { return x.corners < y.corners; });
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i;
    int winding = 0;
    for (; j < keys.size() && keys[j].corners == keys[i].corners; ++j) winding += keys[j].winding;
    if (std::abs(winding) > 1) {
      if (problems.counts.repeatedTriangles == 0)
        for (std::uint32_t v : keys[i].corners)
          problems.firstRepeated += (problems.firstRepeated.empty() ? "" : ", ") + formatPoint(mesh.vertices[v]);
      problems.counts.repeatedTriangles += std::size_t(std::abs(winding) - 1);
    }
    i = j;
  }
}

void throwIfNotClosed(const SurfaceProblems& problems, std::size_t triangleCount) {
  const HullError::Counts& counts = problems.counts;
  if (!counts.openEdges && !counts.nonManifoldEdges && !counts.flippedEdges && !counts.repeatedTriangles) return;
  std::ostringstream s;
  s << "keel::Hull: not a closed, outward-facing surface (" << triangleCount << " triangles, " << problems.partCount
    << " parts):";
  if (counts.openEdges)
    s << " " << counts.openEdges << " open edge(s) used by one triangle only, first " << problems.firstOpen << ";";
  if (counts.nonManifoldEdges)
    s << " " << counts.nonManifoldEdges
      << " non-manifold edge(s) shared by more than two triangles that do not pair off in opposite directions, first "
      << problems.firstNonManifold << ";";
  if (counts.flippedEdges)
    s << " " << counts.flippedEdges << " edge(s) whose two triangles wind the same way, first " << problems.firstFlipped
      << ";";
  if (counts.repeatedTriangles)
    s << " " << counts.repeatedTriangles << " triangle(s) repeating another with the same winding (a copy over "
      << "itself), first " << problems.firstRepeated << ": what they enclose would be counted twice;";
  throw HullError(s.str(), counts);
}

}  // namespace keel::KEEL_ABI::detail::hull_build
