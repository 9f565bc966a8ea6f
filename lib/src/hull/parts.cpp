// Hull construction: the connected parts (a catamaran has two), their
// volumes and winding, and the hull's volume.

#include "hull/build_steps.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// Union-find over triangles: parts are the sets joined by shared edges.
class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void join(std::uint32_t a, std::uint32_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::uint32_t> parent_;
};

/// A part's enclosed volume [m^3] and its orientation. The tetrahedra are
/// taken from the part's own centre so that round-off scales with the part,
/// not with its distance from the origin.
void measureVolume(Part& part, const Mesh& mesh) {
  const Vec3d centre = toD((part.bounds.min + part.bounds.max) * btScalar(0.5));
  double volume_m3 = 0, absolute_m3 = 0;
  for (std::uint32_t t : part.triangles) {
    const Hull::Triangle& tri = mesh.triangles[t];
    const double v = originTetrahedronVolume_m3(sub(toD(mesh.vertices[tri[0]]), centre),
                                                sub(toD(mesh.vertices[tri[1]]), centre),
                                                sub(toD(mesh.vertices[tri[2]]), centre));
    volume_m3 += v;
    absolute_m3 += std::abs(v);
  }
  part.volume_m3 = volume_m3;
  // A zero-thickness fin or a double-sided sheet sums to round-off of its
  // tetrahedra: no volume, neither outward nor inward. A billionth of them
  // is far below what float coordinates resolve (a relative 6e-8).
  part.orientation = std::abs(volume_m3) <= 1e-9 * absolute_m3 ? 0 : (volume_m3 > 0 ? 1 : -1);
}

}  // namespace

std::vector<Part> findParts(std::span<const EdgeUse> edges, const Mesh& mesh) {
  UnionFind sets(mesh.triangles.size());
  forEachEdge(edges, [&](std::span<const EdgeUse> uses) {
    for (const EdgeUse& use : uses) sets.join(uses.front().triangle, use.triangle);
  });
  // Parts numbered in the order of their first triangles.
  std::vector<Part> parts;
  std::vector<std::uint32_t> partOfRoot(mesh.triangles.size(), UINT32_MAX);
  for (std::uint32_t t = 0; t < mesh.triangles.size(); ++t) {
    std::uint32_t& part = partOfRoot[sets.find(t)];
    if (part == UINT32_MAX) {
      part = std::uint32_t(parts.size());
      parts.emplace_back();
    }
    parts[part].triangles.push_back(t);
  }
  for (Part& part : parts) {
    std::vector<btVector3> corners;
    for (std::uint32_t t : part.triangles)
      for (std::uint32_t v : mesh.triangles[t]) corners.push_back(mesh.vertices[v]);
    part.bounds = boundsOf(corners);
    measureVolume(part, mesh);
  }
  return parts;
}

void checkVolume(std::span<const Part> parts) {
  HullError::Counts counts;
  double volume_m3 = 0;
  bool enclosesAny = false;
  for (const Part& part : parts) {
    volume_m3 += part.volume_m3;
    enclosesAny = enclosesAny || part.orientation != 0;
  }
  std::ostringstream s;
  if (!enclosesAny) {
    s << "keel::Hull: the hull encloses no volume (" << volume_m3 << " m^3 in " << parts.size()
      << " parts): every part is flat or of zero thickness, such as a sheet with both sides";
    throw HullError(s.str(), counts);
  }
  // Keel keeps to float's normal range in either precision, so that a mesh
  // is accepted or rejected alike by both builds: past it the float
  // integrals overflow to infinity or vanish to zero.
  constexpr double kLeast_m3 = std::numeric_limits<float>::min(), kMost_m3 = std::numeric_limits<float>::max();
  if (!(volume_m3 >= kLeast_m3 && volume_m3 <= kMost_m3)) {
    s << "keel::Hull: the hull's volume, " << volume_m3 << " m^3, is outside " << kLeast_m3 << " to " << kMost_m3
      << " m^3 (float's normal range, which Keel keeps to in either precision): are the vertices in metres?";
    throw HullError(s.str(), counts);
  }
}

}  // namespace keel::KEEL_ABI::detail::hull_build
