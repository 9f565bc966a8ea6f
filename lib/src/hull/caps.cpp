// Hull construction, HullOptions::closeOpenings: the loops of open edges
// (a missing deck's rim), each closed by a cap.
//
// A cap is triangulated on its loop's best-fit plane, the plane across
// Newell's normal (the vector area of the loop, Sutherland, Sproull and
// Schumacker, "A characterization of ten hidden-surface algorithms",
// Computing Surveys 6(1), 1974), by ear clipping (Meisters, "Polygons have
// ears", American Mathematical Monthly 82(6), 1975). The cap runs against
// the loop's triangles, so each of the loop's edges is then used once each
// way and the part closes with the winding it had.

#include "hull/build_steps.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// A point on the loop's plane [m].
struct Flat {
  double u, v;
};

/// Twice the signed area of (a, b, c): positive counter-clockwise.
double orient(const Flat& a, const Flat& b, const Flat& c) {
  return (b.u - a.u) * (c.v - a.v) - (b.v - a.v) * (c.u - a.u);
}

/// Ear clipping of the counter-clockwise polygon `p`: each clipped corner is
/// convex by more than `least` (twice an area) and has no other corner
/// inside or on its triangle, which keeps corners lying on a diagonal from
/// being left on an edge they do not end. False when the polygon has no
/// such ear left (it is not simple in this projection).
bool clipEars(std::span<const Flat> p, double least, std::vector<std::array<std::uint32_t, 3>>& out) {
  std::vector<std::uint32_t> left(p.size());
  for (std::uint32_t i = 0; i < left.size(); ++i) left[i] = i;
  const auto isEar = [&](std::size_t i) {
    const std::size_t n = left.size();
    const Flat &a = p[left[(i + n - 1) % n]], &b = p[left[i]], &c = p[left[(i + 1) % n]];
    if (!(orient(a, b, c) > least)) return false;
    for (std::size_t k = 0; k + 3 < n; ++k) {
      const Flat& q = p[left[(i + 2 + k) % n]];
      if (orient(a, b, q) >= -least && orient(b, c, q) >= -least && orient(c, a, q) >= -least) return false;
    }
    return true;
  };
  // Around the polygon from the last ear: a whole round without one fails.
  std::size_t i = 0, tried = 0;
  while (left.size() > 3) {
    if (tried++ > left.size()) return false;
    i %= left.size();
    if (!isEar(i)) {
      ++i;
      continue;
    }
    const std::size_t n = left.size();
    out.push_back({left[(i + n - 1) % n], left[i], left[(i + 1) % n]});
    left.erase(left.begin() + std::ptrdiff_t(i));
    tried = 0;
    if (i > 0) --i;
  }
  if (!(orient(p[left[0]], p[left[1]], p[left[2]]) > least)) return false;
  out.push_back({left[0], left[1], left[2]});
  return true;
}

/// One loop to cap, its corners in the cap's order, and where it is.
struct Loop {
  std::vector<std::uint32_t> corners;
  std::size_t number = 0, count = 0;  // 1-based, of how many
};

std::string describe(const Loop& loop, const Mesh& mesh, const Vec3d& centre) {
  std::ostringstream s;
  s << "loop " << loop.number << " of " << loop.count << " (" << loop.corners.size() << " edges, around "
    << formatPoint(btVector3(btScalar(centre.x), btScalar(centre.y), btScalar(centre.z))) << ", through "
    << formatPoint(mesh.vertices[loop.corners.front()]) << ")";
  return s.str();
}

/// Caps `loop`, appending to `mesh`; counts into `repair`, or says there why
/// it could not.
void capLoop(const Loop& loop, Mesh& mesh, double minDoubleArea_m2, HullRepair& repair) {
  const std::size_t n = loop.corners.size();
  std::vector<Vec3d> at(n);
  Vec3d centre{0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    at[i] = toD(mesh.vertices[loop.corners[i]]);
    centre = {centre.x + at[i].x / double(n), centre.y + at[i].y / double(n), centre.z + at[i].z / double(n)};
  }
  Vec3d normal{0, 0, 0};  // Newell's: twice the loop's vector area
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d c = cross(sub(at[i], centre), sub(at[(i + 1) % n], centre));
    normal = {normal.x + c.x, normal.y + c.y, normal.z + c.z};
  }
  const double doubleArea_m2 = norm(normal);
  const auto refuse = [&](const char* why) {
    if (repair.loopsNotCapped++ == 0) repair.firstNotCapped = describe(loop, mesh, centre) + why;
  };
  if (n < 3 || !(doubleArea_m2 > minDoubleArea_m2)) return refuse(" encloses no area on any plane");
  const Vec3d w{normal.x / doubleArea_m2, normal.y / doubleArea_m2, normal.z / doubleArea_m2};
  // Across w: u along the axis least aligned with it, v = w x u.
  const Vec3d axis = std::abs(w.x) < std::abs(w.y) ? (std::abs(w.x) < std::abs(w.z) ? Vec3d{1, 0, 0} : Vec3d{0, 0, 1})
                                                   : (std::abs(w.y) < std::abs(w.z) ? Vec3d{0, 1, 0} : Vec3d{0, 0, 1});
  Vec3d u = cross(axis, w);
  u = {u.x / norm(u), u.y / norm(u), u.z / norm(u)};
  const Vec3d v = cross(w, u);
  std::vector<Flat> flat(n);
  double offPlane_m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3d d = sub(at[i], centre);
    flat[i] = {dot(d, u), dot(d, v)};
    offPlane_m = std::max(offPlane_m, std::abs(dot(d, w)));
  }
  std::vector<std::array<std::uint32_t, 3>> caps;
  if (!clipEars(flat, minDoubleArea_m2, caps))
    return refuse(" does not project onto its best-fit plane as a simple polygon");
  double area_m2 = 0;
  for (const auto& c : caps) {
    const Hull::Triangle& t = mesh.triangles.emplace_back(
        Hull::Triangle{loop.corners[c[0]], loop.corners[c[1]], loop.corners[c[2]]});
    const Vec3d p0 = toD(mesh.vertices[t[0]]);
    area_m2 += norm(cross(sub(toD(mesh.vertices[t[1]]), p0), sub(toD(mesh.vertices[t[2]]), p0))) / 2;
  }
  ++repair.loopsCapped;
  repair.capArea_m2 += btScalar(area_m2);
  repair.capFlatness_m = std::max(repair.capFlatness_m, btScalar(offPlane_m));
}

/// An open edge as the triangles run along it.
struct HalfEdge {
  std::uint32_t from, to;
};

/// The loops of `open` (sorted by `from`), each split where it passes a
/// vertex twice (two openings meeting at a corner), its corners in the
/// order the triangles run. `stray` counts the edges that close no loop.
std::vector<std::vector<std::uint32_t>> loopsOf(std::span<const HalfEdge> open, std::size_t& stray) {
  std::vector<bool> used(open.size(), false);
  const auto nextFrom = [&](std::uint32_t vertex) -> std::ptrdiff_t {
    auto it = std::lower_bound(open.begin(), open.end(), vertex,
                               [](const HalfEdge& e, std::uint32_t v) { return e.from < v; });
    for (; it != open.end() && it->from == vertex; ++it)
      if (!used[std::size_t(it - open.begin())]) return it - open.begin();
    return -1;
  };
  std::vector<std::vector<std::uint32_t>> loops;
  std::vector<std::uint32_t> path;
  std::unordered_map<std::uint32_t, std::size_t> placeOf;  // in path
  for (std::size_t first = 0; first < open.size(); ++first) {
    if (used[first]) continue;
    path.assign(1, open[first].from);
    placeOf.clear();
    placeOf[path[0]] = 0;
    while (!path.empty()) {
      const std::ptrdiff_t e = nextFrom(path.back());
      if (e < 0) {  // a dead end: the open edges here do not pair off into loops
        stray += path.size() - 1;
        break;
      }
      used[std::size_t(e)] = true;
      const std::uint32_t to = open[std::size_t(e)].to;
      const auto seen = placeOf.find(to);
      if (seen == placeOf.end()) {
        placeOf[to] = path.size();
        path.push_back(to);
        continue;
      }
      const std::size_t k = seen->second;
      loops.emplace_back(path.begin() + std::ptrdiff_t(k), path.end());
      for (std::size_t i = k + 1; i < path.size(); ++i) placeOf.erase(path[i]);
      path.resize(k + 1);
      if (k == 0) break;
    }
  }
  return loops;
}

}  // namespace

void capOpenings(Mesh& mesh, double minDoubleArea_m2, HullRepair& repair) {
  std::vector<HalfEdge> open;
  forEachEdge(collectEdges(mesh.triangles), [&](std::span<const EdgeUse> uses) {
    int direction = 0;
    for (const EdgeUse& use : uses) direction += use.direction;
    const auto lo = std::uint32_t(uses.front().key >> 32), hi = std::uint32_t(uses.front().key & 0xffffffffu);
    if (direction == 1) open.push_back({lo, hi});
    if (direction == -1) open.push_back({hi, lo});
  });
  std::sort(open.begin(), open.end(),
            [](const HalfEdge& x, const HalfEdge& y) { return std::pair(x.from, x.to) < std::pair(y.from, y.to); });
  std::size_t stray = 0;
  const std::vector<std::vector<std::uint32_t>> loops = loopsOf(open, stray);
  for (std::size_t i = 0; i < loops.size(); ++i) {
    // The cap runs against the triangles: the loop reversed.
    Loop loop{{loops[i].rbegin(), loops[i].rend()}, i + 1, loops.size()};
    capLoop(loop, mesh, minDoubleArea_m2, repair);
  }
  if (stray > 0 && repair.loopsNotCapped++ == 0)
    repair.firstNotCapped = std::to_string(stray) + " open edge(s) that close no loop (their triangles wind both ways)";
}

}  // namespace keel::KEEL_ABI::detail::hull_build
