// HullSoA: the hull copied once into the kernels' layout and order.

#include "kernels/hull_soa.hpp"

#include <algorithm>
#include <span>

namespace keel::KEEL_ABI::detail {

namespace {

/// Padding entry of kernelOrder.
constexpr std::uint32_t kNoTriangle = ~std::uint32_t(0);

/// The order the kernels visit the hull's triangles in, padded with
/// kNoTriangle to a multiple of kPad. A vector of neighbouring entries
/// should be wholly wet or wholly dry as often as possible, so the kernels
/// skip it (dry) or use every lane (wet): the triangles are sorted by the
/// height of their centroid along the hull's shortest axis (a boat's up).
/// (Splitting the hull into quarters first, each sorted by height, left
/// fewer mixed vectors on average over poses but measured slower with
/// keel_bench.)
std::vector<std::uint32_t> kernelOrder(const Hull& hull) {
  const std::span<const btVector3> vertices = hull.vertices();
  const std::size_t count = hull.triangles().size();
  const int up = (hull.boundsMax() - hull.boundsMin()).minAxis();
  std::vector<btScalar> height(count);  // three times the centroid's [m]
  std::vector<std::uint32_t> order(count);
  for (std::size_t t = 0; t < count; ++t) {
    const Hull::Triangle& tri = hull.triangles()[t];
    height[t] = vertices[tri[0]][up] + vertices[tri[1]][up] + vertices[tri[2]][up];
    order[t] = std::uint32_t(t);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return height[a] < height[b]; });
  order.resize(padded(count), kNoTriangle);
  return order;
}

}  // namespace

HullSoA::HullSoA(const Hull& hull)
    : vertexCount(hull.vertices().size()),
      vertexPadded(padded(vertexCount)),
      triangleCount(hull.triangles().size()),
      triangle(kernelOrder(hull)) {
  trianglePadded = triangle.size();
  for (auto* v : {&x, &y, &z}) v->assign(vertexPadded, 0);
  for (std::size_t i = 0; i < vertexCount; ++i) {
    const btVector3& p = hull.vertices()[i];
    x[i] = p.x(), y[i] = p.y(), z[i] = p.z();
  }
  corners.assign(trianglePadded, 0);
  for (std::vector<ScalarIndex>& v : vertexOf) v.assign(trianglePadded, 0);
  for (auto* v : {&ax, &ay, &az, &bx, &by, &bz,  &cx,  &cy,  &cz,   &gx,
                  &gy, &gz, &sx, &sy, &sz, &csx, &csy, &csz, &area, &inverseArea})
    v->assign(trianglePadded, 0);
  for (std::size_t t = 0; t < trianglePadded; ++t) {
    if (triangle[t] == kNoTriangle) continue;  // padding: zero area, vertex 0
    const Hull::Triangle& tri = hull.triangles()[triangle[t]];
    corners[t] = pack(tri[0], tri[1], tri[2]);
    for (int k = 0; k < 3; ++k) vertexOf[k][t] = ScalarIndex(tri[std::size_t(k)]);
    const btVector3 &a = hull.vertices()[tri[0]], &b = hull.vertices()[tri[1]], &c = hull.vertices()[tri[2]];
    ax[t] = a.x(), ay[t] = a.y(), az[t] = a.z();
    bx[t] = b.x(), by[t] = b.y(), bz[t] = b.z();
    cx[t] = c.x(), cy[t] = c.y(), cz[t] = c.z();
    const btVector3 g = (a + b + c) * btScalar(1.0 / 3.0);
    gx[t] = g.x(), gy[t] = g.y(), gz[t] = g.z();
    const btVector3 s = (b - a).cross(c - a) * btScalar(0.5);  // areaVector_m2
    sx[t] = s.x(), sy[t] = s.y(), sz[t] = s.z();
    const btVector3 gs = g.cross(s);
    csx[t] = gs.x(), csy[t] = gs.y(), csz[t] = gs.z();
    area[t] = hull.triangleAreas_m2()[triangle[t]];
    inverseArea[t] = 1 / area[t];  // > 0: the hull dropped degenerate triangles
  }
  cutRecord.assign(trianglePadded * kCutRecord, 0);
  for (std::size_t t = 0; t < trianglePadded; ++t) {
    const btScalar fields[kCutRecord] = {ax[t], ay[t], az[t], area[t], bx[t], by[t], bz[t], 0,
                                         cx[t], cy[t], cz[t], 0,       sx[t], sy[t], sz[t], 0};
    std::copy(fields, fields + kCutRecord, &cutRecord[t * kCutRecord]);
  }
  // (Only where that kernel runs: one block of triangles, in float.)
  if (trianglePadded == kPad && trianglePadded <= 64 / sizeof(btScalar)) {
    for (const std::vector<btScalar>* f :
         {&ax, &ay, &az, &bx, &by, &bz, &cx, &cy, &cz, &gx, &gy, &gz, &sx, &sy, &sz, &area})
      smallFields.insert(smallFields.end(), f->begin(), f->end());
  }
  // Each block's box, and how far its corners reach from the origin.
  blockLow.assign(trianglePadded / kPad * 3, BT_LARGE_FLOAT);
  blockHigh.assign(trianglePadded / kPad * 3, -BT_LARGE_FLOAT);
  for (std::size_t t = 0; t < trianglePadded; ++t) {
    if (triangle[t] == kNoTriangle) continue;
    btScalar* low = &blockLow[t / kPad * 3];
    btScalar* high = &blockHigh[t / kPad * 3];
    for (std::uint32_t v : hull.triangles()[triangle[t]])
      for (int k = 0; k < 3; ++k) {
        low[k] = std::min(low[k], hull.vertices()[v][k]);
        high[k] = std::max(high[k], hull.vertices()[v][k]);
      }
  }
  blockReach = hull.radius_m();
}

}  // namespace keel::KEEL_ABI::detail
