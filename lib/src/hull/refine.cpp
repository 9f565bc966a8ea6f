// Hull construction, last stages on the mesh: long edges split (after a
// check that the coordinates resolve them and the vertex count allows them),
// unused vertices removed.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

[[nodiscard]] std::uint64_t edgeKey(std::uint32_t a, std::uint32_t b) {
  return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
}

/// Appends to `refined` the triangles that replace `t`, whose edge e (from
/// corner e to corner e + 1) is split at vertex m[e], or not when m[e] < 0.
void splitTriangle(const Hull::Triangle& t, const std::array<std::int64_t, 3>& m,
                   std::vector<Hull::Triangle>& refined) {
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

/// A refinement pass's midpoints, numbered after the mesh's vertices in the
/// order the triangles first meet their edges.
struct PassMidpoints {
  std::size_t firstIndex = 0;                              ///< the mesh's vertex count
  std::unordered_map<std::uint64_t, std::uint32_t> index;  ///< edge -> midpoint vertex
  std::vector<std::uint64_t> edges;                        ///< in numbering order
  std::vector<btVector3> positions;                        ///< in numbering order [m]

  [[nodiscard]] const btVector3& vertex(const std::vector<btVector3>& vertices, std::uint32_t i) const {
    return i < firstIndex ? vertices[i] : positions[i - firstIndex];
  }
  /// The midpoint vertex on each edge of `t`, -1 where that edge is not split.
  [[nodiscard]] std::array<std::int64_t, 3> of(const Hull::Triangle& t) const {
    std::array<std::int64_t, 3> m;
    for (int e = 0; e < 3; ++e) {
      auto it = index.find(edgeKey(t[e], t[(e + 1) % 3]));
      m[std::size_t(e)] = it == index.end() ? -1 : std::int64_t(it->second);
    }
    return m;
  }
};

/// Each triangle's midpoints (PassMidpoints::of), in triangle order.
using TriangleMidpoints = std::vector<std::array<std::int64_t, 3>>;

/// Leaves whole (and adds to `keep`) every edge of a triangle that splitting
/// would leave with a child of twice its area at most `minDoubleArea_m2`;
/// again until none is left, as a triangle with fewer splits has other
/// children. `midpoints` are the triangles' midpoints, kept up to date.
void dropFlatSplits(const Mesh& mesh, PassMidpoints& pass, TriangleMidpoints& midpoints, double minDoubleArea_m2,
                    std::unordered_set<std::uint64_t>& keep) {
  std::vector<Hull::Triangle> children;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
      const Hull::Triangle& t = mesh.triangles[i];
      const std::array<std::int64_t, 3>& m = midpoints[i];
      if (m[0] < 0 && m[1] < 0 && m[2] < 0) continue;
      children.clear();
      splitTriangle(t, m, children);
      const bool flat = std::any_of(children.begin(), children.end(), [&](const Hull::Triangle& c) {
        const Vec3d a = toD(pass.vertex(mesh.vertices, c[0]));
        return norm(cross(sub(toD(pass.vertex(mesh.vertices, c[1])), a),
                          sub(toD(pass.vertex(mesh.vertices, c[2])), a))) <= minDoubleArea_m2;
      });
      if (!flat) continue;
      for (int e = 0; e < 3; ++e)
        if (m[e] >= 0) {
          pass.index.erase(edgeKey(t[e], t[(e + 1) % 3]));
          keep.insert(edgeKey(t[e], t[(e + 1) % 3]));
        }
      changed = true;
    }
    if (changed)  // the edges left whole change other triangles' splits
      for (std::size_t i = 0; i < mesh.triangles.size(); ++i) midpoints[i] = pass.of(mesh.triangles[i]);
  }
}

[[noreturn]] void throwTooManyVertices(double maxEdge_m, const char* how, double count, std::size_t maxVertices) {
  std::ostringstream s;
  s << "keel::Hull: refining to HullOptions::maxEdgeLength_m " << maxEdge_m << " m " << how << " " << std::size_t(count)
    << " vertices; at most " << maxVertices << " are supported (raise maxEdgeLength_m or simplify the mesh)";
  throw HullError(s.str(), {});
}

/// How many pieces refining splits an edge of `length_m` into: halves until
/// they are at most `maxEdge_m` long (exact but for round-off).
double piecesOf(double length_m, double maxEdge_m) {
  double pieces = 1;
  for (double piece_m = length_m; piece_m > maxEdge_m; piece_m *= 0.5) pieces *= 2;
  return pieces;
}

}  // namespace

void checkEdgeLengthResolvable(double maxEdge_m, double largest_m) {
  // A midpoint rounds each coordinate by up to half a spacing, so a split
  // edge's halves are up to sqrt(3)/2 spacings longer than half of it:
  // splitting stops shortening edges near sqrt(3) spacings. From 4 spacings
  // up every split still takes off a quarter at least.
  const double spacing_m = coordinateSpacing_m(largest_m);
  if (maxEdge_m >= 4 * spacing_m) return;
  std::ostringstream s;
  s << "keel::Hull: HullOptions::maxEdgeLength_m " << maxEdge_m
    << " m is finer than the coordinates resolve: " << (sizeof(btScalar) == 4 ? "float" : "double")
    << " coordinates as large as " << largest_m << " m are " << spacing_m
    << " m apart, a midpoint rounds by up to half that, and edges can be split down to 4 spacings (" << 4 * spacing_m
    << " m) only; raise maxEdgeLength_m or put the origin (the centre of mass) near the mesh";
  throw HullError(s.str(), {});
}

void checkRefinedVertexCount(const Mesh& mesh, std::span<const EdgeUse> edges, double maxEdge_m,
                             std::size_t maxVertices) {
  // No refined triangle is larger than an equilateral one of side maxEdge_m,
  // and one with B points on its boundary splits into B - 2 at least.
  const double largestArea_m2 = std::sqrt(3.0) / 4 * maxEdge_m * maxEdge_m;
  double triangles = 0;
  std::vector<bool> used(mesh.vertices.size());
  for (const auto& t : mesh.triangles) {
    const Vec3d a = toD(mesh.vertices[t[0]]), b = toD(mesh.vertices[t[1]]), c = toD(mesh.vertices[t[2]]);
    const double boundary = piecesOf(norm(sub(b, a)), maxEdge_m) + piecesOf(norm(sub(c, b)), maxEdge_m) +
                            piecesOf(norm(sub(a, c)), maxEdge_m);
    triangles += std::max({1.0, 0.5 * norm(cross(sub(b, a), sub(c, a))) / largestArea_m2, boundary - 2});
    for (std::uint32_t v : t) used[v] = true;
  }
  // Splitting keeps the Euler characteristic V - E + F, and on a closed
  // surface 2 E = 3 F - X, X the uses past two of the edges (fins, parts
  // touching along an edge), so V = (V - E + F) + (F - X) / 2.
  double edgeCount = 0, excess = 0;
  forEachEdge(edges, [&](std::span<const EdgeUse> uses) {
    ++edgeCount;
    const std::uint64_t key = uses.front().key;
    if (uses.size() > 2)
      excess += double(uses.size() - 2) *
                piecesOf(norm(sub(toD(mesh.vertices[key >> 32]), toD(mesh.vertices[key & 0xffffffffu]))), maxEdge_m);
  });
  const double euler = double(std::count(used.begin(), used.end(), true)) - edgeCount + double(mesh.triangles.size());
  const double vertices = euler + (triangles - excess) / 2;
  if (vertices > double(maxVertices)) throwTooManyVertices(maxEdge_m, "would make at least", vertices, maxVertices);
}

void refineLongEdges(Mesh& mesh, double maxEdge_m, double minDoubleArea_m2, std::size_t maxVertices) {
  std::vector<btVector3>& vertices = mesh.vertices;
  std::unordered_set<std::uint64_t> keep;  // edges left whole: splitting them makes a flat triangle
  for (;;) {
    PassMidpoints pass;
    pass.firstIndex = vertices.size();
    for (const auto& t : mesh.triangles)
      for (int e = 0; e < 3; ++e) {
        const std::uint32_t a = t[e], b = t[(e + 1) % 3];
        const std::uint64_t key = edgeKey(a, b);
        if (norm(sub(toD(vertices[a]), toD(vertices[b]))) > maxEdge_m && !pass.index.count(key) && !keep.count(key)) {
          pass.index[key] = static_cast<std::uint32_t>(vertices.size() + pass.edges.size());
          pass.edges.push_back(key);
          pass.positions.push_back((vertices[a] + vertices[b]) * btScalar(0.5));
        }
      }
    if (pass.edges.empty()) return;
    TriangleMidpoints midpoints(mesh.triangles.size());
    for (std::size_t i = 0; i < mesh.triangles.size(); ++i) midpoints[i] = pass.of(mesh.triangles[i]);
    dropFlatSplits(mesh, pass, midpoints, minDoubleArea_m2, keep);
    if (pass.index.empty()) return;
    if (vertices.size() + pass.index.size() > maxVertices)
      throwTooManyVertices(maxEdge_m, "makes more than", double(vertices.size() + pass.index.size()), maxVertices);
    // Number the midpoints left in their order: as numbered so far unless
    // some were dropped.
    const bool renumber = pass.index.size() != pass.edges.size();
    for (std::size_t k = 0; k < pass.edges.size(); ++k) {
      auto it = pass.index.find(pass.edges[k]);
      if (it == pass.index.end()) continue;
      it->second = static_cast<std::uint32_t>(vertices.size());
      vertices.push_back(pass.positions[k]);
    }
    std::vector<Hull::Triangle> refined;
    refined.reserve(mesh.triangles.size() * 4);
    for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
      if (renumber) midpoints[i] = pass.of(mesh.triangles[i]);
      splitTriangle(mesh.triangles[i], midpoints[i], refined);
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

}  // namespace keel::KEEL_ABI::detail::hull_build
