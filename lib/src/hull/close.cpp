// Hull construction, HullOptions::closeOpenings: a render mesh closed (its
// T-junctions split, its openings capped, parts wound inside out reversed)
// before the checks every hull passes, and the account of what was done.

#include "hull/build_steps.hpp"
#include "hull/spatial_grid.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <utility>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// Whether a point of part `p` lies inside the outward parts that `rays`
/// cast against: a part wound inward there is a cavity. Judged at the first
/// of its triangles' centroids that no other surface touches; true when none
/// can be judged, leaving the part to the nesting check.
bool insideOutward(const Mesh& mesh, const Part& part, const WindingRays& rays) {
  constexpr std::size_t kTries = 16;
  std::vector<PartWinding> winding;
  for (std::size_t i = 0; i < std::min(kTries, part.triangles.size()); ++i) {
    if (!rays.windingAt(centroidOf(cornersOf(mesh, part.triangles[i])), winding)) continue;
    int total = 0;
    for (const PartWinding& w : winding) total += w.winding;
    return total > 0;
  }
  return true;
}

/// Reverses each closed part wound inward (negative volume) that lies in no
/// outward part; sums the volumes of the parts holding a triangle from
/// `firstCap` on (the caps).
void flipInsideOutParts(Mesh& mesh, double tol_m, std::size_t firstCap, HullRepair& repair) {
  const std::vector<EdgeUse> edges = collectEdges(mesh.triangles);
  std::vector<Part> parts = findParts(edges, mesh);
  std::vector<std::uint32_t> partOf(mesh.triangles.size());
  for (std::uint32_t p = 0; p < parts.size(); ++p)
    for (std::uint32_t t : parts[p].triangles) partOf[t] = p;
  std::vector<bool> closed(parts.size(), true);
  forEachEdge(edges, [&](std::span<const EdgeUse> uses) {
    int direction = 0;
    for (const EdgeUse& use : uses) direction += use.direction;
    if (direction != 0) closed[partOf[uses.front().triangle]] = false;
  });
  std::vector<std::uint32_t> outward;
  bool anyInward = false;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (closed[p] && parts[p].orientation > 0)
      outward.insert(outward.end(), parts[p].triangles.begin(), parts[p].triangles.end());
    anyInward = anyInward || (closed[p] && parts[p].orientation < 0);
  }
  std::optional<WindingRays> rays;
  if (anyInward && !outward.empty()) rays.emplace(mesh, parts, std::move(outward), tol_m);
  for (Part& part : parts) {
    if (!closed[std::size_t(&part - parts.data())] || part.orientation >= 0) continue;
    if (rays && insideOutward(mesh, part, *rays)) continue;
    for (std::uint32_t t : part.triangles) std::swap(mesh.triangles[t][1], mesh.triangles[t][2]);
    part.volume_m3 = -part.volume_m3;
    ++repair.partsFlipped;
  }
  double capped_m3 = 0;
  for (std::size_t p = 0; p < parts.size(); ++p)
    if (closed[p] && parts[p].triangles.back() >= firstCap) capped_m3 += parts[p].volume_m3;
  repair.cappedVolume_m3 = btScalar(capped_m3);
}

}  // namespace

HullRepair closeOpenings(Mesh& mesh, double tol_m, double minDoubleArea_m2) {
  HullRepair repair;
  repair.ran = true;
  const std::size_t given = mesh.triangles.size();
  repair.tJunctionsSplit = splitTJunctions(mesh, tol_m);
  const std::size_t firstCap = mesh.triangles.size();
  capOpenings(mesh, minDoubleArea_m2, repair);
  repair.trianglesAdded = mesh.triangles.size() - given;
  flipInsideOutParts(mesh, tol_m, firstCap, repair);
  return repair;
}

[[noreturn]] void rethrowWithRepair(const HullError& error, const HullRepair& repair) {
  if (!repair.ran) throw;
  throw HullError(std::string(error.what()) + " [" + repair.text() + "]", error.counts());
}

}  // namespace keel::KEEL_ABI::detail::hull_build

namespace keel::KEEL_ABI {

std::string HullRepair::text() const {
  std::ostringstream s;
  s << "HullOptions::closeOpenings:";
  const std::size_t before = std::size_t(s.tellp());
  if (tJunctionsSplit) s << " split edges at " << tJunctionsSplit << " T-junction vertices;";
  if (loopsCapped) {
    s << " capped " << loopsCapped << " loop(s) of open edges, " << capArea_m2 << " m^2, closing parts of "
      << cappedVolume_m3 << " m^3, loop vertices at most " << capFlatness_m << " m off their planes;";
  }
  if (trianglesAdded) s << " " << trianglesAdded << " triangle(s) added;";
  if (partsFlipped) s << " reversed " << partsFlipped << " part(s) wound inside out;";
  if (loopsNotCapped) s << " " << loopsNotCapped << " loop(s) not capped, first " << firstNotCapped << ";";
  if (std::size_t(s.tellp()) == before) s << " nothing to close;";
  std::string text = s.str();
  text.pop_back();
  return text;
}

}  // namespace keel::KEEL_ABI
