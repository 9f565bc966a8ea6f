// The grid and the winding rays of spatial_grid.hpp.

#include "hull/spatial_grid.hpp"

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// What a ray from a point along +axis does at one triangle.
enum class Ray { Miss, Leaves, Enters, Grazes, OnSurface };

/// The ray from `p` along +axis against triangle `c`, surfaces closer than
/// `tol_m` touching. In the plane across the axis the triangle is a 2-D
/// triangle and the ray a point: inside it by more than the tolerance is a
/// hit, outside by more a miss, and between the ray grazes an edge or corner
/// (or the triangle lies along the ray).
Ray cast(const Corners& c, const Vec3d& p, int axis, double tol_m) {
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  double x[3], y[3];
  for (int i = 0; i < 3; ++i) x[i] = at(c.p[i], u) - at(p, u), y[i] = at(c.p[i], v) - at(p, v);
  // Twice the 2-D area: the triangle's normal along the axis.
  const double area2 = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
  double longest = 0;
  for (int i = 0; i < 3; ++i) longest = std::max(longest, std::hypot(x[(i + 1) % 3] - x[i], y[(i + 1) % 3] - y[i]));
  if (std::abs(area2) <= tol_m * longest) {  // thinner than the tolerance: the triangle lies along the ray
    const bool near = std::min({x[0], x[1], x[2]}) <= tol_m && std::max({x[0], x[1], x[2]}) >= -tol_m &&
                      std::min({y[0], y[1], y[2]}) <= tol_m && std::max({y[0], y[1], y[2]}) >= -tol_m;
    return near ? Ray::Grazes : Ray::Miss;
  }
  double edge[3];  // the point's distance inside each edge's line [m]
  bool inside = true;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const double length = std::hypot(x[j] - x[i], y[j] - y[i]);
    edge[i] = (x[i] * y[j] - y[i] * x[j]) / length * (area2 > 0 ? 1 : -1);
    if (!(edge[i] > -tol_m)) return Ray::Miss;
    inside = inside && edge[i] >= tol_m;
  }
  if (!inside) return Ray::Grazes;
  // Where the ray meets the plane: the corners weighted by barycentric coordinates.
  const double weight0 = (x[1] * y[2] - y[1] * x[2]) / area2, weight1 = (x[2] * y[0] - y[2] * x[0]) / area2;
  const double hit = weight0 * at(c.p[0], axis) + weight1 * at(c.p[1], axis) +
                     (1 - weight0 - weight1) * at(c.p[2], axis);
  if (std::abs(hit - at(p, axis)) <= tol_m) return Ray::OnSurface;
  if (hit < at(p, axis)) return Ray::Miss;
  return area2 > 0 ? Ray::Leaves : Ray::Enters;
}

}  // namespace

CellGrid::CellGrid(const Mesh& mesh, std::span<const std::uint32_t> triangles, const Box& box, double grow_m,
                   int wholeAxis)
    : box_(box) {
  // Cells about as large as the triangles, at most 64 along an axis.
  double size_m = 0;
  for (std::uint32_t t : triangles) {
    const Box b = boxOf(cornersOf(mesh, t), 0);
    size_m += std::max({b.hi.x - b.lo.x, b.hi.y - b.lo.y, b.hi.z - b.lo.z});
  }
  size_m /= double(std::max<std::size_t>(triangles.size(), 1));
  for (int axis = 0; axis < 3; ++axis) {
    const double extent_m = at(box.hi, axis) - at(box.lo, axis);
    cells_[axis] = axis == wholeAxis || !(size_m > 0) ? 1 : int(std::clamp(extent_m / size_m, 1.0, 64.0));
    size_[axis] = extent_m > 0 ? extent_m / cells_[axis] : 1.0;
  }
  const std::size_t cellCount = std::size_t(cells_[0]) * std::size_t(cells_[1]) * std::size_t(cells_[2]);
  // Count, then place (compressed rows).
  start_.assign(cellCount + 1, 0);
  std::vector<std::uint32_t> cellsOf;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint32_t k = 0; k < triangles.size(); ++k) {
      const Box b = boxOf(cornersOf(mesh, triangles[k]), grow_m);
      for (int i = cellOf(b.lo.x, 0); i <= cellOf(b.hi.x, 0); ++i)
        for (int j = cellOf(b.lo.y, 1); j <= cellOf(b.hi.y, 1); ++j)
          for (int l = cellOf(b.lo.z, 2); l <= cellOf(b.hi.z, 2); ++l) {
            const std::size_t cell = (std::size_t(i) * cells_[1] + std::size_t(j)) * cells_[2] + std::size_t(l);
            if (pass == 0)
              ++start_[cell + 1];
            else
              items_[cellsOf[cell]++] = k;
          }
    }
    if (pass == 0) {
      for (std::size_t c = 0; c < cellCount; ++c) start_[c + 1] += start_[c];
      items_.resize(start_[cellCount]);
      cellsOf.assign(start_.begin(), start_.end() - 1);
    }
  }
}

WindingRays::WindingRays(const Mesh& mesh, std::span<const Part> parts, std::vector<std::uint32_t> triangles,
                         double tol_m)
    : mesh_(mesh), parts_(parts), triangles_(std::move(triangles)), partOf_(mesh.triangles.size()), tol_m_(tol_m) {
  for (std::uint32_t p = 0; p < parts.size(); ++p)
    for (std::uint32_t t : parts[p].triangles) partOf_[t] = p;
  Box box{{HUGE_VAL, HUGE_VAL, HUGE_VAL}, {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}};
  for (std::uint32_t t : triangles_) {
    const Box b = boxOf(cornersOf(mesh, t), tol_m);
    box = {{std::min(box.lo.x, b.lo.x), std::min(box.lo.y, b.lo.y), std::min(box.lo.z, b.lo.z)},
           {std::max(box.hi.x, b.hi.x), std::max(box.hi.y, b.hi.y), std::max(box.hi.z, b.hi.z)}};
  }
  for (int axis = 0; axis < 3; ++axis) columns_.emplace_back(mesh, triangles_, box, tol_m, axis);
}

bool WindingRays::windingAt(const Vec3d& p, std::vector<PartWinding>& out) const {
  for (int axis = 0; axis < 3; ++axis) {
    out.clear();
    Ray worst = Ray::Miss;
    columns_[std::size_t(axis)].forEachNear(Box{p, p}, [&](std::uint32_t k) {
      const std::uint32_t t = triangles_[k];
      // A closed part winds zero round any point outside its box.
      if (worst == Ray::Grazes || worst == Ray::OnSurface || !contains(boxOf(parts_[partOf_[t]].bounds, tol_m_), p))
        return;
      const Ray ray = cast(cornersOf(mesh_, t), p, axis, tol_m_);
      if (ray == Ray::Grazes || ray == Ray::OnSurface) worst = ray;
      if (ray != Ray::Leaves && ray != Ray::Enters) return;
      const int step = ray == Ray::Leaves ? 1 : -1;
      auto it = std::find_if(out.begin(), out.end(), [&](const PartWinding& w) { return w.part == partOf_[t]; });
      if (it == out.end())
        out.push_back({partOf_[t], step});
      else
        it->winding += step;
    });
    if (worst == Ray::OnSurface) return false;
    if (worst == Ray::Grazes) continue;
    std::erase_if(out, [](const PartWinding& w) { return w.winding == 0; });
    return true;
  }
  return false;
}

}  // namespace keel::KEEL_ABI::detail::hull_build
