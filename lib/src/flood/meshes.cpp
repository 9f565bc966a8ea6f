// All of a boat's compartments as one mesh for the kernels (floodwater.hpp,
// CompartmentMeshes): one classify and one cut a substep serve every
// compartment, instead of one each. A small compartment's substep is mostly
// the kernels' fixed cost, so four compartments cost little more than one
// (docs/flooding.md, "Cost").
#include "flood/floodwater.hpp"
#include "hull/hull_access.hpp"

#include <algorithm>

namespace keel::KEEL_ABI::detail {
namespace {

/// Appends `from`'s first `n` entries to `to`.
template <class T>
void append(std::vector<T>& to, const std::vector<T>& from, std::size_t n) {
  to.insert(to.end(), from.begin(), from.begin() + std::ptrdiff_t(n));
}

/// Appends one compartment's SoA to `all`, its vertex indices moved by the
/// vertices already there. Each part is padded on its own, so its triangles
/// start at a multiple of kPad and no block of kPad mixes compartments.
void appendSoA(HullSoA& all, const HullSoA& part) {
  const std::size_t vertices = all.vertexPadded, n = part.trianglePadded;
  for (auto [to, from] : {std::pair{&all.x, &part.x}, {&all.y, &part.y}, {&all.z, &part.z}})
    append(*to, *from, part.vertexPadded);
  for (auto [to, from] : {std::pair{&all.ax, &part.ax}, {&all.ay, &part.ay},
                          {&all.az, &part.az},          {&all.bx, &part.bx},
                          {&all.by, &part.by},          {&all.bz, &part.bz},
                          {&all.cx, &part.cx},          {&all.cy, &part.cy},
                          {&all.cz, &part.cz},          {&all.gx, &part.gx},
                          {&all.gy, &part.gy},          {&all.gz, &part.gz},
                          {&all.sx, &part.sx},          {&all.sy, &part.sy},
                          {&all.sz, &part.sz},          {&all.area, &part.area},
                          {&all.csx, &part.csx},        {&all.csy, &part.csy},
                          {&all.csz, &part.csz},        {&all.inverseArea, &part.inverseArea}})
    append(*to, *from, n);
  append(all.cutRecord, part.cutRecord, n * HullSoA::kCutRecord);
  append(all.blockLow, part.blockLow, 3 * (n / kPad));
  append(all.blockHigh, part.blockHigh, 3 * (n / kPad));
  append(all.triangle, part.triangle, n);
  for (std::size_t t = 0; t < n; ++t) {
    const std::uint64_t c = part.corners[t];
    all.corners.push_back(HullSoA::pack(vertices + HullSoA::corner(c, 0), vertices + HullSoA::corner(c, 1),
                                        vertices + HullSoA::corner(c, 2)));
    for (int k = 0; k < 3; ++k) all.vertexOf[k].push_back(ScalarIndex(vertices + HullSoA::corner(c, k)));
  }
  all.vertexPadded += part.vertexPadded;
  all.trianglePadded += n;
  all.triangleCount += part.triangleCount;
  all.blockReach = std::max(all.blockReach, part.blockReach);
}

}  // namespace

CompartmentMeshes::CompartmentMeshes(const std::vector<Compartment>& compartments) {
  firstVertex.push_back(0);
  firstTriangle.push_back(0);
  for (std::size_t i = 0; i < compartments.size(); ++i) {
    const HullSoA& part = soaOf(*compartments[i].space);
    appendSoA(soa, part);
    compartmentOf.insert(compartmentOf.end(), part.trianglePadded, std::uint32_t(i));
    firstVertex.push_back(soa.vertexPadded);
    firstTriangle.push_back(soa.trianglePadded);
  }
  // Every entry counts as a vertex: a part's padding vertices sit at its
  // origin under its own plane, and no triangle uses them.
  soa.vertexCount = soa.vertexPadded;
}

}  // namespace keel::KEEL_ABI::detail
