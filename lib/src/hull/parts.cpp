// Hull construction: the connected parts (a catamaran has two) and their
// winding.

#include "hull/build_steps.hpp"

#include <numeric>
#include <unordered_map>

namespace keel::detail::hull_build {
namespace {

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

}  // namespace

void checkPartOrientations(std::span<const EdgeUse> edges, const Mesh& mesh, SurfaceProblems& problems) {
  Parts parts(mesh.triangles.size());
  forEachEdge(edges, [&](std::span<const EdgeUse> uses) {
    for (const EdgeUse& use : uses) parts.join(uses.front().triangle, use.triangle);
  });
  // Each part's enclosed volume, positive when it faces outward.
  std::unordered_map<std::uint32_t, double> partVolume_m3;
  for (std::uint32_t t = 0; t < mesh.triangles.size(); ++t) {
    const Hull::Triangle& tri = mesh.triangles[t];
    partVolume_m3[parts.find(t)] += originTetrahedronVolume_m3(
        toD(mesh.vertices[tri[0]]), toD(mesh.vertices[tri[1]]), toD(mesh.vertices[tri[2]]));
  }
  problems.partCount = partVolume_m3.size();
  for (const auto& [root, volume_m3] : partVolume_m3)
    if (volume_m3 <= 0 && problems.counts.inwardParts++ == 0) problems.firstInwardVolume_m3 = volume_m3;
}

}  // namespace keel::detail::hull_build
