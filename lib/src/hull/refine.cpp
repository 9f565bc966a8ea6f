// Hull construction, last stages on the mesh: long edges split, unused
// vertices removed.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace keel::detail::hull_build {
namespace {

[[nodiscard]] std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
  return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
}

/// Appends to `refined` the triangles that replace `t`, whose edge e (from
/// corner e to corner e + 1) is split at vertex m[e], or not when m[e] < 0.
void splitTriangle(const Hull::Triangle& t, const std::int64_t (&m)[3], std::vector<Hull::Triangle>& refined) {
  const int splits = int(m[0] >= 0) + int(m[1] >= 0) + int(m[2] >= 0);
  if (splits == 0) {
    refined.push_back(t);
    return;
  }
  if (splits == 3) {
    const auto m0 = std::uint32_t(m[0]), m1 = std::uint32_t(m[1]), m2 = std::uint32_t(m[2]);
    refined.push_back({t[0], m0, m2});
    refined.push_back({m0, t[1], m1});
    refined.push_back({m2, m1, t[2]});
    refined.push_back({m0, m1, m2});
    return;
  }
  // Rotate so that edge 0 (t0 -> t1) is split; fan from its midpoint.
  int r = 0;
  while (m[r] < 0) ++r;
  const std::uint32_t v0 = t[r], v1 = t[(r + 1) % 3], v2 = t[(r + 2) % 3];
  const auto mid01 = std::uint32_t(m[r]);
  const std::int64_t mid12 = m[(r + 1) % 3], mid20 = m[(r + 2) % 3];
  if (mid12 >= 0) {
    refined.push_back({v0, mid01, v2});
    refined.push_back({mid01, v1, std::uint32_t(mid12)});
    refined.push_back({mid01, std::uint32_t(mid12), v2});
  } else if (mid20 >= 0) {
    refined.push_back({v0, mid01, std::uint32_t(mid20)});
    refined.push_back({mid01, v1, v2});
    refined.push_back({std::uint32_t(mid20), mid01, v2});
  } else {
    refined.push_back({v0, mid01, v2});
    refined.push_back({mid01, v1, v2});
  }
}

}  // namespace

void refineLongEdges(Mesh& mesh, double maxEdge_m) {
  std::vector<btVector3>& vertices = mesh.vertices;
  for (;;) {
    std::unordered_map<std::uint64_t, std::uint32_t> midpoint;
    for (const auto& t : mesh.triangles)
      for (int e = 0; e < 3; ++e) {
        const std::uint32_t a = t[e], b = t[(e + 1) % 3];
        if (norm(sub(toD(vertices[a]), toD(vertices[b]))) > maxEdge_m && !midpoint.count(edgeKey(a, b))) {
          midpoint[edgeKey(a, b)] = static_cast<std::uint32_t>(vertices.size());
          vertices.push_back((vertices[a] + vertices[b]) * btScalar(0.5));
        }
      }
    if (midpoint.empty()) return;
    std::vector<Hull::Triangle> refined;
    refined.reserve(mesh.triangles.size() * 4);
    for (const auto& t : mesh.triangles) {
      std::int64_t m[3];
      for (int e = 0; e < 3; ++e) {
        auto it = midpoint.find(edgeKey(t[e], t[(e + 1) % 3]));
        m[e] = it == midpoint.end() ? -1 : std::int64_t(it->second);
      }
      splitTriangle(t, m, refined);
    }
    mesh.triangles.swap(refined);
  }
}

void dropUnusedVertices(Mesh& mesh) {
  std::vector<std::uint32_t> remap(mesh.vertices.size(), UINT32_MAX);
  std::vector<btVector3> used;
  used.reserve(mesh.vertices.size());
  for (auto& tri : mesh.triangles)
    for (auto& index : tri) {
      if (remap[index] == UINT32_MAX) {
        remap[index] = static_cast<std::uint32_t>(used.size());
        used.push_back(mesh.vertices[index]);
      }
      index = remap[index];
    }
  mesh.vertices.swap(used);
}

}  // namespace keel::detail::hull_build
