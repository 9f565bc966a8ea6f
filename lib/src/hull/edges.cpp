// Hull construction: the edge check (closed, manifold, consistently wound)
// and the message of a mesh that is not a closed, outward-facing surface.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <sstream>

namespace keel::detail::hull_build {

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

void checkEdges(std::span<const EdgeUse> edges, std::span<const btVector3> vertices,
                SurfaceProblems& problems) {
  HullError::Counts& counts = problems.counts;
  forEachEdge(edges, [&](std::span<const EdgeUse> uses) {
    int direction = 0;
    for (const EdgeUse& use : uses) direction += use.direction;
    const std::uint64_t key = uses.front().key;
    if (uses.size() == 1) {
      if (counts.openEdges++ == 0) problems.firstOpen = describeEdge(key, vertices);
    } else if (uses.size() > 2) {
      if (counts.nonManifoldEdges++ == 0) problems.firstNonManifold = describeEdge(key, vertices);
    } else if (direction != 0) {
      if (counts.flippedEdges++ == 0) problems.firstFlipped = describeEdge(key, vertices);
    }
  });
}

void throwIfNotClosed(const SurfaceProblems& problems, std::size_t triangleCount) {
  const HullError::Counts& counts = problems.counts;
  if (!counts.openEdges && !counts.nonManifoldEdges && !counts.flippedEdges && !counts.inwardParts) return;
  std::ostringstream s;
  s << "keel::Hull: not a closed, outward-facing surface (" << triangleCount << " triangles, "
    << problems.partCount << " parts):";
  if (counts.openEdges)
    s << " " << counts.openEdges << " open edge(s) used by one triangle only, first " << problems.firstOpen << ";";
  if (counts.nonManifoldEdges)
    s << " " << counts.nonManifoldEdges << " non-manifold edge(s) shared by more than two triangles, first "
      << problems.firstNonManifold << ";";
  if (counts.flippedEdges)
    s << " " << counts.flippedEdges << " edge(s) whose two triangles wind the same way, first "
      << problems.firstFlipped << ";";
  if (counts.inwardParts)
    s << " " << counts.inwardParts << " part(s) wound inward (negative volume, first "
      << problems.firstInwardVolume_m3 << " m^3): reverse their triangles;";
  throw HullError(s.str(), counts);
}

}  // namespace keel::detail::hull_build
