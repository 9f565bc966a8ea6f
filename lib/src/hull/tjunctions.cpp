// Hull construction, HullOptions::closeOpenings: T-junctions, where a vertex
// of one part lies on an edge of another (pieces of a render mesh cut apart
// and meshed separately). Both sides are open there; splitting the edge at
// the vertex makes the two sides share their edges, and welded edges close.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <utility>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// A vertex found on an edge, at `along` (0 at the edge's start, 1 at its end).
struct OnEdge {
  double along;
  std::uint32_t vertex;
};

/// The vertices among `ends` (sorted by x) that lie on the segment from `a`
/// to `b`, within `tol_m` of it and farther than that from its ends, in
/// order from `a`.
std::vector<OnEdge> verticesOn(const Mesh& mesh, std::uint32_t a, std::uint32_t b, std::span<const std::uint32_t> ends,
                               double tol_m) {
  const Vec3d pa = toD(mesh.vertices[a]), pb = toD(mesh.vertices[b]);
  const Vec3d ab = sub(pb, pa);
  const double length2 = dot(ab, ab);
  std::vector<OnEdge> found;
  if (!(length2 > 4 * tol_m * tol_m)) return found;
  const double lo = std::min(pa.x, pb.x) - tol_m, hi = std::max(pa.x, pb.x) + tol_m;
  auto it = std::lower_bound(ends.begin(), ends.end(), lo,
                             [&](std::uint32_t v, double x) { return double(mesh.vertices[v].x()) < x; });
  for (; it != ends.end() && double(mesh.vertices[*it].x()) <= hi; ++it) {
    if (*it == a || *it == b) continue;
    const Vec3d ap = sub(toD(mesh.vertices[*it]), pa);
    const double along = dot(ap, ab) / length2;
    const Vec3d off = sub(ap, {ab.x * along, ab.y * along, ab.z * along});
    const double fromEnd_m = std::min(along, 1 - along) * std::sqrt(length2);
    if (fromEnd_m > tol_m && norm(off) <= tol_m) found.push_back({along, *it});
  }
  std::sort(found.begin(), found.end(), [](const OnEdge& x, const OnEdge& y) { return x.along < y.along; });
  return found;
}

/// Replaces triangle `t` by a fan from the corner opposite its edge between
/// `a` and `b`, through `on` (in order from `a`), keeping its winding.
/// Appends the new triangles but the first.
void splitEdge(Mesh& mesh, std::uint32_t t, std::uint32_t a, std::uint32_t b, std::vector<OnEdge> on) {
  const Hull::Triangle tri = mesh.triangles[t];
  int start = 0;  // the corner where the triangle's own run along the edge starts
  while (std::minmax(tri[start], tri[(start + 1) % 3]) != std::minmax(a, b)) ++start;
  const std::uint32_t from = tri[start], to = tri[(start + 1) % 3], opposite = tri[(start + 2) % 3];
  if (from != a) std::reverse(on.begin(), on.end());
  std::uint32_t previous = from;
  for (std::size_t i = 0; i <= on.size(); ++i) {
    const std::uint32_t next = i < on.size() ? on[i].vertex : to;
    const Hull::Triangle piece{previous, next, opposite};
    if (i == 0)
      mesh.triangles[t] = piece;
    else
      mesh.triangles.push_back(piece);
    previous = next;
  }
}

}  // namespace

std::size_t splitTJunctions(Mesh& mesh, double tol_m) {
  std::size_t inserted = 0;
  // Each pass splits a triangle's edge once; a triangle with vertices on
  // all three of its edges needs three passes, its pieces no more.
  constexpr int kPasses = 8;
  for (int pass = 0; pass < kPasses; ++pass) {
    const std::vector<EdgeUse> edges = collectEdges(mesh.triangles);
    std::vector<EdgeUse> open;
    std::vector<std::uint32_t> ends;
    forEachEdge(edges, [&](std::span<const EdgeUse> uses) {
      if (uses.size() != 1) return;
      open.push_back(uses.front());
      ends.push_back(std::uint32_t(uses.front().key >> 32));
      ends.push_back(std::uint32_t(uses.front().key & 0xffffffffu));
    });
    std::sort(ends.begin(), ends.end(), [&](std::uint32_t x, std::uint32_t y) {
      return std::pair(mesh.vertices[x].x(), x) < std::pair(mesh.vertices[y].x(), y);
    });
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    std::vector<bool> split(mesh.triangles.size(), false);
    const std::size_t before = inserted;
    for (const EdgeUse& edge : open) {
      if (split[edge.triangle]) continue;
      const auto a = std::uint32_t(edge.key >> 32), b = std::uint32_t(edge.key & 0xffffffffu);
      std::vector<OnEdge> on = verticesOn(mesh, a, b, ends, tol_m);
      if (on.empty()) continue;
      inserted += on.size();
      split[edge.triangle] = true;
      splitEdge(mesh, edge.triangle, a, b, std::move(on));
    }
    if (inserted == before) break;
  }
  return inserted;
}

}  // namespace keel::KEEL_ABI::detail::hull_build
