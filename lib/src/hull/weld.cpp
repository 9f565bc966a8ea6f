// Hull construction, first stages: the input checked, vertices welded,
// degenerate triangles dropped.

#include "finite.hpp"
#include "hull/build_steps.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// Welds points closer than `tolerance` [m] (exact duplicates when 0),
/// through a hash grid of cell `tolerance` searched in the 27 neighbouring cells.
class Welder {
 public:
  /// `maxAbs_m`: the largest magnitude of any coordinate to be added [m].
  Welder(double tolerance, double maxAbs_m) : tol_(tolerance), cell_(tolerance > 0 ? tolerance : 1.0) {
    // A cell index must stay well inside a 64-bit integer, with room for the
    // neighbours' +-1: past 2^60 cells the cells grow instead. Any cell at
    // least the tolerance wide finds every point within it; only the
    // candidates per cell grow, and only for such extreme inputs.
    if (maxAbs_m / cell_ > kMaxCell) cell_ = maxAbs_m / kMaxCell;
  }

  /// The index of `p` in `vertices`: an earlier vertex within the tolerance,
  /// or `p` appended.
  std::uint32_t add(const btVector3& p, std::vector<btVector3>& vertices) {
    const Vec3d q = toD(p);
    const std::int64_t ci = cellOf(q.x), cj = cellOf(q.y), ck = cellOf(q.z);
    const int reach = tol_ > 0 ? 1 : 0;
    for (int di = -reach; di <= reach; ++di)
      for (int dj = -reach; dj <= reach; ++dj)
        for (int dk = -reach; dk <= reach; ++dk) {
          auto it = grid_.find(key(ci + di, cj + dj, ck + dk));
          if (it == grid_.end()) continue;
          for (std::uint32_t index : it->second)
            if (norm(sub(toD(vertices[index]), q)) <= tol_) return index;
        }
    const auto index = static_cast<std::uint32_t>(vertices.size());
    vertices.push_back(p);
    grid_[key(ci, cj, ck)].push_back(index);
    return index;
  }

 private:
  static constexpr double kMaxCell = 0x1p60;
  std::int64_t cellOf(double x) const { return static_cast<std::int64_t>(std::floor(x / cell_)); }
  static std::uint64_t key(std::int64_t i, std::int64_t j, std::int64_t k) {
    // A hash, not an identity: collisions only cost a distance check.
    // Unsigned arithmetic wraps, as a hash wants.
    return std::uint64_t(i) * 73856093u ^ std::uint64_t(j) * 19349663u ^ std::uint64_t(k) * 83492791u;
  }
  double tol_;   // [m]
  double cell_;  // [m]
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> grid_;
};

/// A point's coordinates as bits: equal points with NaN coordinates compare equal.
std::array<std::uint64_t, 3> bitsOf(const btVector3& p) {
  using Bits = std::conditional_t<sizeof(btScalar) == 4, std::uint32_t, std::uint64_t>;
  return {std::bit_cast<Bits>(p.x()), std::bit_cast<Bits>(p.y()), std::bit_cast<Bits>(p.z())};
}

}  // namespace

void checkInput(std::span<const btVector3> soup, const HullOptions& options) {
  // A vertex shared by several triangles is in the soup once per triangle:
  // count the distinct points.
  std::vector<std::pair<std::array<std::uint64_t, 3>, std::size_t>> nonFinite;
  for (std::size_t i = 0; i < soup.size(); ++i)
    if (!isFinite(soup[i])) nonFinite.emplace_back(bitsOf(soup[i]), i);
  HullError::Counts counts;
  if (!nonFinite.empty()) {
    const std::size_t first = nonFinite.front().second;
    std::sort(nonFinite.begin(), nonFinite.end());
    const auto samePoint = [](const auto& a, const auto& b) { return a.first == b.first; };
    counts.nonFiniteVertices = std::size_t(std::unique(nonFinite.begin(), nonFinite.end(), samePoint) -
                                           nonFinite.begin());
    std::ostringstream s;
    s << "keel::Hull: " << counts.nonFiniteVertices
      << (counts.nonFiniteVertices == 1 ? " vertex has" : " vertices have") << " NaN or infinite coordinates, first "
      << formatPoint(soup[first]) << " in triangle " << first / 3;
    throw HullError(s.str(), counts);
  }
  if (!(options.weldTolerance >= 0) || !std::isfinite(options.weldTolerance) || !(options.maxEdgeLength_m >= 0))
    throw HullError("keel::Hull: HullOptions::weldTolerance must be finite and >= 0, and maxEdgeLength_m >= 0", counts);
}

double boundingDiagonal_m(std::span<const btVector3> soup) {
  if (soup.empty()) return 0.0;
  const Bounds bounds = boundsOf(soup);
  return norm(sub(toD(bounds.max), toD(bounds.min)));
}

Mesh weldVertices(std::span<const btVector3> soup, double tolerance_m) {
  Mesh mesh;
  Welder welder(tolerance_m, largestCoordinate_m(boundsOf(soup)));
  for (std::size_t t = 0; t + 2 < soup.size(); t += 3)
    mesh.triangles.push_back({welder.add(soup[t], mesh.vertices), welder.add(soup[t + 1], mesh.vertices),
                              welder.add(soup[t + 2], mesh.vertices)});
  return mesh;
}

std::size_t dropDegenerateTriangles(Mesh& mesh, double minDoubleArea_m2) {
  std::vector<Hull::Triangle> kept;
  for (const Hull::Triangle& tri : mesh.triangles) {
    const Vec3d a = toD(mesh.vertices[tri[0]]);
    const double doubleArea_m2 = norm(cross(sub(toD(mesh.vertices[tri[1]]), a), sub(toD(mesh.vertices[tri[2]]), a)));
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || doubleArea_m2 <= minDoubleArea_m2) continue;
    kept.push_back(tri);
  }
  const std::size_t dropped = mesh.triangles.size() - kept.size();
  mesh.triangles.swap(kept);
  return dropped;
}

}  // namespace keel::KEEL_ABI::detail::hull_build
