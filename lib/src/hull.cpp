#include <keel/hull.hpp>

#include "hull_kernel.hpp"

#include <BulletCollision/CollisionShapes/btStridingMeshInterface.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <sstream>
#include <unordered_map>

namespace keel {
namespace {

/// Collects every triangle of a Bullet mesh as three positions (a soup).
class SoupCollector final : public btInternalTriangleIndexCallback {
 public:
  explicit SoupCollector(std::vector<btVector3>& soup) : soup_(soup) {}
  void internalProcessTriangleIndex(btVector3* triangle, int, int) override {
    soup_.insert(soup_.end(), triangle, triangle + 3);
  }

 private:
  std::vector<btVector3>& soup_;
};

std::string formatPoint(const btVector3& p) {
  std::ostringstream s;
  s << '(' << p.x() << ", " << p.y() << ", " << p.z() << ')';
  return s.str();
}

/// Double-precision cross product: the hull's integrals are done once, so
/// they may as well be exact to the last float digit.
struct Vec3d {
  double x, y, z;
};
Vec3d toD(const btVector3& v) { return {double(v.x()), double(v.y()), double(v.z())}; }
Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double norm(const Vec3d& a) { return std::sqrt(dot(a, a)); }

/// Welds vertices closer than `tolerance` [m] (exact duplicates when 0),
/// through a hash grid of cell `tolerance` searched in the 27 neighbouring cells.
class Welder {
 public:
  explicit Welder(double tolerance) : tol_(tolerance), cell_(tolerance > 0 ? tolerance : 1.0) {}

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
  std::int64_t cellOf(double x) const { return static_cast<std::int64_t>(std::floor(x / cell_)); }
  static std::uint64_t key(std::int64_t i, std::int64_t j, std::int64_t k) {
    // A hash, not an identity: collisions only cost a distance check.
    return std::uint64_t(i) * 73856093u ^ std::uint64_t(j) * 19349663u ^ std::uint64_t(k) * 83492791u;
  }
  double tol_;
  double cell_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> grid_;
};

/// One use of an edge by a triangle.
struct EdgeUse {
  std::uint64_t key;   ///< (min vertex << 32) | max vertex
  int direction;       ///< +1 when the triangle runs min -> max
  std::uint32_t triangle;
};

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

/// Union-find over triangles: parts are the sets joined by shared edges.
class Parts {
 public:
  explicit Parts(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(std::uint32_t a, std::uint32_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::uint32_t> parent_;
};

/// Splits every edge longer than `maxEdge_m` at its midpoint, repeatedly,
/// splitting both triangles that share it so no T-junction appears (the
/// surface stays closed). Triangles with 1, 2 or 3 split edges become 2, 3
/// or 4 triangles with the parent's winding.
void refineLongEdges(std::vector<btVector3>& vertices, std::vector<Hull::Triangle>& triangles,
                     double maxEdge_m) {
  for (;;) {
    std::unordered_map<std::uint64_t, std::uint32_t> midpoint;
    auto edgeKey = [](std::uint32_t a, std::uint32_t b) {
      return (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
    };
    for (const auto& t : triangles)
      for (int e = 0; e < 3; ++e) {
        const std::uint32_t a = t[e], b = t[(e + 1) % 3];
        if (norm(sub(toD(vertices[a]), toD(vertices[b]))) > maxEdge_m &&
            !midpoint.count(edgeKey(a, b))) {
          midpoint[edgeKey(a, b)] = static_cast<std::uint32_t>(vertices.size());
          vertices.push_back((vertices[a] + vertices[b]) * btScalar(0.5));
        }
      }
    if (midpoint.empty()) return;
    std::vector<Hull::Triangle> refined;
    refined.reserve(triangles.size() * 4);
    for (const auto& t : triangles) {
      std::int64_t m[3];
      int splits = 0;
      for (int e = 0; e < 3; ++e) {
        auto it = midpoint.find(edgeKey(t[e], t[(e + 1) % 3]));
        m[e] = it == midpoint.end() ? -1 : std::int64_t(it->second);
        splits += m[e] >= 0;
      }
      if (splits == 0) {
        refined.push_back(t);
        continue;
      }
      if (splits == 3) {
        const auto m0 = std::uint32_t(m[0]), m1 = std::uint32_t(m[1]), m2 = std::uint32_t(m[2]);
        refined.push_back({t[0], m0, m2});
        refined.push_back({m0, t[1], m1});
        refined.push_back({m2, m1, t[2]});
        refined.push_back({m0, m1, m2});
        continue;
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
    triangles.swap(refined);
  }
}

}  // namespace

Hull::Hull(const btStridingMeshInterface& mesh, const HullOptions& options) {
  std::vector<btVector3> soup;
  SoupCollector collector(soup);
  const btVector3 huge(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  mesh.InternalProcessAllTriangles(&collector, -huge, huge);
  build(std::move(soup), options);
}

Hull::Hull(std::span<const btVector3> vertices, std::span<const Triangle> triangles,
           const HullOptions& options) {
  std::vector<btVector3> soup;
  soup.reserve(triangles.size() * 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (std::uint32_t index : triangles[t]) {
      if (index >= vertices.size()) {
        std::ostringstream s;
        s << "keel::Hull: triangle " << t << " refers to vertex " << index << " but there are only "
          << vertices.size() << " vertices";
        throw HullError(s.str(), {});
      }
      soup.push_back(vertices[index]);
    }
  build(std::move(soup), options);
}

void Hull::build(std::vector<btVector3> soup, const HullOptions& options) {
  HullError::Counts counts;
  std::ostringstream problems;
  for (std::size_t i = 0; i < soup.size(); ++i)
    if (!std::isfinite(soup[i].x()) || !std::isfinite(soup[i].y()) || !std::isfinite(soup[i].z())) {
      if (counts.nonFiniteVertices++ == 0) problems << "; first in triangle " << i / 3;
    }
  if (counts.nonFiniteVertices > 0) {
    std::ostringstream s;
    s << "keel::Hull: " << counts.nonFiniteVertices << " vertex coordinates are NaN or infinite"
      << problems.str();
    throw HullError(s.str(), counts);
  }
  if (!(options.weldTolerance >= 0) || !(options.maxEdgeLength_m >= 0))
    throw HullError("keel::Hull: HullOptions weldTolerance and maxEdgeLength_m must be >= 0", counts);

  btVector3 lo(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT), hi = -lo;
  for (const auto& p : soup) {
    lo.setMin(p);
    hi.setMax(p);
  }
  const double diagonal = soup.empty() ? 0.0 : norm(sub(toD(hi), toD(lo)));

  // Weld, then drop triangles that collapsed or have no area.
  Welder welder(double(options.weldTolerance) * diagonal);
  const double minDoubleArea = 1e-12 * diagonal * diagonal;
  for (std::size_t t = 0; t + 2 < soup.size(); t += 3) {
    Triangle tri{welder.add(soup[t], vertices_), welder.add(soup[t + 1], vertices_),
                 welder.add(soup[t + 2], vertices_)};
    const Vec3d a = toD(vertices_[tri[0]]);
    const double doubleArea = norm(cross(sub(toD(vertices_[tri[1]]), a), sub(toD(vertices_[tri[2]]), a)));
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || doubleArea <= minDoubleArea) {
      ++dropped_;
      continue;
    }
    triangles_.push_back(tri);
  }
  welded_ = soup.size() - vertices_.size();
  counts.usableTriangles = triangles_.size();
  if (triangles_.empty())
    throw HullError("keel::Hull: the mesh has no triangle with a non-zero area (" +
                        std::to_string(soup.size() / 3) + " given)",
                    counts);

  // Every edge of a closed, consistently wound surface is used exactly twice,
  // once in each direction.
  const std::vector<EdgeUse> edges = collectEdges(triangles_);
  Parts parts(triangles_.size());
  std::string firstOpen, firstNonManifold, firstFlipped;
  auto describeEdge = [&](std::uint64_t key) {
    return "between " + formatPoint(vertices_[key >> 32]) + " and " +
           formatPoint(vertices_[key & 0xffffffffu]);
  };
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    int direction = 0;
    while (j < edges.size() && edges[j].key == edges[i].key) {
      direction += edges[j].direction;
      parts.join(edges[i].triangle, edges[j].triangle);
      ++j;
    }
    const std::size_t uses = j - i;
    if (uses == 1) {
      if (counts.openEdges++ == 0) firstOpen = describeEdge(edges[i].key);
    } else if (uses > 2) {
      if (counts.nonManifoldEdges++ == 0) firstNonManifold = describeEdge(edges[i].key);
    } else if (direction != 0) {
      if (counts.flippedEdges++ == 0) firstFlipped = describeEdge(edges[i].key);
    }
    i = j;
  }

  // Signed volume per part (divergence theorem, tetrahedra from the origin).
  std::unordered_map<std::uint32_t, double> partVolume;
  for (std::uint32_t t = 0; t < triangles_.size(); ++t) {
    const Vec3d a = toD(vertices_[triangles_[t][0]]), b = toD(vertices_[triangles_[t][1]]),
                c = toD(vertices_[triangles_[t][2]]);
    partVolume[parts.find(t)] += dot(a, cross(b, c)) / 6.0;
  }
  partCount_ = partVolume.size();
  double firstInwardVolume = 0;
  for (const auto& [root, volume] : partVolume)
    if (volume <= 0 && counts.inwardParts++ == 0) firstInwardVolume = volume;

  if (counts.openEdges || counts.nonManifoldEdges || counts.flippedEdges || counts.inwardParts) {
    std::ostringstream s;
    s << "keel::Hull: not a closed, outward-facing surface (" << triangles_.size() << " triangles, "
      << partCount_ << " parts):";
    if (counts.openEdges)
      s << " " << counts.openEdges << " open edge(s) used by one triangle only, first " << firstOpen << ";";
    if (counts.nonManifoldEdges)
      s << " " << counts.nonManifoldEdges << " non-manifold edge(s) shared by more than two triangles, first "
        << firstNonManifold << ";";
    if (counts.flippedEdges)
      s << " " << counts.flippedEdges << " edge(s) whose two triangles wind the same way, first "
        << firstFlipped << ";";
    if (counts.inwardParts)
      s << " " << counts.inwardParts << " part(s) wound inward (negative volume, first "
        << firstInwardVolume << " m^3): reverse their triangles;";
    throw HullError(s.str(), counts);
  }

  if (options.maxEdgeLength_m > 0 && std::isfinite(options.maxEdgeLength_m))
    refineLongEdges(vertices_, triangles_, double(options.maxEdgeLength_m));

  // Keep only the vertices some triangle uses (dropped degenerates can leave
  // orphans): every vertex costs a transform and a water query per substep.
  std::vector<std::uint32_t> remap(vertices_.size(), UINT32_MAX);
  std::vector<btVector3> used;
  used.reserve(vertices_.size());
  for (auto& tri : triangles_)
    for (auto& index : tri) {
      if (remap[index] == UINT32_MAX) {
        remap[index] = static_cast<std::uint32_t>(used.size());
        used.push_back(vertices_[index]);
      }
      index = remap[index];
    }
  vertices_.swap(used);
  // The SIMD kernels pack a triangle's three vertex indices in 64 bits.
  if (vertices_.size() > detail::HullSoA::kMaxVertices) {
    counts.usableTriangles = triangles_.size();
    throw HullError("keel::Hull: the hull has " + std::to_string(vertices_.size()) + " vertices after welding; at most " +
                        std::to_string(detail::HullSoA::kMaxVertices) + " are supported (simplify the mesh)",
                    counts);
  }
  // Integrals: volume, centroid (tetrahedra from the origin), area, bounds.
  double volume = 0, area = 0;
  Vec3d moment{0, 0, 0};
  for (const auto& tri : triangles_) {
    const Vec3d a = toD(vertices_[tri[0]]), b = toD(vertices_[tri[1]]), c = toD(vertices_[tri[2]]);
    const double v = dot(a, cross(b, c)) / 6.0;
    volume += v;
    moment = {moment.x + v * (a.x + b.x + c.x) / 4, moment.y + v * (a.y + b.y + c.y) / 4,
              moment.z + v * (a.z + b.z + c.z) / 4};
    const double triangleArea = 0.5 * norm(cross(sub(b, a), sub(c, a)));
    triangleArea_m2_.push_back(btScalar(triangleArea));
    area += triangleArea;
  }
  volume_m3_ = btScalar(volume);
  area_m2_ = btScalar(area);
  centroid_ = btVector3(btScalar(moment.x / volume), btScalar(moment.y / volume), btScalar(moment.z / volume));
  boundsMin_ = btVector3(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  boundsMax_ = -boundsMin_;
  double radius = 0;
  for (const auto& p : vertices_) {
    boundsMin_.setMin(p);
    boundsMax_.setMax(p);
    radius = std::max(radius, norm(toD(p)));
  }
  radius_m_ = btScalar(radius);
  soa_ = std::make_shared<const detail::HullSoA>(*this);
}

}  // namespace keel
